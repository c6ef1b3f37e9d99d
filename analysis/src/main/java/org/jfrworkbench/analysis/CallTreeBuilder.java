package org.jfrworkbench.analysis;

import java.util.Arrays;

import org.jfrworkbench.model.FrameNaming;
import org.jfrworkbench.model.FrameType;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.StackTable;

/**
 * Builds a {@link CallTree}: a trie of the stacks' name paths, then laid out in pre-order with children by name.
 * While building, a node is found as its parent's first child (most nodes of deep stacks have one child, and the
 * node columns stay in cache), else as (parent, name) in an open-addressing table that holds only the children after
 * a parent's first: that lookup was 85 % of a build and the first-child check halves the build's time. A node whose
 * parent has no child yet is made without a probe: below a stack's first new node every node is such a one, and each
 * probe of the table (tens to hundreds of MB on a large tree) was a cache miss that found nothing.
 */
final class CallTreeBuilder {
    private int size = 1;
    private int[] parent;
    private int[] name;
    private byte[] type;
    /**
     * Each node's first child and that child's name, {@code name << 32 | child} (0: none; the root is no one's child):
     * most nodes of deep stacks have one, found without a hash probe, and by one read of the parent's entry instead of
     * two (the parent's first child, then that child's name), each a cache miss on a large tree (1.08-1.09x on a
     * recording of 500,000 nodes and on one of 1.5 million).
     */
    private long[] first;
    /**
     * The children after their parent's first, as slot pairs: (parent + 1) << 32 | name (0 = empty), then the child's
     * id; one cache line per probe.
     */
    private long[] table;
    /** The entries in {@link #table}. */
    private int entries;

    private CallTreeBuilder(int expected) {
        int nodes = Math.max(1024, expected);
        parent = new int[nodes];
        name = new int[nodes];
        type = new byte[nodes];
        first = new long[nodes];
        // at most one later child per stack and one per allocated class past a stack's first (a stack's new nodes
        // below its first new one are first children): a quarter of the nodes expected, at half load; grown if more
        table = new long[2 * (Integer.highestOneBit(Math.max(1024, nodes / 2) - 1) << 1)];
        parent[0] = -1;
        name[0] = -1;
    }

    static CallTree build(Profile p, FrameNaming naming, FrameNames names, StackClasses classes) {
        StackTable stacks = p.stacks();
        int slots = stacks.size() + 1;
        // distinct stacks mostly share their callers: a few new nodes per stack
        CallTreeBuilder b = new CallTreeBuilder((int) Math.min(1 << 22, 4L * slots + classes.pairs()));
        int[] stackNode = new int[slots];
        byte unknown = (byte) FrameType.UNKNOWN.ordinal();
        for (int s = 0; s < slots - 1; s++) {
            stackNode[s] = b.addStack(p, names, s);
        }
        stackNode[slots - 1] = b.child(0, names.noStack(), unknown);
        int[] pairNode = new int[classes.pairs()];
        byte classType = (byte) CallTree.CLASS_TYPE;
        for (int s = 0; s < slots; s++) {
            for (int pair = classes.first(s); pair < classes.end(s); pair++) {
                pairNode[pair] = b.child(stackNode[s], names.className(classes.classOf(pair)), classType);
            }
        }
        return b.layout(naming, names, classes, stackNode, pairNode);
    }

    /** Adds stack s, root first; returns its leaf's node. */
    private int addStack(Profile p, FrameNames names, int s) {
        StackTable stacks = p.stacks();
        int depth = stacks.depth(s);
        if (depth == 0) {
            // written as the no-stack frame in collapsed text: the same node here
            return child(0, names.noStack(), (byte) FrameType.UNKNOWN.ordinal());
        }
        int node = 0;
        for (int k = depth - 1; k >= 0; k--) {
            int frame = stacks.frame(s, k);
            node = child(node, names.frameName(frame), (byte) p.frames().type(frame).ordinal());
        }
        return node;
    }

    /** The child of p named n, created with type t (a merged node keeps the first type seen). */
    private int child(int p, int n, byte t) {
        long f = first[p];
        if ((int) f == 0) {
            int id = add(p, n, t);
            first[p] = (long) n << 32 | id;
            return id;
        }
        if ((int) (f >>> 32) == n) {
            return (int) f;
        }
        long key = ((long) (p + 1) << 32) | (n & 0xffffffffL);
        int mask = (table.length >> 1) - 1;
        int h = (int) (mix(key) & mask);
        long k;
        while ((k = table[2 * h]) != 0) {
            if (k == key) {
                return (int) table[2 * h + 1];
            }
            h = (h + 1) & mask;
        }
        int id = add(p, n, t);
        table[2 * h] = key;
        table[2 * h + 1] = id;
        if (++entries * 4 > table.length) {
            rehash();
        }
        return id;
    }

