package org.jfrworkbench.analysis;

import org.jfrworkbench.model.SampleTable;

/**
 * The top part of a call tree that one kind's samples (of one source) weigh most, for flame graphs that do not pass
 * over every node: the nodes whose count over all those samples is at least a floor w0, a connected top part (counts
 * only shrink down the tree) kept as a {@link CallTree} of its own in the same pre-order, names and types copied; and
 * per sample slot the part's node nearest to the slot's node, itself or its nearest ancestor in the part.
 *
 * <p>Why answers from it are exact: a node's count in any selection of those samples is at most its count over all
 * of them, so a node a cut at count c >= w0 keeps (count >= c) is in the part, with its own slots (its exact self)
 * and the slots below it outside the part ("spill"; each such path leaves the part through a reached child whose count
 * is below w0, so below c): the node's total is its self, its spill and its children's in the part, and it loses
 * children into "[other]" exactly where it would on the whole tree. {@link Cut#noted} gives up (null) where the cut
 * would try a count below w0 with spill reached, and the view then weighs the whole tree.
 *
 * <p>A view of a time range (no threads chosen) counts its samples straight onto the part: per sample of the kind its
 * part node's code ({@link #weigh(ProfileData, Selection, long, Parallel, Cut.Counts)}), so that it
 * neither fills an array of the tree's sample slots nor passes over every slot into the part.
 *
 * <p>Memory: 13 bytes per node of the part (as {@link CallTree}'s), 4 per sample slot and 4 per sample of the kind.
 */
final class CoarseTree {
    /** The part's nodes per node of a default flame graph: w0 is the least count that leaves at most this many. */
    static final int NODES_PER_ANSWER_NODE = 4;
    /** Counts histogrammed to pick w0; a part that needs a floor above it is not made. */
    private static final int COUNT_CAP = 1 << 16;

    private final CallTree part;
    private final int floor;
    /** The count of the lightest node of an answer of every sample, about ({@link #likely}), and every sample's. */
    private final int answerFloor;
    private final long samples;
    /** The kind's samples when it was made, every source's. */
    private final int tableSize;
    /** Per sample slot: its part node where the slot's node is in the part, else ~ its nearest ancestor's. */
    private final int[] slotNode;
    /**
     * Per sample of the kind (the first tableSize), its slot's part node k as a code: k where the slot's node is in the
     * part (its self), the part's size plus k where it lies below k outside the part (its spill).
     */
    private final int[] sampleCodes;

    private CoarseTree(CallTree part, int floor, int answerFloor, long samples, int tableSize, int[] slotNode,
                       int[] sampleCodes) {
        this.part = part;
        this.floor = floor;
        this.answerFloor = answerFloor;
        this.samples = samples;
        this.tableSize = tableSize;
        this.slotNode = slotNode;
        this.sampleCodes = sampleCodes;
    }

    /**
     * The part of tree whose nodes' counts (from slotCounts, the samples per sample slot) are at least the least floor
     * that leaves at most target nodes; null where that part would be more than half the tree (a view over it would
     * save too little for its memory) or the kind has no samples. t: the kind's samples, of which tableSize were counted
     * (every source's).
     */
    static CoarseTree of(CallTree tree, int[] slotCounts, int target, SampleTable t, int tableSize) {
        int n = tree.size();
        int[] w = new int[n];
        for (int s = 0; s < slotCounts.length; s++) {
            w[tree.slotNode(s)] += slotCounts[s];
        }
        for (int i = n - 1; i > 0; i--) {
            w[tree.parent(i)] += w[i];
        }
        int[] ranks = atOrAbove(w);
        int floor = floor(ranks, target);
        if (floor < 0 || n == 0 || w[0] == 0) {
            return null;
        }
        // the count of the heaviest answer's lightest node, about: the least count that leaves at most target / 4
        int answerFloor = floor(ranks, target / NODES_PER_ANSWER_NODE);
        long samples = w[0];
        int size = 0;
        for (int i = 0; i < n; i = w[i] >= floor ? i + 1 : tree.end(i)) {
            if (w[i] >= floor) {
                size++;
            }
        }
        if (size > n / 2) {
            return null;
        }
        int[] parent = new int[size];
        int[] name = new int[size];
        int[] end = new int[size];
        byte[] type = new byte[size];
        // w becomes each node's nearest part node: k where the node is the part's k, ~k below the part's k
        int k = 0;
        for (int i = 0; i < n; i++) {
            int p = i == 0 ? -1 : w[tree.parent(i)];
            if (i == 0 || w[i] >= floor) {
                // a node in the part has its parent in it: counts only shrink down the tree
                parent[k] = p;
                name[k] = tree.name(i);
                type[k] = tree.rawType(i);
                end[k] = k + 1;
                w[i] = k++;
            } else {
                w[i] = p < 0 ? p : ~p;
            }
        }
        for (int c = size - 1; c > 0; c--) {
            end[parent[c]] = Math.max(end[parent[c]], end[c]);
        }
        int[] slots = new int[tree.sampleSlots()];
        for (int s = 0; s < slots.length; s++) {
            slots[s] = w[tree.slotNode(s)];
        }
        CallTree part = new CallTree(tree.naming(), tree.names(), null, parent, name, end, type, new int[0], new int[0]);
        return new CoarseTree(part, floor, answerFloor < 0 ? COUNT_CAP : answerFloor, samples, tableSize, slots,
                sampleCodes(tree, t, tableSize, slots, size));
    }

