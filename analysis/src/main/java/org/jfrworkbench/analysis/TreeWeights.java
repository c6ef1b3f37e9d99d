package org.jfrworkbench.analysis;

/**
 * The selected samples' weights on a {@link CallTree}: per node its own (self) weight and sample count, and the
 * totals of its subtree, summed in one backward pass over the pre-order (children come after their parent). When
 * every selected sample weighs the same (sample counts, or a kind whose weights are all equal), only the counts are
 * kept and a weight is its count times that unit: half the arrays to fill, sum and walk.
 */
public final class TreeWeights {
    private final CallTree tree;
    private final long[] self;
    private final long[] total;
    private final int[] selfSamples;
    private final int[] totalSamples;
    /** The weight of each sample when self and total are null. */
    private final long unit;

    TreeWeights(CallTree tree, long[] self, int[] selfSamples) {
        this.tree = tree;
        this.unit = 0;
        this.self = self;
        this.selfSamples = selfSamples;
        int n = self.length;
        total = self.clone();
        totalSamples = selfSamples.clone();
        for (int i = n - 1; i > 0; i--) {
            int p = tree.parent(i);
            total[p] += total[i];
            totalSamples[p] += totalSamples[i];
        }
    }

    /** Samples that each weigh unit: self and total weights are the counts times unit. */
    TreeWeights(CallTree tree, int[] selfSamples, long unit) {
        this.tree = tree;
        this.unit = unit;
        this.self = null;
        this.total = null;
        this.selfSamples = selfSamples;
        int[] totals = selfSamples.clone();
        for (int i = totals.length - 1; i > 0; i--) {
            totals[tree.parent(i)] += totals[i];
        }
        totalSamples = totals;
    }

    /** The weight of every sample when weights are counts times a unit, else 0. */
    long unit() {
        return self == null ? unit : 0;
    }

    public CallTree tree() {
        return tree;
    }

    public long self(int node) {
        return self != null ? self[node] : unit * selfSamples[node];
    }

    public long total(int node) {
        return total != null ? total[node] : unit * totalSamples[node];
    }

    public int selfSamples(int node) {
        return selfSamples[node];
    }

    /** Samples in the node's subtree: 0 means no selected sample passes through it. */
    public int totalSamples(int node) {
        return totalSamples[node];
    }

    /** The selection's whole weight (the root's total). */
    public long totalWeight() {
        return total(0);
    }

    public int samples() {
        return totalSamples[0];
    }
}
