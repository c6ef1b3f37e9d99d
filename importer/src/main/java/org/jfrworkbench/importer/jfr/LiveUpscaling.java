package org.jfrworkbench.importer.jfr;

/** JEP 331 style Poisson sampling over allocated bytes: what one sampled object stands for. */
public final class LiveUpscaling {
    private LiveUpscaling() {
    }

    /** s / (1 - exp(-s/I)) for a sample of s bytes at interval I; s itself when the interval is unknown (<= 0). */
    public static long upscale(long s, long interval) {
        if (interval <= 0 || s <= 0) {
            return s;
        }
        double p = -Math.expm1(-(double) s / interval);
        return p > 0 ? Math.round(s / p) : s;
    }
}
