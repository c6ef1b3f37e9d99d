package org.jfrworkbench.analysis;

import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The branching part of a {@link CallTree}'s inverted graph, made once per tree after its first inverted query: the
 * inverted nodes (name paths from a frame with samples of its own up through its callers) that two or more such
 * frames (<i>origins</i>) share, plus, below them, one node per origin where its path becomes its own. Past that
 * node the path is the origin's callers in the call tree, one each, so it is not stored: {@link BoundedTree} walks
 * up the call tree from there as it always did. On deep stacks the whole inverted trie has 25 times the nodes of the
 * call tree, nearly all on such single paths; this part has about one node per origin.
 *
 * <p>Nodes are breadth first, each node's children after one another by name, so a query adds its origins' weights
 * to their nodes and sums them in one backward pass, where grouping each level's members by name cost a cache miss
 * per member and query.
 * An answer node's type is its first member's (members ordered by their origin's pre-order), as in
 * {@link BoundedTree}; for the few nodes whose members differ in type they are kept to find the first one selected.
 */
final class InvertedTree {
    /**
     * Per node, side by side, its name, its first child and its {@link #chain} entry, which tells its type too: an
     * inverted graph reads them together per answer node and per child it pushes, in the order the buckets hand the
     * groups out, not in the part's, where a column each took a miss each. One entry more than nodes: its first child
     * ends the last node's children.
     */
    private final int[] node;
    private static final int NAME = 0;
    private static final int KIDS = 1;
    private static final int CHAIN = 2;
    private static final int STRIDE = 3;
    /** A {@link #chain} entry below this is a node of mixed types, {@code MIXED + at} with at its runs in mixed. */
    private static final int MIXED = Integer.MIN_VALUE;
    /** Chain entries from here to -1 are nodes of two or more members of one type, {@code -1 - type}. */
    private static final int SHARED = -128;
    /** Read in order, by the weighing's backward pass only. */
    private final int[] parent;
    /**
     * Per sample slot of the tree (but those of its root) two ints, the slot and the node its weight goes to, ordered
     * by that node; where the part has nodes of mixed types ({@link #hasMixedTypes}), a third: the slot's origin (the
     * call-tree node with samples of its own), whose least per node a query keeps. A query adds its slots' sums
     * straight to their nodes, with no array the size of the call tree, and in the nodes' order: in the slots' own
     * order each add was a cache miss at random in the part's weights (javac: 8 of a graph's 44 ms). The origin read
     * from the tree's {@link CallTree#slotNode} instead was one more miss at random per slot.
     */
    private final int[] entries;
    /** Ints per entry: 2, or 3 with the origin. */
    private final int entryStride;
    /** The slots of the call tree's root: no origin's, counted in the whole selection only. */
    private final int[] rootSlots;
    /**
     * For nodes whose members' types differ (their {@link #chain} below {@link #SHARED}), one after another: the
     * number of runs, then per run of members of one type (members in origin order) the call-tree node of
     * its first member's origin and the type. One flat column of runs, not a map of every member per node: deep
     * recursive recordings (a compiler's) have hundreds of thousands of such nodes, which a map's entries made a miss
     * each per answer node and a scan of members per answer node cost several more, at several times the bytes.
     */
    private final int[] mixed;
    /**
     * The two halves the weighing may split the part in, which do not write each other's nodes, made once with the part
     * (every weighing in halves takes the same); null where the part has no such split ({@link #split}).
     */
    private final Halves halves;

    private InvertedTree(int[] node, int[] parent, int[] entries, int[] rootSlots, int[] mixed) {
        this.node = node;
        this.parent = parent;
        this.entries = entries;
        this.entryStride = mixed.length > 0 ? 3 : 2;
        this.rootSlots = rootSlots;
        this.mixed = mixed;
        int split = split(node, parent);
        this.halves = split > 0 ? new Halves(this, split) : null;
    }

    int size() {
        return parent.length;
    }

    /** Whether the weighing can split the part in halves ({@link #split}). */
    boolean hasHalves() {
        return halves != null;
    }

    int name(int at) {
        return node[STRIDE * at + NAME];
    }

    /** The node's first child; its children are the nodes from there to the next node's first child. */
    int children(int at) {
        return node[STRIDE * at + KIDS];
    }

    /**
     * Reads the node's entry, its weights and its children's, for nothing but to have their cache lines on their way:
     * a graph touches the group it will expand next while it expands this one, so that their misses overlap.
     */
    int touch(int at, Weights w, CallTree tree) {
        int kids = node[STRIDE * at + KIDS];
        int chain = node[STRIDE * at + CHAIN];
        // and what its type is read from
        int type = chain >= 0 ? tree.type(chain) : chain < SHARED ? mixed[chain - MIXED + 1] : 0;
        return type + w.samples(at) + (kids < parent.length ? node[STRIDE * kids + CHAIN] + w.samples(kids) : 0);
    }

    /** Reads the node's entry and weights only, for a group further ahead, whose children's lines are not known yet. */
    int touchEntry(int at, Weights w) {
        return node[STRIDE * at + KIDS] + w.samples(at);
    }

    /** Whether some node's members differ in type (then a query notes each node's first selected origin). */
    boolean hasMixedTypes() {
        return mixed.length > 0;
    }

    /**
     * The call-tree node where the node's one origin has reached (whose type is the node's), negative where it has two
     * or more: {@code -1 - type} where they agree in type, else {@code MIXED + at} with {@code at} where its runs start
     * in {@link #mixed}.
     */
    int chain(int at) {
        return node[STRIDE * at + CHAIN];
    }

    /**
     * The type of the node's first member that the selection reaches: where its members differ, of the run its first
     * selected origin ({@link Weights#first}) falls in.
     */
    String typeName(int n, Weights w, CallTree tree) {
        int chain = chain(n);
        if (chain >= 0) {
            return tree.typeName(chain);
        }
        if (chain >= SHARED) {
            return CallTree.TYPE_NAMES[-1 - chain];
        }
        int at = chain - MIXED;
        int origin = w.first(n) - 1;
        // the last run starting at or before that origin
        int lo = 0;
        int hi = mixed[at] - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (mixed[at + 1 + 2 * mid] <= origin) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return CallTree.TYPE_NAMES[mixed[at + 2 + 2 * lo]];
    }

    /**
     * Per node, the selected weight and samples ending there or below it (its total), and where the part has nodes of
     * mixed types the first selected origin there, side by side in one array of {@link QueryArrays} that the caller
     * gives back ({@link Weights#release}): an inverted graph reads a node's figures together, at random, per child
     * it pushes. Where every sample weighs the same only the counts are kept (4 bytes a node, 8 with the first origin,
     * where weight, samples and first in three columns took 16 and three misses). The slots' sums come in the order of
     * the nodes they go to, no order of their origins, so a node's first origin is the least that reaches it.
     */
    Weights weigh(Selection.Slots slots, Parallel parallel) {
        // a part of a few nodes is weighed in less than the hand-over to a helper takes, unless a test says always
        Halves h = halves != null && (parent.length >= HALVES_FROM || parallel == Parallel.ALWAYS) && parallel.offers()
                ? halves : null;
        return slots.weight() == null && slots.unit() > 0 ? weighCounts(slots, h) : weighWeights(slots, h);
    }

    /** Nodes of a part from which the weighing goes in two halves at once where a processor is spare. */
    static final int HALVES_FROM = 1 << 17;

    private int rootSamples(int[] slotSamples) {
        int samples = 0;
        for (int s : rootSlots) {
            samples += slotSamples[s];
        }
        return samples;
    }

    private Weights weighCounts(Selection.Slots slots, Halves halves) {
        int n = parent.length;
        long unit = slots.unit();
        int[] slotSamples = slots.samples();
        boolean firsts = hasMixedTypes();
        int stride = firsts ? 2 : 1;
        int[] acc = QueryArrays.ints(stride * n);
        Tally t = weighAll(new Pass() {
            @Override
            public void add(int from, int to, Tally into) {
                into.samples += addCounts(acc, firsts, slotSamples, from, to);
            }

            @Override
            public void sum(int lo, int hi, Tally into) {
                sumCounts(acc, firsts, unit, lo, hi, into.buckets);
            }
        }, halves);
        int samples = rootSamples(slotSamples) + (int) t.samples;
        int[] buckets = t.buckets;
        int reached = n - 1 - buckets[0];
        buckets[0] = 0;
        return new Weights(unit, acc, stride, null, reached, buckets, unit * samples, samples);
    }

    /** Adds the counts of the slots whose nodes are from..to - 1 to those nodes; returns their samples. */
    private int addCounts(int[] acc, boolean firsts, int[] slotSamples, int from, int to) {
        int samples = 0;
        int[] e = entries;
        int step = entryStride;
        for (int k = step * firstEntry(from); k < e.length && e[k + 1] < to; k += step) {
            int c = slotSamples[e[k]];
            if (c != 0) {
                samples += c;
                // stored + 1: the column comes zeroed
                if (firsts) {
                    int at = 2 * e[k + 1];
                    // an origin's call-tree node (pre-order, the origins' order), read only where needed
                    int o = e[k + 2];
                    if (acc[at] == 0 || o + 1 < acc[at + 1]) {
                        acc[at + 1] = o + 1;
                    }
                    acc[at] += c;
                } else {
                    acc[e[k + 1]] += c;
                }
            }
        }
        return samples;
    }

    /** The backward pass over the nodes hi - 1 down to lo: each node's count (and first) added to its parent's. */
    private void sumCounts(int[] acc, boolean firsts, long unit, int lo, int hi, int[] buckets) {
        int[] up = parent;
        if (firsts) {
            for (int i = hi - 1; i >= lo; i--) {
                int s = acc[2 * i];
                int p = 2 * up[i];
                // first + 1, 0 for none: less one, unsigned, none is the greatest
                int f = acc[2 * i + 1] - 1 ^ Integer.MIN_VALUE;
                int pf = acc[p + 1] - 1 ^ Integer.MIN_VALUE;
                acc[p + 1] = ((f < pf ? f : pf) ^ Integer.MIN_VALUE) + 1;
                acc[p] += s;
                // GroupHeap.bucket of a count, 0 for a node not reached (set right below)
                buckets[64 - Long.numberOfLeadingZeros(unit * s)]++;
            }
        } else {
            for (int i = hi - 1; i >= lo; i--) {
                int s = acc[i];
                acc[up[i]] += s;
                buckets[64 - Long.numberOfLeadingZeros(unit * s)]++;
            }
        }
    }

    private Weights weighWeights(Selection.Slots slots, Halves halves) {
        int n = parent.length;
        int[] slotSamples = slots.samples();
        long[] slotWeight = slots.weight();
        // where every sample weighs unit and that is 0
        long unit = slots.unit();
        // per node its total weight, then its samples in the low half and its first origin in the high half
        long[] acc = QueryArrays.longs(2 * n);
        boolean firsts = hasMixedTypes();
        Tally t = weighAll(new Pass() {
            @Override
            public void add(int from, int to, Tally into) {
                addWeights(acc, firsts, slotSamples, slotWeight, unit, from, to, into);
            }

            @Override
            public void sum(int lo, int hi, Tally into) {
                into.weightless |= sumWeights(acc, lo, hi, into.buckets);
            }
        }, halves);
        int samples = rootSamples(slotSamples) + (int) t.samples;
        long weight = t.weight;
        for (int s : rootSlots) {
            weight += slotWeight == null ? unit * slotSamples[s] : slotWeight[s];
        }
        int[] buckets = t.buckets;
        int reached = n - 1 - buckets[0];
        buckets[0] = 0;
        // a node without weight goes by its samples, out of step with weighed nodes unless all are without weight
        return new Weights(0, null, 0, acc, reached, t.weightless && acc[0] > 0 ? null : buckets, weight, samples);
    }

    /** Adds the weights and samples of the slots whose nodes are from..to - 1 to those nodes, and into into. */
    private void addWeights(long[] acc, boolean firsts, int[] slotSamples, long[] slotWeight, long unit, int from,
                            int to, Tally into) {
        int[] e = entries;
        int step = entryStride;
        long samples = 0;
        long weight = 0;
        for (int k = step * firstEntry(from); k < e.length && e[k + 1] < to; k += step) {
            int s = e[k];
            int c = slotSamples[s];
            if (c != 0) {
                long sw = slotWeight == null ? unit * c : slotWeight[s];
                samples += c;
                weight += sw;
                int at = 2 * e[k + 1];
                acc[at] += sw;
                long sf = acc[at + 1];
                // without nodes of mixed types no first is read: left 0
                int i = firsts ? e[k + 2] : -1;
                if ((int) sf == 0 || sf >>> 32 > i + 1) {
                    sf = (long) (i + 1) << 32 | sf & 0xFFFF_FFFFL;
                }
                acc[at + 1] = sf + c;
            }
        }
        into.samples += samples;
        into.weight += weight;
    }

    /** The backward pass over the nodes hi - 1 down to lo; whether some node of them has samples but no weight. */
    private boolean sumWeights(long[] acc, int lo, int hi, int[] buckets) {
        int[] up = parent;
        boolean weightless = false;
        for (int i = hi - 1; i >= lo; i--) {
            long sf = acc[2 * i + 1];
            int s = (int) sf;
            int p = 2 * up[i];
            long t = acc[2 * i];
            long pf = acc[p + 1];
            // as in weighCounts: the first origin + 1, 0 for none, compared less one as unsigned
            int f = (int) (sf >>> 32) - 1 ^ Integer.MIN_VALUE;
            int pfirst = (int) (pf >>> 32) - 1 ^ Integer.MIN_VALUE;
            long first = ((f < pfirst ? f : pfirst) ^ Integer.MIN_VALUE) + 1;
            acc[p + 1] = first << 32 | (pf + s) & 0xFFFF_FFFFL;
            acc[p] += t;
            buckets[GroupHeap.bucket(t, s)]++;
            weightless |= t == 0 & s > 0;
        }
        return weightless;
    }

    /** The first entry (in entries, not ints) whose node is node or after it. */
    private int firstEntry(int node) {
        int lo = 0;
        int hi = entries.length / entryStride;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (entries[entryStride * mid + 1] < node) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** What a weighing counted besides the weights per node: its samples and weight, nodes per bucket. */
    private static final class Tally {
        long samples;
        long weight;
        final int[] buckets = new int[65];
        boolean weightless;

        void add(Tally o) {
            samples += o.samples;
            weight += o.weight;
            weightless |= o.weightless;
            for (int b = 0; b < buckets.length; b++) {
                buckets[b] += o.buckets[b];
            }
        }
    }

    /** A weighing's two passes, over a range of nodes each: the slots' adds ([from, to)) and the backward pass. */
    private interface Pass {
        void add(int from, int to, Tally into);

        void sum(int lo, int hi, Tally into);
    }

    /** Both passes over the whole part: in one, or where halves is not null in its two {@link Halves} at once. */
    private Tally weighAll(Pass pass, Halves halves) {
        int n = parent.length;
        Tally t = new Tally();
        if (halves == null) {
            pass.add(0, n, t);
            pass.sum(1, n, t);
            return t;
        }
        Parallel.Both<Tally, Tally> both = Parallel.both(() -> halves.first(pass), () -> halves.second(pass), true);
        t = both.first();
        t.add(both.second());
        // the split's level and those above it, whose parents either half may have added to, once both are done
        pass.sum(1, halves.start[1], t);
        return t;
    }

    /**
     * The part's nodes in two halves that write no node of each other's, at a {@link #split}: on the split's level and
     * on each one below it, its first node (start) and the first node of the second half (mid). A node's children
     * lie after one another in the order of their parents, so on every level the descendants of the split level's
     * nodes before the split come first, then the others', and a node below the split's level has its parent in its
     * own half: each half adds its nodes' slots and sums its levels below the split's, and the caller sums the split's
     * level and those above it once both are done.
     */
    private static final class Halves {
        /** Per level from the split's down, its first node; then the part's size. */
        final int[] start;
        final int[] mid;

        Halves(InvertedTree t, int split) {
            int n = t.parent.length;
            int level = 0;
            while (t.children(level) <= split) {
                level = t.children(level);
            }
            int levels = 0;
            for (int s = level; s < n; s = t.children(s)) {
                levels++;
            }
            start = new int[levels + 1];
            mid = new int[levels];
            for (int j = 0, s = level, m = split; j < levels; j++, s = t.children(s), m = t.children(m)) {
                start[j] = s;
                mid[j] = m;
            }
            start[levels] = n;
        }

        /** The first half: the slots of the nodes above the split's level too. */
        Tally first(Pass pass) {
            Tally t = new Tally();
            pass.add(0, start[0], t);
            for (int j = 0; j < mid.length; j++) {
                pass.add(start[j], mid[j], t);
            }
            for (int j = mid.length - 1; j > 0; j--) {
                pass.sum(start[j], mid[j], t);
            }
            return t;
        }

        Tally second(Pass pass) {
            Tally t = new Tally();
            for (int j = 0; j < mid.length; j++) {
                pass.add(mid[j], start[j + 1], t);
            }
            for (int j = mid.length - 1; j > 0; j--) {
                pass.sum(mid[j], start[j + 1], t);
            }
            return t;
        }
    }

    /**
     * Where the weighing splits the part in two halves ({@link Halves}), 0 for none: on the level where it leaves the
     * least to one thread (the larger half's nodes below it, and the nodes of its level and above, summed once both
     * halves are done), the node that halves the nodes below.
     */
    private static int split(int[] node, int[] parent) {
        int n = parent.length;
        // each node's subtree's nodes
        int[] below = new int[n];
        for (int i = n - 1; i > 0; i--) {
            below[i]++;
            below[parent[i]] += below[i];
        }
        int best = 0;
        long least = n;
        for (int level = 1, next; level < n; level = next) {
            next = node[STRIDE * level + KIDS];
            if (next >= least) {
                break; // this level and those above it alone take as long as the best split's larger share
            }
            long all = n - level;
            long before = below[level];
            for (int i = level + 1; i < next; i++) {
                long cost = next + Math.max(before, all - before);
                if (cost < least) {
                    least = cost;
                    best = i;
                }
                before += below[i];
            }
        }
        return best;
    }

    /**
     * Per node the selection's total weight and samples, and (where the part has nodes of mixed types) one more than
     * the first selected origin below it (its call-tree node; origins in pre-order): counted (unit above 0) in counts,
     * stride ints a node (count, first), else in wide, two longs a node (weight; first in the high half, samples in the
     * low); reached: the nodes with samples, and how many per bucket ({@link GroupHeap#bucket}), null where there is
     * no floor ({@link #floor}); rootWeight and rootSamples: the whole selection's, the root's own slots included. Its
     * arrays are of {@link QueryArrays}, which the caller gives back ({@link #release}).
     */
    record Weights(long unit, int[] counts, int stride, long[] wide, int reached, int[] buckets, long rootWeight,
                   int rootSamples) {
        /**
         * A bucket ({@link GroupHeap#bucket}) whose nodes and those above it are more than an answer of maxNodes
         * holds: a graph that stops at its budget ({@link BoundedTree}) never takes a node below it (the heaviest
         * first, and none heavier than its parent). 0 where there is none, or where weightless nodes (ranked by
         * their samples) sit among weighed ones, so that a child may rank above its parent.
         */
        int floor(int maxNodes) {
            if (buckets == null) {
                return 0;
            }
            long above = 0;
            for (int b = buckets.length - 1; b > 0; b--) {
                above += buckets[b];
                if (above >= maxNodes) {
                    return b;
                }
            }
            return 0;
        }

        long total(int node) {
            return counts != null ? unit * counts[stride * node] : wide[2 * node];
        }

        int samples(int node) {
            return counts != null ? counts[stride * node] : (int) wide[2 * node + 1];
        }

        int first(int node) {
            return counts != null ? counts[2 * node + 1] : (int) (wide[2 * node + 1] >>> 32);
        }

        void release() {
            QueryArrays.give(counts);
            QueryArrays.give(wide);
        }
    }

    /**
     * Heap bytes: 16 per node, 8 per sample slot (12 where nodes of mixed types are), 8 per run of one type in a node of
     * mixed types and 4 per such node.
     */
    long footprint() {
        return 144 + 16L * parent.length + 4L * entries.length + 4L * rootSlots.length + 4L * mixed.length
                + (halves == null ? 0 : 48 + 8L * halves.mid.length);
    }

    /**
     * What the profile cache counts for a tree's inverted part before it is made: 32 bytes per call-tree node. The
     * generated deep stacks take about 11; a compiler's deep recursion (javac, async-profiler's cpu samples) about 28,
     * where its types differ between members on many shared paths. A part that would take more is not kept
     * ({@link #of} gives up).
     */
    static long footprintBound(CallTree tree) {
        return 128 + 32L * tree.size();
    }

    /**
     * Groups the origins level by level, as {@link BoundedTree} does per query, into nodes breadth first; null
     * where that would take more than {@link #footprintBound} or share paths deeper than {@link #MAX_SHARED_DEPTH}
     * (inverted graphs are then grouped per query).
     */
    static InvertedTree of(CallTree tree) {
        try {
            return build(tree);
        } catch (TooLarge e) {
            return null;
        }
    }

    /**
     * One daemon thread at low priority makes the parts, one tree after another; a short queue, so that trees asked
     * for and dropped from the cache meanwhile are not all held for it (a tree refused is asked for again by its next
     * inverted query).
     */
    private static final ThreadPoolExecutor MAKER = maker();

    private static ThreadPoolExecutor maker() {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(4), r -> {
            Thread t = new Thread(r, "inverted-part");
            t.setDaemon(true);
            t.setPriority(Thread.MIN_PRIORITY);
            return t;
        }, new ThreadPoolExecutor.AbortPolicy());
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /** Has the tree's part made on the maker's thread, completing part with it (null if not kept); false if refused. */
    static boolean makeLater(CallTree tree, CompletableFuture<InvertedTree> part) {
        try {
            MAKER.execute(() -> {
                InvertedTree made = null;
                try {
                    made = of(tree);
                } catch (OutOfMemoryError | StackOverflowError e) {
                    // not kept: inverted graphs of this tree stay grouped per query
                } finally {
                    part.complete(made);
                }
            });
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    /**
     * Shared paths deeper than this (deep recursion shared by many stacks) are not kept: the part is made by
     * recursion, two frames per level, on its maker's thread.
     */
    private static final int MAX_SHARED_DEPTH = 1024;

    private static final class TooLarge extends RuntimeException {
        TooLarge() {
            super(null, null, false, false);
        }
    }

    private static InvertedTree build(CallTree tree) {
        int n = tree.size();
        boolean[] isOrigin = new boolean[n];
        int count = 0;
        for (int s = 0, slots = tree.sampleSlots(); s < slots; s++) {
            int node = tree.slotNode(s);
            if (node > 0 && !isOrigin[node]) {
                isOrigin[node] = true;
                count++;
            }
        }
        int[] origins = new int[count];
        int[] originOf = new int[n];
        for (int i = 1, k = 0; i < n; i++) {
            if (isOrigin[i]) {
                originOf[i] = k;
                origins[k++] = i;
            }
        }
        int[] slotOrigin = new int[tree.sampleSlots()];
        for (int s = 0; s < slotOrigin.length; s++) {
            int node = tree.slotNode(s);
            slotOrigin[s] = node > 0 ? originOf[node] : -1;
        }
        Builder b = new Builder(tree, origins, footprintBound(tree) - 128 - 8L * slotOrigin.length);
        int[] members = origins.clone();
        int[] ids = new int[count];
        for (int i = 0; i < count; i++) {
            ids[i] = i;
        }
        b.add(-1, -1, (byte) 0, -1);
        b.children(0, ids, members, 0, count, 0);
        b.end[0] = b.size;
        if (b.mixedSize > 0 && b.room < 4L * slotOrigin.length) {
            throw new TooLarge(); // the slots' origins kept beside them ({@link #entries}) would not fit
        }
        return breadthFirst(b, slotOrigin);
    }

    /**
     * The built nodes (pre-order) renumbered breadth first, each node's children after one another in name order:
     * a graph reads a node's children together, which in pre-order lie a subtree apart each, and the weighing's
     * backward pass adds to parents that come in the same order as their children, a stream where pre-order's
     * parents lay anywhere above.
     */
    private static InvertedTree breadthFirst(Builder b, int[] slotOrigin) {
        int n = b.size;
        int[] order = new int[n];
        int[] renumbered = new int[n];
        int[] node = new int[STRIDE * (n + 1)];
        int placed = 1;
        for (int at = 0; at < n; at++) {
            int old = order[at];
            node[STRIDE * at + NAME] = b.name[old];
            node[STRIDE * at + KIDS] = placed;
            node[STRIDE * at + CHAIN] = b.chain[old] == -1 ? -1 - b.type[old] : b.chain[old];
            for (int c = old + 1, end = b.end[old]; c < end; c = b.end[c]) {
                renumbered[c] = placed;
                order[placed++] = c;
            }
        }
        node[STRIDE * n + KIDS] = n;
        int[] parent = new int[n];
        parent[0] = -1;
        for (int at = 1; at < n; at++) {
            parent[at] = renumbered[b.parent[order[at]]];
        }
        int[] target = b.target;
        for (int i = 0; i < target.length; i++) {
            target[i] = renumbered[target[i]];
        }
        // the slots by the node they add to, then by slot
        int roots = 0;
        for (int origin : slotOrigin) {
            if (origin < 0) {
                roots++;
            }
        }
        int[] rootSlots = new int[roots];
        long[] keys = new long[slotOrigin.length - roots];
        for (int s = 0, r = 0, k = 0; s < slotOrigin.length; s++) {
            if (slotOrigin[s] < 0) {
                rootSlots[r++] = s;
            } else {
                keys[k++] = (long) target[slotOrigin[s]] << 32 | s;
            }
        }
        Arrays.sort(keys);
        int stride = b.mixedSize > 0 ? 3 : 2;
        int[] entries = new int[stride * keys.length];
        for (int k = 0; k < keys.length; k++) {
            int slot = (int) keys[k];
            entries[stride * k] = slot;
            entries[stride * k + 1] = (int) (keys[k] >>> 32);
            if (stride == 3) {
                entries[stride * k + 2] = b.tree.slotNode(slot);
            }
        }
        return new InvertedTree(node, parent, entries, rootSlots, Arrays.copyOf(b.mixed, b.mixedSize));
    }

    private static final class Builder {
        final CallTree tree;
        final int[] origins;
        final int[] target;
        int[] mixed = new int[64];
        int mixedSize;
        int[] parent = new int[1024];
        int[] name = new int[1024];
        int[] end = new int[1024];
        byte[] type = new byte[1024];
        int[] chain = new int[1024];
        int size;
        /** Bytes left for nodes and mixed members. */
        long room;

        Builder(CallTree tree, int[] origins, long room) {
            this.tree = tree;
            this.origins = origins;
            this.target = new int[origins.length];
            this.room = room;
        }

        int add(int parentNode, int nameId, byte typeCode, int chainNode) {
            room -= 16;
            if (room < 0) {
                throw new TooLarge();
            }
            if (size == name.length) {
                int cap = size * 2;
                parent = Arrays.copyOf(parent, cap);
                name = Arrays.copyOf(name, cap);
                end = Arrays.copyOf(end, cap);
                type = Arrays.copyOf(type, cap);
                chain = Arrays.copyOf(chain, cap);
            }
            parent[size] = parentNode;
            name[size] = nameId;
            type[size] = typeCode;
            chain[size] = chainNode;
            return size++;
        }

        /**
         * The children of a node whose members (call-tree nodes, each with its origin's index, ordered by origin)
         * are ids/members[from, to): the members grouped by name, each group a child in name order.
         */
        void children(int parentNode, int[] ids, int[] members, int from, int to, int depth) {
            if (depth > MAX_SHARED_DEPTH) {
                throw new TooLarge();
            }
            int k = to - from;
            long[] keys = new long[k];
            for (int a = 0; a < k; a++) {
                keys[a] = (long) tree.name(members[from + a]) << 32 | a;
            }
            // by name, then by origin order within a name (the index in [from, to) is that order)
            Arrays.sort(keys);
            for (int a = 0; a < k; ) {
                int nm = (int) (keys[a] >>> 32);
                int b = a;
                while (b < k && (int) (keys[b] >>> 32) == nm) {
                    b++;
                }
                if (b - a == 1) {
                    int m = from + (int) keys[a];
                    int node = add(parentNode, nm, (byte) tree.type(members[m]), members[m]);
                    end[node] = node + 1;
                    target[ids[m]] = node;
                } else {
                    group(parentNode, ids, members, from, keys, a, b, nm, depth);
                }
                a = b;
            }
        }

        /** A node of two or more members, then its children: the members' parents, grouped. */
        private void group(int parentNode, int[] ids, int[] members, int from, long[] keys, int a, int b, int nm,
                           int depth) {
            int first = members[from + (int) keys[a]];
            int node = add(parentNode, nm, (byte) tree.type(first), -1);
            int[] nextIds = new int[b - a];
            int[] nextMembers = new int[b - a];
            int up = 0;
            boolean differ = false;
            for (int c = a; c < b; c++) {
                int m = from + (int) keys[c];
                differ |= tree.type(members[m]) != tree.type(first);
                int p = tree.parent(members[m]);
                if (p > 0) {
                    nextIds[up] = ids[m];
                    nextMembers[up++] = p;
                } else {
                    target[ids[m]] = node;
                }
            }
            if (differ) {
                int need = mixedSize + 1 + 2 * (b - a);
                if (need > mixed.length) {
                    mixed = Arrays.copyOf(mixed, Math.max(need, mixed.length * 2));
                }
                int at = mixedSize++;
                int runs = 0;
                int last = -1;
                for (int c = a; c < b; c++) {
                    int m = from + (int) keys[c];
                    int t = tree.type(members[m]);
                    if (t != last) {
                        mixed[mixedSize++] = origins[ids[m]];
                        mixed[mixedSize++] = t;
                        runs++;
                        last = t;
                    }
                }
                mixed[at] = runs;
                room -= 4 + 8L * runs;
                if (room < 0) {
                    throw new TooLarge();
                }
                chain[node] = MIXED + at;
            }
            if (up > 0) {
                children(node, nextIds, nextMembers, 0, up, depth + 1);
            }
            end[node] = size;
        }
    }
}