    /** Each sample's code (see {@link #sampleCodes}) from its slot's part node. */
    private static int[] sampleCodes(CallTree tree, SampleTable t, int tableSize, int[] slotNode, int size) {
        return CodeCounts.sampleCodes(tree, t, tableSize, slot -> {
            int k = slotNode[slot];
            return k >= 0 ? k : size + ~k;
        });
    }

    /**
     * Per count c from 1, how many nodes have c or more (capped at {@link #COUNT_CAP}: the last is those at the cap or
     * above).
     */
    private static int[] atOrAbove(int[] w) {
        int[] out = new int[COUNT_CAP];
        for (int c : w) {
            out[Math.min(c, COUNT_CAP - 1)]++;
        }
        for (int c = COUNT_CAP - 2; c > 0; c--) {
            out[c] += out[c + 1];
        }
        return out;
    }

    /** The least count c that leaves at most target nodes at c or above; -1 where that is past the histogram. */
    private static int floor(int[] atOrAbove, int target) {
        for (int c = 1; c < COUNT_CAP; c++) {
            if (atOrAbove[c] <= target) {
                return c == COUNT_CAP - 1 ? -1 : c;
            }
        }
        return -1;
    }

    /** The part's nodes. */
    int size() {
        return part.size();
    }

    /** The kind's samples it was counted from, every source's: a view of more is not bounded by its counts. */
    int tableSize() {
        return tableSize;
    }

    /** w0: the least count over all the kind's samples of a node in the part. */
    int floor() {
        return floor;
    }

    /**
     * Whether the cut of a graph of these slots is likely on the part: a share of the samples has counts of about that
     * share of every sample's, so its cut's threshold is about that share of the answer floor, and the part cannot
     * answer a cut below its floor. A guess, which keeps the part's work from views that would fall back (a few threads'
     * samples, a short range); the answer is the same either way.
     */
    boolean likely(Selection.Slots slots) {
        // an int sum, which the compiler vectorizes: a kind's samples are counted in ints (TreeWeights' root)
        int selected = 0;
        for (int c : slots.samples()) {
            selected += c;
        }
        return likely(selected);
    }

    /** {@link #likely(Selection.Slots)} of a selection of so many samples. */
    private boolean likely(long selected) {
        return selected * answerFloor >= floor * samples;
    }

    /**
     * The slots' counts on the part ({@link Selection.Slots}, weights that are counts times their unit): each part
     * node's own slots as its self, those below it outside the part as its spill; the reached nodes' counts gathered
     * into gather for the cut.
     */
    TreeWeights weigh(Selection.Slots slots, Cut.Counts gather) {
        int m = part.size();
        int[] self = QueryArrays.ints(m);
        int[] spill = QueryArrays.ints(m);
        int[] samples = slots.samples();
        for (int s = 0; s < samples.length; s++) {
            int c = samples[s];
            if (c != 0) {
                int k = slotNode[s];
                if (k >= 0) {
                    self[k] += c;
                } else {
                    spill[~k] += c;
                }
            }
        }
        return TreeWeights.spilled(part, self, spill, slots.unit(), floor, gather);
    }

    /**
     * The selection's samples (of a time range and states, no threads: a few threads' samples are read from their own
     * lists) counted straight onto the part by their codes, each weighing unit, as {@link #weigh(Selection.Slots,
     * Cut.Counts)} would from their slots; the reached nodes' counts gathered into gather. Null where the view is
     * not {@link #likely} on the part, judged before the pass from the blocks the range reaches, after it from the
     * samples it selected. The pass is {@link CodeCounts}' (its codes: the part's size times two, selves then spills),
     * in two halves at once where the kind is large and parallel offers a helper.
     */
    TreeWeights weigh(ProfileData data, Selection s, long unit, Parallel parallel, Cut.Counts gather) {
        SampleTable t = data.samples(s.kind());
        SampleBlocks blocks = data.blocks(s.kind());
        Selection.Filter f = s.filter(data);
        int count = blocks.count();
        long reached = 0;
        for (int b = 0; b < count; b++) {
            if (blocks.max(b) >= f.lo && blocks.min(b) < f.hi) {
                reached += Math.min(t.size(), (b + 1) << SampleBlocks.BITS) - (b << SampleBlocks.BITS);
            }
        }
        if (!likely(reached)) {
            return null; // cheaper to tell here than after a pass the view would then make again into slots
        }
        CodeCounts tally = CodeCounts.count(t, blocks, f, sampleCodes, 2 * part.size(), parallel);
        if (!likely(tally.selected())) {
            tally.give();
            return null;
        }
        int m = part.size();
        int[] self = QueryArrays.intsToWrite(m);
        int[] spill = QueryArrays.intsToWrite(m);
        System.arraycopy(tally.counts(), 0, self, 0, m);
        System.arraycopy(tally.counts(), m, spill, 0, m);
        tally.give();
        return TreeWeights.spilled(part, self, spill, unit, floor, gather);
    }

    /** Heap bytes of a part of at most nodes nodes over a tree of slots sample slots, its kind of so many samples. */
    static long footprint(long nodes, long slots, long samples) {
        return 200 + 13 * nodes + 4 * slots + 4 * samples;
    }
}
