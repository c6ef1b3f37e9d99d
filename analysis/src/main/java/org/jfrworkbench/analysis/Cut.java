package org.jfrworkbench.analysis;

import java.util.Arrays;

/**
 * The cut of a bounded answer (a flame graph's, a diff side's): the least weight a node needs to be kept, and the
 * size of the answer it leaves, "[other]" nodes included; Long.MIN_VALUE where every selected node fits. Nodes only
 * get lighter down the tree, so the nodes at or above a weight are a tree themselves.
 */
record Cut(long threshold, int size) {
    /**
     * The smallest weight a node needs so that the answer, with one "[other]" per node that loses children, has at
     * most maxNodes nodes, with that answer's size, so that a caller can make its columns once; gathered: the
     * selected nodes' sample counts if already gathered (null: weights differ, or not gathered).
     */
    static Cut of(TreeWeights w, int maxNodes, Counts gathered) {
        Noted noted = noted(w, maxNodes, gathered);
        noted.release();
        return noted.cut();
    }

    /**
     * A cut and, where weights are counts and it was walked at a floor, the nodes that walk kept ({@link CountSizes}),
     * for a layout that reads them in place of the tree (null where there are none); the caller gives them back.
     */
    record Noted(Cut cut, CountSizes kept) {
        void release() {
            if (kept != null) {
                kept.release();
            }
        }
    }

    /**
     * {@link #of}, with the kept nodes' notes. On a coarse part's weights with samples outside the part
     * ({@link TreeWeights#spillFloor}) null where the cut is not known from the part: where the whole tree's selected
     * nodes might all fit, or a threshold the cut tries is below the part's floor.
     */
    static Noted noted(TreeWeights w, int maxNodes, Counts gathered) {
        CountRanking counts = w.unit() > 0 ? new CountRanking(gathered != null ? gathered : Counts.of(w), w.unit()) : null;
        // the reached nodes outside the part, at least: the whole tree's selected nodes are at least these more
        int selected = (counts != null ? counts.size() : selectedNodes(w)) + w.spilledNodes();
        long least = w.spillFloor();
        if (selected <= maxNodes) {
            return least != Long.MIN_VALUE ? null : new Noted(new Cut(Long.MIN_VALUE, selected), null);
        }
        Ranking totals = counts != null ? counts : new WeightRanking(w, selected);
        // every threshold the cut tries is at or above the maxNodes-th largest weight (below), and the part's floor
        Sizes sizes = counts != null ? new CountSizes(w, Math.max(least, counts.largest(maxNodes))) : new WalkedSizes(w);
        Cut cut;
        try {
            cut = of(totals, sizes, maxNodes, selected, least);
        } catch (RuntimeException | Error e) {
            sizes.release();
            throw e;
        }
        if (cut == null) {
            sizes.release();
            return null;
        }
        if (sizes instanceof CountSizes kept) {
            return new Noted(cut, kept);
        }
        sizes.release();
        return new Noted(cut, null);
    }

    /** least: the least threshold it may try; null where it would try one below. */
    private static Cut of(Ranking totals, Sizes sizes, int maxNodes, int selected, long least) {
        // half the budget for kept nodes leaves room for an "[other]" under each; then, once, as many more as the
        // room left suggests. The size at the first threshold counts each node at or above it once, so it is at
        // least keep, and the second takes at most keep + (maxNodes - keep) nodes: no threshold is below the
        // maxNodes-th largest weight
        int keep = Math.max(1, maxNodes / 2);
        long t = totals.largest(keep);
        if (t < least) {
            return null;
        }
        int size = sizes.at(t);
        while (size > maxNodes) {
            // ties at t: the next weight up
            t = totals.above(t);
            size = sizes.at(t);
        }
        int room = maxNodes - size;
        if (room > maxNodes / 16) {
            int more = Math.min(selected, keep + (int) ((long) room * keep / Math.max(1, size)));
            long lower = totals.largest(more);
            if (lower < t && lower < least) {
                return null;
            }
            if (lower < t) {
                int lowerSize = sizes.at(lower);
                if (lowerSize <= maxNodes) {
                    return new Cut(lower, lowerSize);
                }
            }
        }
        return new Cut(t, size);
    }

