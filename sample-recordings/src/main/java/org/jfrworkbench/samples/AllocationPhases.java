package org.jfrworkbench.samples;

/**
 * Allocates as fast as it can for a start-up phase, then at a steady, paced rate: like a service whose start-up
 * (class loading, caches filled, code not yet compiled) allocates differently from its steady state. An allocation
 * sampler that aims at a number of samples per second must aim at the steady rate once it has seen it.
 * Usage: {@code AllocationPhases BURST_MILLIS STEADY_MB_PER_SECOND TOTAL_SECONDS|stdin}.
 */
public final class AllocationPhases {
    static volatile Object sink;

    public static void main(String[] args) throws InterruptedException {
        long burstMillis = args.length > 0 ? Long.parseLong(args[0]) : 1000;
        int steadyMbPerSecond = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        RunFor run = RunFor.parse(args, 2, 15);
        long start = System.nanoTime();
        long burstEnd = start + burstMillis * 1_000_000L;
        long burstBytes = 0;
        while (System.nanoTime() < burstEnd) {
            for (int i = 0; i < 1024; i++) {
                sink = new byte[1024];
            }
            burstBytes += 1024 * 1024;
        }
        // then 1 KB arrays in steps of 10 ms, paced by the clock: the same bytes per second on a slow or busy machine
        long perStep = steadyMbPerSecond * 1024L * 1024 / 100;
        long next = System.nanoTime();
        while (run.running()) {
            for (long b = 0; b < perStep; b += 1024) {
                sink = new byte[1024];
            }
            next += 10_000_000L;
            long wait = next - System.nanoTime();
            if (wait > 0) {
                Thread.sleep(wait / 1_000_000L, (int) (wait % 1_000_000L));
            }
        }
        System.out.println("allocation phases done: " + (burstBytes >> 20) + " MB in the burst, then " + steadyMbPerSecond + " MB/s");
    }
}
