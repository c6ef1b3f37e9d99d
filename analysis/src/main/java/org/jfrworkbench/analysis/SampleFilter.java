package org.jfrworkbench.analysis;

import java.util.BitSet;

import org.jfrworkbench.model.SampleTable;

/**
 * Which samples a query looks at: a time window (epoch nanoseconds, inclusive) and optionally a set of thread ids.
 * Aggregates the selected samples per stack, which is what every tree and statistic is built from.
 */
public record SampleFilter(long fromNanos, long toNanos, BitSet threads) {
    public static final SampleFilter ALL = new SampleFilter(Long.MIN_VALUE, Long.MAX_VALUE, null);

    public boolean accepts(SampleTable t, int i) {
        long time = t.time(i);
        return time >= fromNanos && time <= toNanos && (threads == null || threads.get(t.thread(i)));
    }

    /** Weight and sample count per stack id; index stacks.size() holds the samples without a stack. */
    public StackWeights aggregate(SampleTable t, int stackCount) {
        long[] weight = new long[stackCount + 1];
        long[] count = new long[stackCount + 1];
        boolean all = fromNanos == Long.MIN_VALUE && toNanos == Long.MAX_VALUE && threads == null;
        long totalWeight = 0;
        long samples = 0;
        for (int i = 0, n = t.size(); i < n; i++) {
            if (all || accepts(t, i)) {
                int s = t.stack(i);
                int slot = s < 0 || s >= stackCount ? stackCount : s;
                long w = t.weight(i);
                weight[slot] += w;
                count[slot]++;
                totalWeight += w;
                samples++;
            }
        }
        return new StackWeights(weight, count, totalWeight, samples);
    }

    /** Per-stack sums of the selected samples. */
    public record StackWeights(long[] weight, long[] count, long totalWeight, long samples) {
    }
}