    /** The answer's size, "[other]" nodes included, at the thresholds a cut tries. */
    interface Sizes {
        int at(long threshold);

        void release();
    }

    /** Any weights: a walk over the tree's kept nodes and their children per threshold. */
    static final class WalkedSizes implements Sizes {
        private final TreeWeights w;
        private boolean[] losesChildren;

        WalkedSizes(TreeWeights w) {
            this.w = w;
        }

        @Override
        public int at(long threshold) {
            if (losesChildren == null) {
                losesChildren = QueryArrays.booleans(w.tree().size());
            }
            return answerSize(w, threshold, losesChildren);
        }

        @Override
        public void release() {
            QueryArrays.give(losesChildren);
            losesChildren = null;
        }
    }

    /**
     * Weights that are counts times one unit: the size at any count from a floor up, from one walk at the floor. At a
     * count c a node is kept where its own is c or more (the root always), and a kept node loses children into one
     * "[other]" where its least selected child's count is below c; so the walk notes the count of each node it keeps
     * and, per kept node, its count and its least selected child's, and a size is two scans of those notes, where the
     * cut walked the tree's kept nodes and their children again for each threshold it tried (half of a side's cut
     * in a diff, the tree read at a cache miss or more per node). Below the floor it walks as {@link WalkedSizes}.
     * A flame graph's layout reads the kept nodes from these notes too ({@link FlameLayout}), not from the tree.
     */
    static final class CountSizes implements Sizes {
        private final long unit;
        private final int floor;
        private final WalkedSizes below;
        /**
         * The kept nodes but the root, in pre-order: each one's count, call-tree node and the entry of its parent (-1:
         * the root). The notes grow through {@link QueryArrays}: an answer's size.
         */
        private int[] kept = new int[1024];
        private int[] keptNode = new int[1024];
        private int[] keptParent = new int[1024];
        private int keptUsed;
        /** Per kept node but the root with a selected child lighter than itself: that child's count, and its own. */
        private int[] least = new int[1024];
        private int[] own = new int[1024];
        private int losers;
        /** The root's least selected child's count (Integer.MAX_VALUE: none): the root is kept at every count. */
        private int rootLeast;

        CountSizes(TreeWeights w, long floorWeight) {
            this.unit = w.unit();
            this.floor = (int) Math.max(1, floorWeight / unit);
            this.below = new WalkedSizes(w);
            walk(w);
        }

        private void walk(TreeWeights w) {
            CallTree tree = w.tree();
            int n = tree.size();
            // the open kept nodes, innermost last: their subtrees' ends, counts and least selected children so far
            int[] openEnd = new int[64];
            int[] openCount = new int[64];
            int[] openLeast = new int[64];
            int[] openEntry = new int[64];
            openEnd[0] = n;
            openLeast[0] = leastOwn(w, 0);
            openEntry[0] = -1;
            int depth = 1;
            for (int i = 1; i < n; ) {
                while (openEnd[depth - 1] <= i) {
                    depth--;
                    closed(openLeast[depth], openCount[depth]);
                }
                int c = w.totalSamples(i);
                if (c > 0 && c < openLeast[depth - 1]) {
                    openLeast[depth - 1] = c;
                }
                if (c < floor) {
                    i = tree.end(i);
                    continue;
                }
                if (keptUsed == kept.length) {
                    kept = QueryArrays.extend(kept, keptUsed * 2);
                    keptNode = QueryArrays.extend(keptNode, keptUsed * 2);
                    keptParent = QueryArrays.extend(keptParent, keptUsed * 2);
                }
                keptNode[keptUsed] = i;
                keptParent[keptUsed] = openEntry[depth - 1];
                kept[keptUsed++] = c;
                if (depth == openEnd.length) {
                    openEnd = Arrays.copyOf(openEnd, depth * 2);
                    openCount = Arrays.copyOf(openCount, depth * 2);
                    openLeast = Arrays.copyOf(openLeast, depth * 2);
                    openEntry = Arrays.copyOf(openEntry, depth * 2);
                }
                openEntry[depth] = keptUsed - 1;
                openEnd[depth] = tree.end(i);
                openCount[depth] = c;
                openLeast[depth++] = leastOwn(w, i);
                i++;
            }
            while (depth > 1) {
                depth--;
                closed(openLeast[depth], openCount[depth]);
            }
            rootLeast = openLeast[0];
        }

