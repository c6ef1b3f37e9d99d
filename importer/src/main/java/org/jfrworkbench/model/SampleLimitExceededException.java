package org.jfrworkbench.model;

/** A profile would hold more samples than its import allows ({@link Profile#limitSamples}). */
public final class SampleLimitExceededException extends RuntimeException {
    private final long limit;

    SampleLimitExceededException(long limit) {
        super("more than " + limit + " samples");
        this.limit = limit;
    }

    public long limit() {
        return limit;
    }
}
