package org.jfrworkbench.analysis;

/**
 * The selected samples' weights on a {@link CallTree}: per node its own (self) weight and sample count, and the
 * totals of its subtree, summed in one backward pass over the pre-order (children come after their parent).
 */
public final class TreeWeights {
    private final CallTree tree;
    private final long[] self;
    private final long[] total;
    private final int[] selfSamples;
    private final int[] totalSamples;

    TreeWeights(CallTree tree, long[] self, int[] selfSamples) {
        this.tree = tree;
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

    public CallTree tree() {
        return tree;
    }

    public long self(int node) {
        return self[node];
    }

    public long total(int node) {
        return total[node];
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
        return total[0];
    }

    public int samples() {
        return totalSamples[0];
    }
}
