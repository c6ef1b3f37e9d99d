package org.jfrworkbench.analysis;

/**
 * The selected samples' weights on a {@link CallTree}: per node its own (self) weight and sample count, and the
 * totals of its subtree, summed in one backward pass over the pre-order (children come after their parent). When
 * every selected sample weighs the same (sample counts, or a kind whose weights are all equal), only the counts are
 * kept and a weight is its count times that unit: half the arrays to fill, sum and walk. Its arrays come from
 * {@link QueryArrays}; the query that made it gives them back ({@link #release}) once its answer is built.
 */
public final class TreeWeights {
    private final CallTree tree;
    // null once released, so that a use after release fails instead of reading another query's weights
    private long[] self;
    private long[] total;
    private int[] selfSamples;
    private int[] totalSamples;
    /** The weight of each sample when only counts are kept (counted), else 0. */
    private final long unit;
    private final boolean counted;
    /** The root's total weight and samples: the whole selection's, kept apart for weights without totals. */
    private final long rootWeight;
    private final int rootSamples;
    /**
     * On a {@link CoarseTree}'s part: per node the samples of its slots below it outside the part (null elsewhere),
     * the part's floor as a weight, and the least number of reached nodes outside the part.
     */
    private int[] spill;
    private final long spillFloor;
    private final int spilledNodes;

    TreeWeights(CallTree tree, long[] self, int[] selfSamples) {
        this.tree = tree;
        this.unit = 0;
        this.counted = false;
        this.self = self;
        this.selfSamples = selfSamples;
        this.spillFloor = Long.MIN_VALUE;
        this.spilledNodes = 0;
        int n = self.length;
        total = QueryArrays.copyOf(self);
        totalSamples = QueryArrays.copyOf(selfSamples);
        for (int i = n - 1; i > 0; i--) {
            int p = tree.parent(i);
            total[p] += total[i];
            totalSamples[p] += totalSamples[i];
        }
        rootWeight = n == 0 ? 0 : total[0];
        rootSamples = n == 0 ? 0 : totalSamples[0];
    }

    /** Samples that each weigh unit: self and total weights are the counts times unit. */
    TreeWeights(CallTree tree, int[] selfSamples, long unit) {
        this(tree, selfSamples, unit, null);
    }

    /**
     * Samples that each weigh unit, and where gather is not null the reached nodes' counts gathered into it for a
     * cut ({@link Cut#of}) in the same backward pass: a node's count is whole once the pass reaches it, where gathering
     * them afterwards walked the reached nodes once more.
     */
    TreeWeights(CallTree tree, int[] selfSamples, long unit, Cut.Counts gather) {
        this(tree, selfSamples, unit, gather, false);
    }

    /**
     * The same, sparse where few of the tree's nodes are reached (a few threads' samples): the backward pass then
     * passes over the unreached nodes' 0s instead of adding each to its parent and to the cut's histogram.
     */
    TreeWeights(CallTree tree, int[] selfSamples, long unit, Cut.Counts gather, boolean sparse) {
        this(tree, selfSamples, null, 0, unit, gather, sparse);
    }

    /**
     * Samples that each weigh unit on a {@link CoarseTree}'s part: spill (its arrays of {@link QueryArrays}, given back
     * with the weights') goes into each node's total as samples of children outside the part, floor the part's.
     */
    static TreeWeights spilled(CallTree part, int[] selfSamples, int[] spill, long unit, int floor, Cut.Counts gather) {
        return new TreeWeights(part, selfSamples, spill, floor, unit, gather, false);
    }

    private TreeWeights(CallTree tree, int[] selfSamples, int[] spill, int floor, long unit, Cut.Counts gather,
                        boolean sparse) {
        this.tree = tree;
        this.unit = unit;
        this.counted = true;
        this.self = null;
        this.total = null;
        this.selfSamples = selfSamples;
        this.spill = spill;
        this.spillFloor = unit * floor;
        int[] totals = QueryArrays.copyOf(selfSamples);
        int spilled = 0;
        if (spill != null) {
            // a node's spill is its reached children's outside the part, each under the floor: at least this many
            int most = Math.max(1, floor - 1);
            for (int i = 0; i < totals.length; i++) {
                if (spill[i] != 0) {
                    totals[i] += spill[i];
                    spilled += (spill[i] + most - 1) / most;
                }
            }
        }
        spilledNodes = spilled;
        if (sparse) {
            sumReached(tree, totals, gather);
        } else if (gather == null) {
            for (int i = totals.length - 1; i > 0; i--) {
                totals[tree.parent(i)] += totals[i];
            }
        } else {
            for (int i = totals.length - 1; i > 0; i--) {
                int c = totals[i];
                totals[tree.parent(i)] += c;
                gather.add(c);
            }
            if (totals.length > 0) {
                gather.add(totals[0]);
            }
        }
        totalSamples = totals;
        rootSamples = totals.length == 0 ? 0 : totals[0];
        rootWeight = unit * rootSamples;
    }