    /** A new node, child of p named n with type t. */
    private int add(int p, int n, byte t) {
        int id = size++;
        if (id == parent.length) {
            int cap = id + (id >> 1);
            parent = Arrays.copyOf(parent, cap);
            name = Arrays.copyOf(name, cap);
            type = Arrays.copyOf(type, cap);
            first = Arrays.copyOf(first, cap);
        }
        parent[id] = p;
        name[id] = n;
        type[id] = t;
        return id;
    }

    private void rehash() {
        long[] old = table;
        table = new long[old.length * 2];
        int mask = (table.length >> 1) - 1;
        for (int i = 0; i < old.length; i += 2) {
            if (old[i] != 0) {
                int h = (int) (mix(old[i]) & mask);
                while (table[2 * h] != 0) {
                    h = (h + 1) & mask;
                }
                table[2 * h] = old[i];
                table[2 * h + 1] = old[i + 1];
            }
        }
    }

    private static long mix(long k) {
        k *= 0x9E3779B97F4A7C15L;
        return k ^ (k >>> 29);
    }

    /** Pre-order with children sorted by name (ids are ranks); marks recursive nodes; maps stacks and pairs to their nodes. */
    private CallTree layout(FrameNaming naming, FrameNames names, StackClasses classes,
                            int[] stackNode, int[] pairNode) {
        table = null;
        first = null;
        int n = size;
        // children of each node by a counting sort on the parent, each run then sorted by (name rank, id)
        int[] childStart = new int[n + 1];
        for (int i = 1; i < n; i++) {
            childStart[parent[i] + 1]++;
        }
        for (int i = 0; i < n; i++) {
            childStart[i + 1] += childStart[i];
        }
        long[] children = new long[n];
        int[] fill = Arrays.copyOf(childStart, n);
        for (int i = 1; i < n; i++) {
            children[fill[parent[i]]++] = (long) name[i] << 32 | i;
        }
        fill = null;
        for (int i = 0; i < n; i++) {
            if (childStart[i + 1] - childStart[i] > 1) {
                Arrays.sort(children, childStart[i], childStart[i + 1]);
            }
        }
        int[] pos = new int[n];
        int[] outParent = new int[n];
        int[] outName = new int[n];
        byte[] outType = new byte[n];
        int[] outEnd = new int[n];
        int[] stack = new int[n];
        int sp = 0;
        stack[sp++] = 0;
        int next = 0;
        while (sp > 0) {
            int node = stack[--sp];
            int out = next++;
            pos[node] = out;
            outParent[out] = node == 0 ? -1 : pos[parent[node]];
            outName[out] = name[node];
            outType[out] = type[node];
            for (int c = childStart[node + 1] - 1; c >= childStart[node]; c--) {
                stack[sp++] = (int) children[c];
            }
        }
        children = null;
        for (int i = n - 1; i >= 0; i--) {
            outEnd[i] = Math.max(outEnd[i], i + 1);
            if (i > 0 && outEnd[outParent[i]] < outEnd[i]) {
                outEnd[outParent[i]] = outEnd[i];
            }
        }
        markRecursion(outName, outEnd, outType, names.size());
        for (int s = 0; s < stackNode.length; s++) {
            stackNode[s] = pos[stackNode[s]];
        }
        for (int i = 0; i < pairNode.length; i++) {
            pairNode[i] = pos[pairNode[i]];
        }
        return new CallTree(naming, names, classes, outParent, outName, outEnd, outType, stackNode, pairNode);
    }

    /** Flags every node whose name is already on the path above it, walking the pre-order with a stack of open nodes. */
    private static void markRecursion(int[] name, int[] end, byte[] type, int nameCount) {
        int[] onPath = new int[nameCount];
        int[] open = new int[64];
        int depth = 0;
        for (int i = 1; i < name.length; i++) {
            while (depth > 0 && end[open[depth - 1]] <= i) {
                onPath[name[open[--depth]]]--;
            }
            if (onPath[name[i]] > 0) {
                type[i] |= (byte) CallTree.RECURSIVE;
            }
            onPath[name[i]]++;
            if (depth == open.length) {
                open = Arrays.copyOf(open, depth * 2);
            }
            open[depth++] = i;
        }
    }
}
