package org.jfrworkbench.analysis;

import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

import org.jfrworkbench.model.FrameNaming;
import org.jfrworkbench.model.FrameType;

/**
 * The call tree of one recording: all its distinct stacks (of every kind) as paths of frame names from the root
 * {@code all}, equal prefixes merged, with a leaf per allocated class under the stacks of allocation samples.
 * Nodes are numbered in depth-first pre-order with children sorted by name, so node i's subtree is
 * {@code i .. end(i) - 1} and every tree the API answers is a filtered copy in the same order. Each distinct stack
 * (and each stack-class pair) knows its node, so a query adds each selected sample's weight to one node and sums
 * the subtrees in one backward pass: no stack is hashed or walked per query.
 *
 * <p>Memory: 13 bytes per node (parent, name, subtree end, type) plus 4 per distinct stack and 4 per stack-class
 * pair, besides the name dictionary ({@link FrameNames}), which trees of one naming share; two bits, a char and an
 * int per node more once diffed ({@link #outermost}, {@link #unordered}, {@link #depths}, {@link #methods}).
 */
public final class CallTree {
    /** Type codes above the frame types: the allocated class leaf. */
    static final int CLASS_TYPE = FrameType.values().length;
    /** Set in a node's type byte when its name also occurs on an ancestor (recursion). */
    static final int RECURSIVE = 0x80;
    static final String[] TYPE_NAMES = typeNames();

    private final FrameNaming naming;
    private final FrameNames names;
    private final StackClasses classes;
    private final int[] parent;
    private final int[] name;
    private final int[] end;
    private final byte[] type;
    private final int[] stackNode;
    private final int[] pairNode;
    /**
     * Made in the background once an inverted query asks ({@link #inverted}); its value null where too large to
     * keep. Null until asked, or again when the maker's queue was full.
     */
    private final AtomicReference<CompletableFuture<InvertedTree>> inverted = new AtomicReference<>();
    /** Set where its recording was deleted ({@link #discard}). */
    private volatile boolean discarded;
    /** Made on the first diff ({@link #outermost}, {@link #unordered}). */
    private volatile StableOrder stableOrder;

    CallTree(FrameNaming naming, FrameNames names, StackClasses classes, int[] parent, int[] name,
             int[] end, byte[] type, int[] stackNode, int[] pairNode) {
        this.naming = naming;
        this.names = names;
        this.classes = classes;
        this.parent = parent;
        this.name = name;
        this.end = end;
        this.type = type;
        this.stackNode = stackNode;
        this.pairNode = pairNode;
    }

    public FrameNaming naming() {
        return naming;
    }

    public FrameNames names() {
        return names;
    }

    /** Nodes, the root included. */
    public int size() {
        return parent.length;
    }

    /** The parent node, -1 for the root. */
    public int parent(int node) {
        return parent[node];
    }

    /** The name id ({@link FrameNames}), -1 for the root. */
    public int name(int node) {
        return name[node];
    }

    /** The first node after node's subtree. */
    public int end(int node) {
        return end[node];
    }

    /** The type code: a {@link FrameType} ordinal or {@link #CLASS_TYPE}. */
    public int type(int node) {
        return type[node] & (RECURSIVE - 1);
    }

    /** The type byte as stored: type code and recursion flag. */
    byte rawType(int node) {
        return type[node];
    }

    public String typeName(int node) {
        return node == 0 ? "" : TYPE_NAMES[type(node)];
    }

    /** Whether the node's name also occurs on one of its ancestors: its samples are already counted there. */
    public boolean recursive(int node) {
        return (type[node] & RECURSIVE) != 0;
    }

    /** Number of stack slots: the distinct stacks, then one for samples without a stack. */
    public int stackSlots() {
        return stackNode.length;
    }

    /** The node of a stack slot ({@link StackClasses#slot}). */
    public int stackNode(int slot) {
        return stackNode[slot];
    }

    /**
     * Sample slots: each stack slot, then each stack-class pair ({@link StackClasses}). A query first sums its
     * samples per slot (a few hundred kilobytes, where the node columns are megabytes), then per node.
     */
    int sampleSlots() {
        return stackNode.length + pairNode.length;
    }

    /** The sample slot of a sample of this stack slot that allocated objectClass (its pair when it has one). */
    int allocationSlot(int slot, int objectClass) {
        int pair = objectClass == 0 ? -1 : classes.find(slot, objectClass);
        return pair < 0 ? slot : stackNode.length + pair;
    }

    /** The node of a sample slot. */
    int slotNode(int sampleSlot) {
        return sampleSlot < stackNode.length ? stackNode[sampleSlot] : pairNode[sampleSlot - stackNode.length];
    }

    /**
     * Per sample slot whether its path (the root left out) has a node whose name is marked in names: the slots whose
     * samples a search's matched weight counts, so that it is a sum over the slots, not a walk of the tree per query.
     */
    boolean[] slotsThrough(boolean[] names) {
        boolean[] through = new boolean[size()];
        for (int i = 1, n = size(); i < n; i++) {
            through[i] = names[name(i)] || through[parent(i)];
        }
        boolean[] out = new boolean[sampleSlots()];
        for (int s = 0; s < out.length; s++) {
            out[s] = through[slotNode(s)];
        }
        return out;
    }