    /**
     * The backward pass over mostly unreached nodes: each reached node's count added to its parent and gathered. The
     * adds of every node's count, 0s included, wait each on the last (the histogram's first cell, the parent's total)
     * and were most of a thread view's CPU on the largest trees; the branch past a 0 is mostly right, for the
     * unreached nodes come in runs (whole subtrees).
     */
    private static void sumReached(CallTree tree, int[] totals, Cut.Counts gather) {
        for (int i = totals.length - 1; i > 0; i--) {
            int c = totals[i];
            if (c != 0) {
                totals[tree.parent(i)] += c;
                if (gather != null) {
                    gather.add(c);
                }
            }
        }
        if (gather != null && totals.length > 0) {
            gather.add(totals[0]);
        }
    }

    /**
     * Self weights only (self null where only counts are kept, unit then their weight): no node's total but the
     * root's, for an answer that sums the totals in a pass of its own (a diff's side, {@link #startTotals}), which so
     * saves an array the size of the tree and a pass over it. Reading another node's total before fails.
     */
    private TreeWeights(CallTree tree, long[] self, int[] selfSamples, long unit, long weight, int samples) {
        this.tree = tree;
        this.counted = self == null;
        this.unit = counted ? unit : 0;
        this.self = self;
        this.selfSamples = selfSamples;
        this.total = null;
        this.totalSamples = null;
        this.spillFloor = Long.MIN_VALUE;
        this.spilledNodes = 0;
        rootSamples = samples;
        rootWeight = counted ? unit * samples : weight;
    }

    /** weight, samples: the selection's whole weight (where self is not null) and sample count, summed by the caller. */
    static TreeWeights selfOnly(CallTree tree, long[] self, int[] selfSamples, long unit, long weight, int samples) {
        return new TreeWeights(tree, self, selfSamples, unit, weight, samples);
    }

    /** Whether every node's total is summed (else only the root's, {@link #selfOnly}). */
    boolean summed() {
        return totalSamples != null;
    }

    /**
     * For a caller that sums the totals of self weights ({@link #selfOnly}) in a pass of its own, which needs them in
     * the same order ({@link SampleSets}): each node's total starts as its self weight, and once the caller has summed
     * the columns ({@link #totalSampleColumn}, {@link #totalColumn}) they are these weights' totals.
     */
    void startTotals() {
        if (totalSamples != null) {
            throw new IllegalStateException("totals already summed");
        }
        totalSamples = QueryArrays.copyOf(selfSamples);
        total = counted ? null : QueryArrays.copyOf(self);
    }

    int[] totalSampleColumn() {
        return totalSamples;
    }

    /** Total weights where they differ from sample to sample, else null. */
    long[] totalColumn() {
        return counted ? null : total;
    }

    int[] selfSampleColumn() {
        return selfSamples;
    }

    /** Self weights where they differ from sample to sample, else null. */
    long[] selfColumn() {
        return counted ? null : self;
    }

    /** Gives the arrays back to {@link QueryArrays}: nothing reads these weights afterwards. Twice is once. */
    void release() {
        QueryArrays.give(self);
        QueryArrays.give(total);
        QueryArrays.give(selfSamples);
        QueryArrays.give(totalSamples);
        QueryArrays.give(spill);
        spill = null;
        self = null;
        total = null;
        selfSamples = null;
        totalSamples = null;
    }

    /**
     * The least number of reached nodes outside a {@link CoarseTree}'s part (0 elsewhere): each node's samples of
     * children outside it over the most such a child has, the part's floor less one.
     */
    int spilledNodes() {
        return spilledNodes;
    }

    /** Whether the node has samples of children outside the part these weights are on. */
    boolean spilled(int node) {
        return spill != null && spill[node] != 0;
    }

    /**
     * The least threshold a cut of these weights may try (Long.MIN_VALUE: any): where samples lie outside a coarse
     * part, the part's floor, below which nodes outside it could be kept.
     */
    long spillFloor() {
        return spilledNodes > 0 ? spillFloor : Long.MIN_VALUE;
    }

    /** The weight of every sample when weights are counts times a unit, else 0. */
    long unit() {
        return counted ? unit : 0;
    }

    public CallTree tree() {
        return tree;
    }

    public long self(int node) {
        return counted ? unit * selfSamples[node] : self[node];
    }

    public long total(int node) {
        return counted ? unit * totalSamples[node] : total[node];
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
        return rootWeight;
    }

    public int samples() {
        return rootSamples;
    }
}
