package org.jfrworkbench.samples;

/**
 * Spends a known share of CPU time in three methods: 60 % in {@link #sixty}, 30 % in {@link #thirty},
 * 10 % in {@link #ten}, measured by the clock, on one thread. A profiler's shares must match.
 * Usage: {@code CpuSplit SECONDS}.
 */
public final class CpuSplit {
    static volatile long sink;

    public static void main(String[] args) {
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : 10;
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < end) {
            sixty();
            thirty();
            ten();
        }
        System.out.println("cpu split done " + sink);
    }

    static void sixty() {
        spin(6_000_000);
    }

    static void thirty() {
        spin(3_000_000);
    }

    static void ten() {
        spin(1_000_000);
    }

    /** Busy work for {@code nanos} of elapsed time; the thread is on CPU the whole time. */
    static void spin(long nanos) {
        long until = System.nanoTime() + nanos;
        long x = sink;
        while (System.nanoTime() < until) {
            for (int i = 0; i < 200; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
        }
        sink = x;
    }
}