    /**
     * The branching part of this tree's inverted graph if made; else null, and the first call has it made on
     * {@link InvertedTree}'s own thread. A query never waits for it: until it is made inverted graphs are grouped per
     * query (the same answers), where waiting took a recording of two million nodes 1 to 3 s on its first inverted
     * graph. Null for good where too large to keep.
     */
    InvertedTree inverted() {
        CompletableFuture<InvertedTree> part = inverted.get();
        if (part == null) {
            CompletableFuture<InvertedTree> mine = new CompletableFuture<>();
            if (inverted.compareAndSet(null, mine) && !InvertedTree.makeLater(this, mine)) {
                inverted.compareAndSet(mine, null);
            }
            return null;
        }
        return part.getNow(null);
    }

    /** Skips the making of this tree's inverted part if still queued ({@link ProfileData#discard}). */
    void discard() {
        discarded = true;
    }

    boolean discarded() {
        return discarded;
    }

    /** The branching part of this tree's inverted graph if made by now, without having it made. */
    InvertedTree invertedIfMade() {
        CompletableFuture<InvertedTree> part = inverted.get();
        return part == null ? null : part.getNow(null);
    }

    /** The branching part of this tree's inverted graph, waiting until it is made (having it made if not asked yet). */
    InvertedTree awaitInverted() {
        CompletableFuture<InvertedTree> part;
        while ((part = inverted.get()) == null) {
            inverted();
            Thread.onSpinWait();
        }
        return part.join();
    }

    /**
     * A bit per node, set where its stable name ({@link FrameNames#stableName}) does not occur on an ancestor: the
     * method's outermost occurrence on the path, whose total holds the samples of every occurrence below it. Made in
     * one pass over the tree on first use and kept, so a query's walk neither counts methods on the open path nor
     * unwinds them.
     */
    long[] outermost() {
        return stableOrder().outermost();
    }

    /**
     * A bit per node, set where its children are not in strictly increasing order of stable names (names that
     * differ in generated numbers only, or sort otherwise once those are taken out): elsewhere, a walk in tree order
     * meets the children in the order of their stable names, one each.
     */
    long[] unordered() {
        return stableOrder().unordered();
    }

    /**
     * Each node's depth, the root's 0 (its children's 1): a char per node, or null where a path is deeper than a char
     * holds ({@link #deepDepths} then). Made with {@link #outermost}: a diff's method sums keep the depth of a method's
     * shallowest occurrence, and sum in an order that keeps no path open.
     */
    char[] depths() {
        return stableOrder().depth();
    }

    /** Each node's depth where {@link #depths} is null (a path deeper than 65,535 frames), else null. */
    int[] deepDepths() {
        return stableOrder().deepDepth();
    }

    /**
     * Each node's method: the stable name id of its name ({@link FrameNames#stableIds}), made with {@link #outermost}.
     * A diff's method sums read it in tree order where looking the name's up in the dictionary's column was a cache
     * miss per node on a large dictionary, waited for before the method's figures could be.
     */
    int[] methods() {
        return stableOrder().methods();
    }

    private record StableOrder(long[] outermost, long[] unordered, char[] depth, int[] deepDepth, int[] methods) {
    }

    private StableOrder stableOrder() {
        StableOrder o = stableOrder;
        if (o == null) {
            stableOrder = o = stableOrderBits();
        }
        return o;
    }

    private StableOrder stableOrderBits() {
        int n = parent.length;
        int[] stable = names.stableIds();
        long[] outer = new long[(n + 63) >>> 6];
        long[] unordered = new long[(n + 63) >>> 6];
        int[] onPath = new int[names.stableSize()];
        // the open path, and per open node the stable name of its last child so far
        int[] open = new int[64];
        int[] lastChild = new int[64];
        open[0] = 0;
        lastChild[0] = -1;
        int depth = 1;
        char[] depths = new char[n];
        int[] methods = new int[n];
        int[] deep = null;
        for (int i = 1; i < n; i++) {
            while (end[open[depth - 1]] <= i) {
                int closed = open[--depth];
                if (closed > 0) {
                    onPath[stable[name[closed]]]--;
                }
            }
            if (deep == null && depth > Character.MAX_VALUE) {
                deep = new int[n];
                for (int j = 0; j < i; j++) {
                    deep[j] = depths[j];
                }
            }
            if (deep != null) {
                deep[i] = depth;
            } else {
                depths[i] = (char) depth;
            }
            int s = stable[name[i]];
            methods[i] = s;
            if (onPath[s]++ == 0) {
                outer[i >>> 6] |= 1L << i;
            }
            int p = depth - 1;
            if (lastChild[p] >= s) {
                unordered[open[p] >>> 6] |= 1L << open[p];
            }
            lastChild[p] = s;
            if (depth == open.length) {
                open = java.util.Arrays.copyOf(open, depth * 2);
                lastChild = java.util.Arrays.copyOf(lastChild, depth * 2);
            }
            open[depth] = i;
            lastChild[depth++] = -1;
        }
        return deep == null ? new StableOrder(outer, unordered, depths, null, methods)
                : new StableOrder(outer, unordered, null, deep, methods);
    }

    /** Heap bytes of the node and stack columns (the dictionary is counted with the profile's names). */
    long footprint() {
        // the stable order's bits, depths and methods counted from the start: they are made on a recording's first diff
        return 96 + 13L * parent.length + 4L * stackNode.length + 4L * pairNode.length + 80 + parent.length / 4
                + 6L * parent.length;
    }

    private static String[] typeNames() {
        FrameType[] values = FrameType.values();
        String[] out = new String[values.length + 1];
        for (FrameType t : values) {
            out[t.ordinal()] = t.name().toLowerCase(Locale.ROOT);
        }
        out[values.length] = "class";
        return out;
    }
}
