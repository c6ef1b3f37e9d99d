package org.jfrworkbench.analysis;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;

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
    /**
     * Per node of one member its type code, its call-tree node's copied: read from the tree it was a cache miss per
     * answer node; this column, a byte per node of the part, is small enough that its lines mostly stay in cache.
     */
    private final byte[] type;
    /** Read in order, by the weighing's backward pass ({@link InvertedWeighing}) only. */
    private final int[] parent;
    /** The weighing's own columns and halves: the per-query arithmetic. */
    private final InvertedWeighing weighing;
    /**
     * For nodes whose members' types differ (their {@link #chain} below {@link #SHARED}), one after another: the
     * number of runs, then per run of members of one type (members in origin order) the call-tree node of
     * its first member's origin and the type. One flat column of runs, not a map of every member per node: deep
     * recursive recordings (a compiler's) have hundreds of thousands of such nodes, which a map's entries made a miss
     * each per answer node and a scan of members per answer node cost several more, at several times the bytes.
     */
    private final int[] mixed;

    private InvertedTree(int[] node, byte[] type, int[] parent, int[] entries, int[] rootSlots, int[] mixed) {
        this.node = node;
        this.type = type;
        this.parent = parent;
        this.mixed = mixed;
        this.weighing = new InvertedWeighing(this, parent, entries, rootSlots, mixed.length > 0);
    }

    int size() {
        return parent.length;
    }

    /** Whether the weighing can split the part in halves ({@link InvertedWeighing#hasHalves}). */
    boolean hasHalves() {
        return weighing.hasHalves();
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
    int touch(int at, InvertedWeighing.Weights w) {
        int kids = node[STRIDE * at + KIDS];
        int chain = node[STRIDE * at + CHAIN];
        // and what its type is read from
        int type = chain >= 0 ? this.type[at] : chain < SHARED ? mixed[chain - MIXED + 1] : 0;
        return type + w.samples(at) + (kids < parent.length ? node[STRIDE * kids + CHAIN] + w.samples(kids) : 0);
    }

    /** Reads the node's entry and weights only, for a group further ahead, whose children's lines are not known yet. */
    int touchEntry(int at, InvertedWeighing.Weights w) {
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
     * selected origin ({@link InvertedWeighing.Weights#first}) falls in.
     */
    String typeName(int n, InvertedWeighing.Weights w) {
        int chain = chain(n);
        if (chain >= 0) {
            return CallTree.TYPE_NAMES[type[n]];
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

    /** The selection's weights per node ({@link InvertedWeighing#weigh}), in halves as parallel says. */
    InvertedWeighing.Weights weigh(Selection.Slots slots, Parallel parallel) {
        return weighing.weigh(slots, parallel);
    }

    /**
     * The weights of a selection counted per entry of the weighing ({@link InvertedWeighing#weighEntries}, from
     * {@link InvertedCodes}), in halves as parallel says.
     */
    InvertedWeighing.Weights weighEntries(int[] entryCounts, long unit, Parallel parallel) {
        return weighing.weighEntries(entryCounts, unit, parallel);
    }

    /** The weighing's entry per sample slot ({@link InvertedWeighing#slotEntries}). */
    int[] slotEntries(int slots) {
        return weighing.slotEntries(slots);
    }

    /** The codes of entries, the root's slots' included ({@link InvertedWeighing#entryCodes}). */
    int entryCodes() {
        return weighing.entryCodes();
    }

    /**
     * Heap bytes: 17 per node, 8 per sample slot (12 where nodes of mixed types are), 8 per run of one type in a node of
     * mixed types and 4 per such node.
     */
    long footprint() {
        return 160 + 17L * parent.length + 4L * mixed.length + weighing.footprint();
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
     * Has the tree's part made on the {@link Background} thread, completing part with it (null if not kept); false if
     * refused.
     */
    static boolean makeLater(CallTree tree, CompletableFuture<InvertedTree> part) {
        return Background.later(() -> {
            InvertedTree made = null;
            try {
                made = tree.discarded() ? null : of(tree); // a deleted recording's is not made
            } catch (OutOfMemoryError | StackOverflowError e) {
                // not kept: inverted graphs of this tree stay grouped per query
            } finally {
                part.complete(made);
            }
        });
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
        byte[] type = new byte[n];
        int placed = 1;
        for (int at = 0; at < n; at++) {
            int old = order[at];
            node[STRIDE * at + NAME] = b.name[old];
            node[STRIDE * at + KIDS] = placed;
            node[STRIDE * at + CHAIN] = b.chain[old] == -1 ? -1 - b.type[old] : b.chain[old];
            type[at] = b.type[old];
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
        return new InvertedTree(node, type, parent, entries, rootSlots, Arrays.copyOf(b.mixed, b.mixedSize));
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
            room -= 17;
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
