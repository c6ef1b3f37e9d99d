package org.jfrworkbench.analysis;

import java.util.Arrays;

/**
 * A side of a diff in one pass over its weighed tree: the method statistics ({@link MethodStats}: self and total
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
    /** One more than the depth of the method's first outermost occurrence; 0 until one is found. */
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

    /** counts: where not null, gathers the sample count of each selected node (the root's too) on the way. */
    static SampleSets of(TreeWeights w, FlameLayout.Counts counts) {
        CallTree tree = w.tree();
        FrameNames names = tree.names();
        int[] stable = names.stableIds();
        long[] outermost = tree.outermost();
        int m = names.stableSize();
        long unit = w.unit();
        boolean weighed = unit == 0;
        int stride = weighed ? WEIGHED : STRIDE;
        long[] f = QueryArrays.longs(m * stride);
        // a method's fingerprint is the sum of its stacks' hashes over the ranges of its outermost occurrences: the
        // running sum of the hashes so far is taken off as a range opens and added as it closes. The open path
        // holds each node's end and, for an outermost occurrence, its method's figures' offset (else -1).
        int[] openEnd = new int[64];
        int[] openAt = new int[64];
        long hashes = 0;
        int d = 0;
        if (counts != null && w.totalSamples(0) > 0) {
            counts.add(w.totalSamples(0));
        }
        for (int i = 1, n = tree.size(); i < n; ) {
            int totalSamples = w.totalSamples(i);
            if (totalSamples == 0) {
                i = tree.end(i);
                continue;
            }
            if (counts != null) {
                counts.add(totalSamples);
            }
            while (d > 0 && openEnd[d - 1] <= i) {
                int at = openAt[--d];
                if (at >= 0) {
                    f[at + FINGERPRINT] += hashes;
                }
            }
            int method = stable[tree.name(i)] * stride;
            int at = method;
            int selfSamples = w.selfSamples(i);
            if ((outermost[i >>> 6] & 1L << i) != 0) {
                f[at + FINGERPRINT] -= hashes;
                f[at + TOTAL_SAMPLES] += totalSamples;
                if (weighed) {
                    f[at + TOTAL] += w.total(i);
                }
                long depth = f[at + DEPTH];
                if (depth == 0 || d + 1 < depth) {
                    f[at + DEPTH] = d + 1;
                }
            } else {
                at = -1;
            }
            if (selfSamples > 0) {
                // a node stands for one name path of this tree: its number identifies the stack on this side
                hashes += mix(i);
                f[method + SELF_SAMPLES] += selfSamples;
                if (weighed) {
                    f[method + SELF] += w.self(i);
                }
            }
            if (d == openEnd.length) {
                openEnd = Arrays.copyOf(openEnd, d * 2);
                openAt = Arrays.copyOf(openAt, d * 2);
            }
            openEnd[d] = tree.end(i);
            openAt[d++] = at;
            i++;
        }
        while (d > 0) {
            int at = openAt[--d];
            if (at >= 0) {
                f[at + FINGERPRINT] += hashes;
            }
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
