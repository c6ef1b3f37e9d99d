package org.jfrworkbench.model;

/**
 * How many samples one profile may hold over all its kinds: samples are what grows with a recording's size (a
 * gzip of short collapsed lines expands into a hundred million of them), so a server bounds them by its heap.
 */
final class SampleBudget {
    private volatile long max = Long.MAX_VALUE;
    private long used;

    void limit(long samples) {
        max = samples;
    }

    /** Counts slots as a table makes room for them; throws past the limit, before the room is allocated. */
    synchronized void take(int slots) {
        if (used + slots > max) {
            throw new SampleLimitExceededException(max);
        }
        used += slots;
    }
}