        /**
         * A kept node's least selected child before its children in the tree are met: on a coarse part, one outside it
         * where it has spill, whose count is below the floor and so below every count a size is asked at; 1 stands
         * for it.
         */
        private static int leastOwn(TreeWeights w, int node) {
            return w.spilled(node) ? 1 : Integer.MAX_VALUE;
        }

        private void closed(int leastChild, int count) {
            if (leastChild >= count) {
                return; // no selected child, or none lighter: it loses none at any count it is kept at
            }
            if (losers == least.length) {
                least = QueryArrays.extend(least, losers * 2);
                own = QueryArrays.extend(own, losers * 2);
            }
            least[losers] = leastChild;
            own[losers++] = count;
        }

        /** The least count whose weight reaches the threshold. */
        long count(long threshold) {
            return threshold / unit + (threshold % unit != 0 ? 1 : 0);
        }

        /** Whether the kept nodes at a threshold are all among the notes (it is at the floor or above). */
        boolean covers(long threshold) {
            return count(threshold) >= floor;
        }

        /** Kept nodes noted, the root left out. */
        int entries() {
            return keptUsed;
        }

        int count(int entry) {
            return kept[entry];
        }

        int node(int entry) {
            return keptNode[entry];
        }

        /** The entry of the node's parent, -1 for the root. */
        int parentEntry(int entry) {
            return keptParent[entry];
        }

        @Override
        public int at(long threshold) {
            // the least count whose weight reaches the threshold (Long.MAX_VALUE: none's)
            long c = count(threshold);
            if (c < floor) {
                return below.at(threshold);
            }
            int size = rootLeast < c ? 2 : 1;
            for (int k = 0; k < keptUsed; k++) {
                if (kept[k] >= c) {
                    size++;
                }
            }
            for (int k = 0; k < losers; k++) {
                if (least[k] < c && c <= own[k]) {
                    size++;
                }
            }
            return size;
        }

        @Override
        public void release() {
            below.release();
            QueryArrays.give(kept);
            QueryArrays.give(keptNode);
            QueryArrays.give(keptParent);
            QueryArrays.give(least);
            QueryArrays.give(own);
            kept = keptNode = keptParent = least = own = null;
        }
    }

    /** The totals of the selected nodes, ranked. */
    private interface Ranking {
        /** The k-th largest (k from 1). */
        long largest(int k);

        /** The smallest total above t (Long.MAX_VALUE: none). */
        long above(long t);
    }

    /** Any weights: the totals in an array, ranked by quickselect. */
    private static final class WeightRanking implements Ranking {
        private final long[] totals;

        WeightRanking(TreeWeights w, int selected) {
            CallTree tree = w.tree();
            totals = new long[selected];
            int k = 0;
            for (int i = 0, n = tree.size(); i < n; i = w.totalSamples(i) > 0 ? i + 1 : tree.end(i)) {
                if (w.totalSamples(i) > 0) {
                    totals[k++] = w.total(i);
                }
            }
        }

        @Override
        public long largest(int k) {
            return Cut.largest(totals, k);
        }

        @Override
        public long above(long t) {
            long next = Long.MAX_VALUE;
            for (long v : totals) {
                if (v > t && v < next) {
                    next = v;
                }
            }
            return next;
        }
    }

    /** The sample counts of the selected nodes, by a walk that visits each once (the root included). */
    static final class Counts {
        private final int[] histogram = new int[CountRanking.CAP];
        private int[] big = new int[64];
        private int bigCount;

        static Counts of(TreeWeights w) {
            CallTree tree = w.tree();
            Counts out = new Counts();
            for (int i = 0, n = tree.size(); i < n; ) {
                int c = w.totalSamples(i);
                if (c == 0) {
                    i = tree.end(i);
                    continue;
                }
                out.add(c);
                i++;
            }
            return out;
        }

