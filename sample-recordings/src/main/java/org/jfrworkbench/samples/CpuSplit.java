package org.jfrworkbench.samples;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * Spends a known share of CPU in three methods: 60 % in {@link #sixty}, 30 % in {@link #thirty},
 * 10 % in {@link #ten}, on one thread. The split is by amount of work (the same loop, 6:3:1 iterations), not by
 * the clock, so it holds on a busy machine too. A profiler's shares must match.
 * Usage: {@code CpuSplit SECONDS}: seconds of this thread's CPU time (wall time where the JVM cannot measure it), so a
 * CPU sampler gets the same number of samples however many other processes share the machine; {@code CpuSplit stdin}
 * runs until standard input ends.
 */
public final class CpuSplit {
    static volatile long sink;

    public static void main(String[] args) {
        RunFor run = RunFor.parse(args, 0, 10);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        boolean cpuClock = threads.isCurrentThreadCpuTimeSupported();
        long end = (cpuClock ? threads.getCurrentThreadCpuTime() : System.nanoTime()) + run.seconds() * 1_000_000_000L;
        while (run.untilStdinEnds() ? !run.stopped() : (cpuClock ? threads.getCurrentThreadCpuTime() : System.nanoTime()) < end) {
            sixty();
            thirty();
            ten();
        }
        System.out.println("cpu split done " + sink);
    }

    static void sixty() {
        spin(6 * UNIT);
    }

    static void thirty() {
        spin(3 * UNIT);
    }

    static void ten() {
        spin(UNIT);
    }

    /** Iterations per unit: about a millisecond of work. */
    private static final int UNIT = 400_000;

    /** A dependent chain of multiplications the JIT cannot shorten: time is proportional to {@code iterations}. */
    static void spin(int iterations) {
        long x = sink;
        for (int i = 0; i < iterations; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            x ^= x >>> 29;
        }
        sink = x;
    }
}
