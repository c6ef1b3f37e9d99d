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
        return of(w, null, Parallel.NEVER);
    }

    /**
     * Stretches of the pre-order the backward pass counts the reached nodes of, so that the forward pass can be split
     * where about half of them lie on either side.
     */
    private static final int STRETCHES = 64;

    /**
     * counts: where not null, gathers the sample count of each selected node (the root's too) on the way. Where w
     * holds self weights only ({@link TreeWeights#selfOnly}), its totals are summed in the first pass. split: whether
     * the forward pass's second half (by reached nodes) is offered to a helper, which takes it once free (a diff's
     * lighter side done), each half adding into figures of its own.
     *
     * <p>A backward pass over the pre-order first: a node comes after its whole subtree, so its totals are complete
     * when it is met, and the running sum of the stacks' hashes there covers its subtree and what follows it, so no
     * path is kept open (a walk that opened and closed each occurrence's range spent most of its time on the branches
     * of the path unwinding); then a forward pass adds each reached node to its method.
     */
    static SampleSets of(TreeWeights w, Cut.Counts counts, Parallel split) {
        return of(w, counts, split.offers(), false);
    }

    /**
     * {@link #of(TreeWeights, Cut.Counts, Parallel)}; offer: whether the forward pass's second half is offered to a
     * helper; apart: whether it adds into figures of its own even on the caller's thread (for tests: as where a
     * helper takes it).
     */
    static SampleSets of(TreeWeights w, Cut.Counts counts, boolean offer, boolean apart) {
        CallTree tree = w.tree();
        FrameNames names = tree.names();
        int m = names.stableSize();
        long unit = w.unit();
        boolean weighed = unit == 0;
        int stride = weighed ? WEIGHED : STRIDE;
        long[] f = QueryArrays.longs(m * stride);
        boolean sum = !w.summed();
        if (sum) {
            w.startTotals();
        }
        if (w.samples() == 0) {
            // nothing selected (a range past the end of a shorter run): every figure is 0, no node to count
            return new SampleSets(f, stride, unit, m, w.totalWeight(), w.samples());
        }
        int[] selfSamples = w.selfSampleColumn();
        long[] total = w.totalColumn();
        int[] totalSamples = w.totalSampleColumn();
        int n = tree.size();
        // per node the sum of the hashes of the stacks from it to the end of the pre-order (every one written, so not
        // zeroed first): a subtree's is its root's less its end's
        long[] after = QueryArrays.longsToWrite(n + 1);
        after[n] = 0;
        long hashes = 0;
        // reached[k]: the reached nodes from stretch k's start to the end, for where the forward pass splits
        int[] reached = new int[STRETCHES + 1];
        int reachedCount = 0;
        for (int k = STRETCHES - 1; k >= 0; k--) {
            for (int i = Math.min(n, stretchStart(k + 1, n)) - 1, lo = Math.max(1, stretchStart(k, n)); i >= lo; i--) {
                int nodeSamples = totalSamples[i];
                if (nodeSamples == 0) {
                    after[i] = hashes;
                    continue;
                }
                reachedCount++;
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
            reached[k] = reachedCount;
        }
        // then the methods' figures, in a pass of their own: added to in the pass above, they took it twice as long
        if (offer && n > 2) {
            int mid = Math.max(1, stretchStart(halfway(reached), n));
            Thread caller = Thread.currentThread();
            Parallel.Both<long[], long[]> halves = Parallel.both(() -> {
                addMethods(w, after, 1, mid, f);
                return f;
            }, () -> {
                // on the caller's thread after its own half: into the same figures, with nothing to add up after
                long[] own = Thread.currentThread() == caller && !apart ? f : QueryArrays.longs(m * stride);
                addMethods(w, after, mid, n, own);
                return own;
            }, !apart);
            if (halves.second() != f) {
                addUp(f, halves.second(), stride);
                QueryArrays.give(halves.second());
            }
        } else {
            addMethods(w, after, 1, n, f);
        }
        QueryArrays.give(after);
        if (counts != null && n > 0 && totalSamples[0] > 0) {
            counts.add(totalSamples[0]);
        }
        return new SampleSets(f, stride, unit, m, w.totalWeight(), w.samples());
    }

    /** Where stretch k of STRETCHES starts in a pre-order of n nodes (k = STRETCHES: n). */
    private static int stretchStart(int k, int n) {
        return (int) ((long) n * k / STRETCHES);
    }

    /** The stretch from whose start on about half of the reached nodes lie, at least 1 (reached: counted to the end). */
    private static int halfway(int[] reached) {
        int half = reached[0] / 2;
        int k = STRETCHES - 1;
        while (k > 1 && reached[k] < half) {
            k--;
        }
        return k;
    }

    /**
     * The forward pass over nodes [from, to) of w's tree: each reached node added to its method's figures in f (its
     * self weight; where it is the method's outermost occurrence its total, hashes and depth). after: the backward
     * pass's running hash sums. Nodes are independent of each other here, so any split of the range adds up alike.
     */
    private static void addMethods(TreeWeights w, long[] after, int from, int to, long[] f) {
        CallTree tree = w.tree();
        int[] stable = tree.names().stableIds();
        long[] outermost = tree.outermost();
        char[] depths = tree.depths();
        int[] deepDepths = tree.deepDepths();
        boolean weighed = w.unit() == 0;
        int stride = weighed ? WEIGHED : STRIDE;
        int[] selfSamples = w.selfSampleColumn();
        long[] self = w.selfColumn();
        int[] totalSamples = w.totalSampleColumn();
        long[] total = w.totalColumn();
        for (int i = from; i < to; ) {
            int nodeSamples = totalSamples[i];
            if (nodeSamples == 0) {
                i = tree.end(i);
                continue;
            }
            int at = stable[tree.name(i)] * stride;
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
    }

    /** other's figures added into f's: sums summed, the shallowest depth kept (0: none). */
    private static void addUp(long[] f, long[] other, int stride) {
        for (int at = 0; at < f.length; at += stride) {
            f[at + SELF_SAMPLES] += other[at + SELF_SAMPLES];
            f[at + TOTAL_SAMPLES] += other[at + TOTAL_SAMPLES];
            f[at + FINGERPRINT] += other[at + FINGERPRINT];
            long depth = other[at + DEPTH];
            if (depth != 0 && (f[at + DEPTH] == 0 || depth < f[at + DEPTH])) {
                f[at + DEPTH] = depth;
            }
            if (stride == WEIGHED) {
                f[at + SELF] += other[at + SELF];
                f[at + TOTAL] += other[at + TOTAL];
            }
        }
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
