package org.jfrworkbench.analysis;

/**
 * A side of a diff in two passes over its weighed tree: the method statistics ({@link MethodStats}: self and total
 * weight and samples per stable name id) and, per method, a fingerprint of the set of stacks (name paths) its
 * samples have and the depth of its first occurrence. Two methods with equal fingerprints on both sides lie on the
 * same stacks (one calls the other on every one of them), so their total changes are one change, reported once. A
 * fingerprint is the sum of the hashes of the stacks under the method's outermost occurrences
 * ({@link CallTree#outermost}); a stack's hash is that of its node's number, since fingerprints are only compared
 * within one side (two methods are one change when theirs are equal on each side), and a method by stable name
 * covers every node of its tree with the same path of stable names alike.
 *
 * <p>A method's figures lie side by side in one array ({@link #STRIDE} longs, or {@link #WEIGHED} where weights
 * differ from sample to sample), so a node of the walk touches one method's cache line, and where every sample
 * weighs one unit only the counts are summed.
 */
final class SampleSets {
    private static final int SELF_SAMPLES = 0;
    private static final int TOTAL_SAMPLES = 1;
    private static final int FINGERPRINT = 2;
    /** The depth of the method's shallowest outermost occurrence in the tree (the root's children: 1); 0 for none. */
    private static final int DEPTH = 3;
    private static final int SELF = 4;
    private static final int TOTAL = 5;
    private static final int STRIDE = 4;
    private static final int WEIGHED = 6;

    /** From {@link QueryArrays}; null once released. */
    private long[] figures;
    private final int stride;
    private final long unit;
    private final int size;
    private final long totalWeight;
    private final long samples;

    private SampleSets(long[] figures, int stride, long unit, int size, long totalWeight, long samples) {
        this.figures = figures;
        this.stride = stride;
        this.unit = unit;
        this.size = size;
        this.totalWeight = totalWeight;
        this.samples = samples;
    }

    /** Gives the figures back to {@link QueryArrays}: nothing reads them afterwards. */
    void release() {
        QueryArrays.give(figures);
        figures = null;
    }

    static SampleSets of(TreeWeights w) {
        return of(w, null);
    }

    /**
     * counts: where not null, gathers the sample count of each selected node (the root's too) on the way. Where w
     * holds self weights only ({@link TreeWeights#selfOnly}), its totals are summed in the first pass.
     *
     * <p>A backward pass over the pre-order first: a node comes after its whole subtree, so its totals are complete
     * when it is met, and the running sum of the stacks' hashes there covers its subtree and what follows it, so no
     * path is kept open (a walk that opened and closed each occurrence's range spent most of its time on the branches
     * of the path unwinding); then a forward pass adds each reached node to its method.
     */
    static SampleSets of(TreeWeights w, Cut.Counts counts) {
        CallTree tree = w.tree();
        FrameNames names = tree.names();
        int[] methods = tree.methods();
        long[] outermost = tree.outermost();
        char[] depths = tree.depths();
        int[] deepDepths = tree.deepDepths();
        int m = names.stableSize();
        long unit = w.unit();
        boolean weighed = unit == 0;
        int stride = weighed ? WEIGHED : STRIDE;
        long[] f = QueryArrays.longs(m * stride);
        boolean sum = !w.summed();
        if (sum) {
            w.startTotals();
        }
        int[] selfSamples = w.selfSampleColumn();
        long[] self = w.selfColumn();
        int[] totalSamples = w.totalSampleColumn();
        long[] total = w.totalColumn();
        int n = tree.size();
        // per node the sum of the hashes of the stacks from it to the end of the pre-order (every one written, so not
        // zeroed first): a subtree's is its root's less its end's
        long[] after = QueryArrays.longsToWrite(n + 1);
        after[n] = 0;
        long hashes = 0;
        for (int i = n - 1; i > 0; i--) {
            int nodeSamples = totalSamples[i];
            if (nodeSamples == 0) {
                after[i] = hashes;
                continue;
            }
            int parent = tree.parent(i);
            if (sum) {
                totalSamples[parent] += nodeSamples;
                if (weighed) {
                    total[parent] += total[i];
                }
            }
            if (counts != null) {
                counts.add(nodeSamples);
            }
            if (selfSamples[i] > 0) {
                // a node stands for one name path of this tree: its number identifies the stack on this side
                hashes += mix(i);
            }
            after[i] = hashes;
        }
        // then the methods' figures, in a pass of their own: added to in the pass above, they took it twice as long
        for (int i = 1; i < n; ) {
            int nodeSamples = totalSamples[i];
            if (nodeSamples == 0) {
                i = tree.end(i);
                continue;
            }
            int at = methods[i] * stride;
            f[at + SELF_SAMPLES] += selfSamples[i];
            if (weighed) {
                f[at + SELF] += self[i];
            }
            if ((outermost[i >>> 6] & 1L << i) != 0) {
                f[at + FINGERPRINT] += after[i] - after[tree.end(i)];
                f[at + TOTAL_SAMPLES] += nodeSamples;
                if (weighed) {
                    f[at + TOTAL] += total[i];
                }
                int depth = depths != null ? depths[i] : deepDepths[i];
                long first = f[at + DEPTH];
                if (first == 0 || depth < first) {
                    f[at + DEPTH] = depth;
                }
            }
            i++;
        }
        QueryArrays.give(after);
        if (counts != null && n > 0 && totalSamples[0] > 0) {
            counts.add(totalSamples[0]);
        }
        return new SampleSets(f, stride, unit, m, w.totalWeight(), w.samples());
    }

    private static long mix(long k) {
        k = (k + 1) * 0x9E3779B97F4A7C15L;
        return k ^ (k >>> 32);
    }

    /** Stable names: the ids of the methods. */
    int size() {
        return size;
    }

    long selfSamples(int method) {
        return figures[method * stride + SELF_SAMPLES];
    }

    long totalSamples(int method) {
        return figures[method * stride + TOTAL_SAMPLES];
    }

    long self(int method) {
        return stride == WEIGHED ? figures[method * stride + SELF] : unit * selfSamples(method);
    }

    long total(int method) {
        return stride == WEIGHED ? figures[method * stride + TOTAL] : unit * totalSamples(method);
    }

    long fingerprint(int method) {
        return figures[method * stride + FINGERPRINT];
    }

    /** The depth of the method's first outermost occurrence (Integer.MAX_VALUE where none is selected). */
    int depth(int method) {
        long d = figures[method * stride + DEPTH];
        return d == 0 ? Integer.MAX_VALUE : (int) d - 1;
    }

    /** The selection's whole weight. */
    long totalWeight() {
        return totalWeight;
    }

    long samples() {
        return samples;
    }
}