        /**
         * A node's count. A count of 0 (a node not reached) may be added too, so that a pass over every node needs no
         * branch: it lands in the histogram's first cell, which no ranking reads (every count it ranks is 1 or more).
         */
        void add(int count) {
            if (count < CountRanking.CAP) {
                histogram[count]++;
            } else {
                if (bigCount == big.length) {
                    big = Arrays.copyOf(big, bigCount * 2);
                }
                big[bigCount++] = count;
            }
        }
    }

    /**
     * Samples that all weigh one unit: a total is a sample count times the unit, so the counts rank the nodes, and
     * most are small. A histogram of the counts below {@link #CAP}, and the few larger ones sorted, rank them without
     * an array of every total.
     */
    private static final class CountRanking implements Ranking {
        private static final int CAP = 1 << 16;
        private final long unit;
        private final int[] histogram;
        private final int[] large;
        private final int size;

        CountRanking(Counts counts, long unit) {
            this.unit = unit;
            histogram = counts.histogram;
            large = Arrays.copyOf(counts.big, counts.bigCount);
            Arrays.sort(large);
            int small = 0;
            // from 1: a count of 0 is a node not reached ({@link Counts#add})
            for (int c = 1; c < CAP; c++) {
                small += histogram[c];
            }
            size = small + large.length;
        }

        /** The selected nodes. */
        int size() {
            return size;
        }

        @Override
        public long largest(int k) {
            if (k <= large.length) {
                return unit * large[large.length - k];
            }
            int left = k - large.length;
            for (int c = CAP - 1; c > 0; c--) {
                left -= histogram[c];
                if (left <= 0) {
                    return unit * c;
                }
            }
            return unit; // k past the selected nodes: every one is kept
        }

        @Override
        public long above(long t) {
            long count = t / unit; // t is a count times unit
            for (long c = count + 1; c < CAP; c++) {
                if (histogram[(int) c] > 0) {
                    return unit * c;
                }
            }
            for (int v : large) {
                if (v > count) {
                    return unit * v;
                }
            }
            return Long.MAX_VALUE;
        }
    }

    /** The k-th largest value (k from 1), by quickselect: reorders a. */
    private static long largest(long[] a, int k) {
        int target = a.length - k;
        int lo = 0;
        int hi = a.length - 1;
        while (lo < hi) {
            long pivot = median(a[lo], a[(lo + hi) >>> 1], a[hi]);
            int i = lo;
            int j = hi;
            while (i <= j) {
                while (a[i] < pivot) {
                    i++;
                }
                while (a[j] > pivot) {
                    j--;
                }
                if (i <= j) {
                    long x = a[i];
                    a[i++] = a[j];
                    a[j--] = x;
                }
            }
            if (target <= j) {
                hi = j;
            } else if (target >= i) {
                lo = i;
            } else {
                break;
            }
        }
        return a[target];
    }

    private static long median(long a, long b, long c) {
        return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
    }

    /** Nodes of the answer cut at threshold t, "[other]" nodes included; losesChildren: scratch of the tree's size. */
    static int answerSize(TreeWeights w, long t, boolean[] losesChildren) {
        CallTree tree = w.tree();
        Arrays.fill(losesChildren, false);
        int size = 0;
        for (int i = 0, n = tree.size(); i < n; ) {
            if (kept(w, i, t)) {
                size++;
                i++;
            } else {
                if (w.totalSamples(i) > 0 && !losesChildren[tree.parent(i)]) {
                    losesChildren[tree.parent(i)] = true;
                    size++;
                }
                i = tree.end(i);
            }
        }
        return size;
    }

    /** Nodes selected samples pass through (the size of an unbounded answer). */
    static int selectedNodes(TreeWeights w) {
        CallTree tree = w.tree();
        int out = 0;
        for (int i = 0, n = tree.size(); i < n; i = w.totalSamples(i) > 0 ? i + 1 : tree.end(i)) {
            if (w.totalSamples(i) > 0) {
                out++;
            }
        }
        return out;
    }

    /**
     * The root always (an empty selection is a root of weight 0), else nodes reached at or above threshold: the rule
     * the cut's sizes count by, and so the one a layout at its threshold keeps nodes by.
     */
    static boolean kept(TreeWeights w, int node, long threshold) {
        return node == 0 || (w.totalSamples(node) > 0 && w.total(node) >= threshold);
    }
}
