package org.jfrworkbench.analysis;

/**
 * The per-query arithmetic of an {@link InvertedTree}: a selection's sums per sample slot added straight to the part's
 * nodes they go to, then summed up to the root in one backward pass, counting the reached nodes per bucket
 * ({@link Weights}), in one pass or, where a processor is spare, in two {@link Halves} at once. The part's layout and
 * its making are {@link InvertedTree}'s; this keeps, beside it, what only the weighing reads: the slots by node, the
 * root's slots and the halves.
 */
final class InvertedWeighing {
    /** The part whose nodes are weighed (their children, for the halves). */
    private final InvertedTree part;
    /** The part's parent per node, read in order by the backward pass only. */
    private final int[] parent;
    /**
     * Per sample slot of the tree (but those of its root) two ints, the slot and the node its weight goes to, ordered
     * by that node; where the part has nodes of mixed types ({@link InvertedTree#hasMixedTypes}), a third: the slot's
     * origin (the call-tree node with samples of its own), whose least per node a query keeps. A query adds its
     * slots' sums straight to their nodes, with no array the size of the call tree, and in the nodes' order: in the
     * slots' own order each add was a cache miss at random in the part's weights (javac: 8 of a graph's 44 ms). The
     * origin read from the tree's {@link CallTree#slotNode} instead was one more miss at random per slot.
     */
    private final int[] entries;
    /** Ints per entry: 2, or 3 with the origin. */
    private final int entryStride;
    /** The slots of the call tree's root: no origin's, counted in the whole selection only. */
    private final int[] rootSlots;
    /**
     * The two halves the weighing may split the part in, which do not write each other's nodes, made once with the part
     * (every weighing in halves takes the same); null where the part has no such split ({@link #split}).
     */
    private final Halves halves;
    /** Whether the part has nodes of mixed types (then a query notes each node's first selected origin). */
    private final boolean mixedTypes;

    InvertedWeighing(InvertedTree part, int[] parent, int[] entries, int[] rootSlots, boolean mixedTypes) {
        this.part = part;
        this.parent = parent;
        this.entries = entries;
        this.entryStride = mixedTypes ? 3 : 2;
        this.rootSlots = rootSlots;
        this.mixedTypes = mixedTypes;
        int split = split(part, parent);
        this.halves = split > 0 ? new Halves(part, split) : null;
    }

    /** Whether the weighing can split the part in halves ({@link #split}). */
    boolean hasHalves() {
        return halves != null;
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
        Halves h = halves(parallel);
        return slots.weight() == null && slots.unit() > 0
                ? weighCounts(slots.samples(), false, rootSamples(slots.samples()), slots.unit(), h)
                : weighWeights(slots, h);
    }

    /** The halves to weigh in where parallel offers a helper, else null. */
    private Halves halves(Parallel parallel) {
        // a part of a few nodes is weighed in less than the hand-over to a helper takes, unless a test says always
        return halves != null && (parent.length >= HALVES_FROM || parallel == Parallel.ALWAYS) && parallel.offers()
                ? halves : null;
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

    /**
     * The same weights where every sample weighs unit (above 0), from entryCounts: the selected samples per entry (its
     * position in {@link #entries}), the root slots' after the last entry ({@link #slotEntries}). The adds read the
     * counts in the entries' order, where the slots' counts were a miss at random per slot.
     */
    Weights weighEntries(int[] entryCounts, long unit, Parallel parallel) {
        return weighCounts(entryCounts, true, entryCounts[entries.length / entryStride], unit, halves(parallel));
    }

    /**
     * Per sample slot of the tree its entry's position in {@link #entries}; the root's slots (no entry) one past the
     * last entry.
     */
    int[] slotEntries(int slots) {
        int[] out = new int[slots];
        int n = entries.length / entryStride;
        for (int s : rootSlots) {
            out[s] = n;
        }
        for (int k = 0; k < n; k++) {
            out[entries[entryStride * k]] = k;
        }
        return out;
    }

    /** The counts per entry and the root slots' after them: {@link #weighEntries}' array's length. */
    int entryCodes() {
        return entries.length / entryStride + 1;
    }

    /**
     * Counts: per slot (byEntry false: the slots' own, {@link Selection.Slots#samples}) or per entry (true); the root's
     * slots' samples given.
     */
    private Weights weighCounts(int[] counts, boolean byEntry, int rootSamples, long unit, Halves halves) {
        int n = parent.length;
        boolean firsts = mixedTypes;
        int stride = firsts ? 2 : 1;
        int[] acc = QueryArrays.ints(stride * n);
        Tally t = weighAll(new Pass() {
            @Override
            public void add(int from, int to, Tally into) {
                into.samples += addCounts(acc, firsts, counts, byEntry, from, to);
            }

            @Override
            public void sum(int lo, int hi, Tally into) {
                sumCounts(acc, firsts, unit, lo, hi, into.buckets);
            }
        }, halves);
        int samples = rootSamples + (int) t.samples;
        int[] buckets = t.buckets;
        int reached = n - 1 - buckets[0];
        buckets[0] = 0;
        return new Weights(unit, acc, stride, null, reached, buckets, unit * samples, samples);
    }

    /**
     * Adds the counts (per slot, or byEntry per entry) of the slots whose nodes are from..to - 1 to those nodes;
     * returns their samples.
     */
    private int addCounts(int[] acc, boolean firsts, int[] counts, boolean byEntry, int from, int to) {
        int samples = 0;
        int[] e = entries;
        int step = entryStride;
        int j = firstEntry(from);
        for (int k = step * j; k < e.length && e[k + 1] < to; k += step, j++) {
            int c = counts[byEntry ? j : e[k]];
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
        boolean firsts = mixedTypes;
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
            int n = t.size();
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
    private static int split(InvertedTree part, int[] parent) {
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
            next = part.children(level);
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

    /** Heap bytes of what the weighing keeps: 8 per sample slot (12 where nodes of mixed types are), and the halves. */
    long footprint() {
        return 4L * entries.length + 4L * rootSlots.length + (halves == null ? 0 : 48 + 8L * halves.mid.length);
    }
}
