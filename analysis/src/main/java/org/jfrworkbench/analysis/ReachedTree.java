package org.jfrworkbench.analysis;

import java.util.Arrays;

/**
 * The part of a call tree that a selection of few samples reaches, made per query: the union of the paths from the
 * root to the nodes of the selection's reached sample slots, a {@link CallTree} of its own in the same pre-order,
 * names and types copied. A flame graph weighed, cut and laid out on it is the whole tree's, node for node: every
 * node a selected sample passes through is in it, so no sample lies outside it (no spill, unlike a
 * {@link CoarseTree}'s part) and its cut is never given up.
 *
 * <p>Why: a thread view (a few of many threads) or a short range reaches a few percent of a large tree's nodes, and
 * weighing on the whole tree zeroes, sums and walks columns of every node. The part is made without a column of the
 * tree's size: the reached slots' nodes sorted in pre-order (slots are numbered by stack, not by node), then one
 * stack of the path to the last node met, so each node of the part is visited once.
 */
final class ReachedTree {
    /**
     * The reached slots a selection may have per node of the tree (1 / this): above, the sort and the walk up the paths
     * cost about what the passes over every node do.
     */
    static final int NODES_PER_SLOT = 64;
    /** The part's most nodes per node of the tree (1 / this): past it (deep, parting paths) the whole tree is weighed. */
    static final int NODES_PER_PART_NODE = 16;

    private ReachedTree() {
    }

    /**
     * The slots' counts (samples that each weigh the slots' unit) on the part of the tree they reach, their reached
     * nodes' counts gathered into gather for the cut; null where they reach more slots than the tree's nodes over
     * {@link #NODES_PER_SLOT}, or the part would be more than a {@link #NODES_PER_PART_NODE}th of the tree.
     */
    static TreeWeights weigh(Selection.Slots slots, Cut.Counts gather) {
        CallTree tree = slots.tree();
        long[] reached = reached(slots, tree.size() / NODES_PER_SLOT);
        if (reached == null) {
            return null;
        }
        try {
            return build(slots, reached, tree.size() / NODES_PER_PART_NODE, gather);
        } finally {
            QueryArrays.give(reached);
        }
    }

    /**
     * The reached slots, each its node (high half) and its slot (low half), sorted (so in their nodes' pre-order), in
     * the first ones of the array returned, a -1 after them where room is left; null where more than most.
     */
    private static long[] reached(Selection.Slots slots, int most) {
        int[] samples = slots.samples();
        CallTree tree = slots.tree();
        long[] keys = QueryArrays.longsToWrite(most + 1);
        int found = 0;
        for (int s = 0; s < samples.length; s++) {
            if (samples[s] != 0) {
                if (found == most) {
                    QueryArrays.give(keys);
                    return null;
                }
                keys[found++] = (long) tree.slotNode(s) << 32 | s;
            }
        }
        Arrays.sort(keys, 0, found);
        keys[found] = -1;
        return keys;
    }

    /** The part of the sorted reached slots' paths and its weights; null where it has more than most nodes. */
    private static TreeWeights build(Selection.Slots slots, long[] reached, int most, Cut.Counts gather) {
        CallTree tree = slots.tree();
        int[] samples = slots.samples();
        int found = 0;
        while (reached[found] >= 0) {
            found++;
        }
        // room for the paths' nodes the inputs measured have per reached slot (about 12), growing past it
        Part p = new Part(tree, Math.min(most + 1, 16 * found + 256));
        // the path from the root to the last node added: tree nodes and their part nodes
        int[] onPath = new int[64];
        int[] partOnPath = new int[64];
        int depth = 1;
        int last = 0;
        int[] walked = new int[64];
        for (int i = 0; reached[i] >= 0; i++) {
            int x = (int) (reached[i] >>> 32);
            int up = 0;
            // x's ancestors up to the first in the part: the first not after the last node added (an ancestor of x at
            // or before it has it in its subtree, so is on its path)
            int a = x;
            for (; a > last; a = tree.parent(a)) {
                if (up == walked.length) {
                    walked = Arrays.copyOf(walked, up * 2);
                }
                walked[up++] = a;
            }
            while (onPath[depth - 1] != a) {
                depth--;
            }
            if (p.size + up > most) {
                return null;
            }
            if (depth + up > onPath.length) {
                onPath = Arrays.copyOf(onPath, Math.max(depth + up, 2 * onPath.length));
                partOnPath = Arrays.copyOf(partOnPath, onPath.length);
            }
            // x's ancestors below the path's node are new to the part: nodes met before x that are not its ancestors
            // come before them in pre-order, and so does the part
            while (up > 0) {
                int b = walked[--up];
                onPath[depth] = b;
                partOnPath[depth] = p.add(b, partOnPath[depth - 1]);
                depth++;
                last = b;
            }
            p.self[partOnPath[depth - 1]] += samples[(int) reached[i]];
        }
        return p.weights(slots.unit(), gather);
    }

    /** The part's columns as they grow; the root is its node 0. */
    private static final class Part {
        final CallTree tree;
        int size;
        int[] parent;
        int[] name;
        byte[] type;
        int[] self;

        Part(CallTree tree, int room) {
            this.tree = tree;
            parent = new int[room];
            name = new int[room];
            type = new byte[room];
            self = new int[room];
            add(0, -1);
        }

        /** Adds tree node a under the part's node p; its part node. */
        int add(int a, int p) {
            if (size == parent.length) {
                int cap = 2 * size;
                parent = Arrays.copyOf(parent, cap);
                name = Arrays.copyOf(name, cap);
                type = Arrays.copyOf(type, cap);
                self = Arrays.copyOf(self, cap);
            }
            parent[size] = p;
            name[size] = tree.name(a);
            type[size] = tree.rawType(a);
            return size++;
        }

        TreeWeights weights(long unit, Cut.Counts gather) {
            int[] end = new int[size];
            for (int k = 0; k < size; k++) {
                end[k] = k + 1;
            }
            for (int k = size - 1; k > 0; k--) {
                end[parent[k]] = Math.max(end[parent[k]], end[k]);
            }
            CallTree part = new CallTree(tree.naming(), tree.names(), null, Arrays.copyOf(parent, size),
                    Arrays.copyOf(name, size), end, Arrays.copyOf(type, size), new int[0], new int[0]);
            int[] counts = QueryArrays.intsToWrite(size);
            System.arraycopy(self, 0, counts, 0, size);
            return TreeWeights.spilled(part, counts, null, unit, 0, gather);
        }
    }
}
