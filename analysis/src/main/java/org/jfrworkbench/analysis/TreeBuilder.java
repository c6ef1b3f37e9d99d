package org.jfrworkbench.analysis;

import java.util.Arrays;

/**
 * Builds a call tree from weighted stacks (one or two sides, for diffs) in primitive arrays: a node is
 * (parent, name id), children are found through an open-addressing map keyed by (parent, name).
 * {@link #preOrder} then lays the tree out depth-first with children sorted by name, the compact API form.
 */
final class TreeBuilder {
    /** Presizing stops here (about 15 MB for one side), since the estimate may be far above the real size. */
    static final int MAX_PRESIZE = 1 << 18;
    private final String[] names;
    private final int[] ranks;
    private int size;
    private int[] parent;
    private int[] name;
    private byte[] type;
    private long[][] total;
    private long[][] self;
    private long[][] samples;
    private long[] keys;   // (parent + 1) << 32 | name, 0 = empty
    private int[] values;

    TreeBuilder(String[] names, String rootName, int sides) {
        this(names, null, rootName, sides, 0);
    }

    /**
     * ranks: {@link #nameRanks} of names, when the caller keeps it (sorting names is a large part of a build).
     * expectedNodes: an estimate of the tree's size (at most {@link #MAX_PRESIZE} is used), so that the child map is
     * not rehashed step by step as the tree grows.
     */
    TreeBuilder(String[] names, int[] ranks, String rootName, int sides, long expectedNodes) {
        this.names = names;
        this.ranks = ranks;
        int nodes = (int) Math.max(1024, Math.min(MAX_PRESIZE, expectedNodes));
        parent = new int[nodes];
        name = new int[nodes];
        type = new byte[nodes];
        int slots = Integer.highestOneBit(nodes * 2 - 1) << 1;
        keys = new long[slots];
        values = new int[slots];
        total = new long[sides][nodes];
        self = new long[sides][nodes];
        samples = new long[sides][nodes];
        parent[0] = -1;
        name[0] = -1;
        size = 1;
    }

    int size() {
        return size;
    }

    /** Adds weight along a path of name ids, path[0] the outermost frame; types per path entry. */
    void add(int side, int[] path, byte[] types, int length, long weight, long count) {
        int node = 0;
        total[side][0] += weight;
        samples[side][0] += count;
        for (int i = 0; i < length; i++) {
            node = child(node, path[i], types[i]);
            total[side][node] += weight;
            samples[side][node] += count;
        }
        self[side][node] += weight;
    }

    private int child(int p, int n, byte t) {
        long key = ((long) (p + 1) << 32) | (n & 0xffffffffL);
        int mask = keys.length - 1;
        int h = (int) (mix(key) & mask);
        while (keys[h] != 0) {
            if (keys[h] == key) {
                return values[h];
            }
            h = (h + 1) & mask;
        }
        int id = size++;
        if (id == parent.length) {
            int cap = id * 2;
            QueryLimits.nodes(id); // before the copies: a tree too large for the caller's heap stops here
            parent = Arrays.copyOf(parent, cap);
            name = Arrays.copyOf(name, cap);
            type = Arrays.copyOf(type, cap);
            for (int s = 0; s < total.length; s++) {
                total[s] = Arrays.copyOf(total[s], cap);
                self[s] = Arrays.copyOf(self[s], cap);
                samples[s] = Arrays.copyOf(samples[s], cap);
            }
        }
        parent[id] = p;
        name[id] = n;
        type[id] = t;
        keys[h] = key;
        values[h] = id;
        if (size * 2 > keys.length) {
            rehash();
        }
        return id;
    }

    private void rehash() {
        long[] oldKeys = keys;
        int[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        values = new int[oldKeys.length * 2];
        int mask = keys.length - 1;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != 0) {
                int h = (int) (mix(oldKeys[i]) & mask);
                while (keys[h] != 0) {
                    h = (h + 1) & mask;
                }
                keys[h] = oldKeys[i];
                values[h] = oldValues[i];
            }
        }
    }

    private static long mix(long k) {
        k *= 0x9E3779B97F4A7C15L;
        return k ^ (k >>> 29);
    }

    /**
     * The tree in pre-order, children sorted by name; nodes lighter than minWeight (on every side) are left out
     * together with their subtrees. order[i] = builder node of output node i.
     */
    Layout preOrder(long minWeight) {
        // children lists via counting sort on parent
        int[] childStart = new int[size + 1];
        for (int i = 1; i < size; i++) {
            childStart[parent[i] + 1]++;
        }
        for (int i = 0; i < size; i++) {
            childStart[i + 1] += childStart[i];
        }
        int[] children = new int[Math.max(0, size - 1)];
        int[] fill = Arrays.copyOf(childStart, size);
        for (int i = 1; i < size; i++) {
            children[fill[parent[i]]++] = i;
        }
        int[] order = new int[size];
        int[] outParent = new int[size];
        int[] count = new int[size];
        int n = 0;
        int[] stack = new int[size];
        int[] stackOut = new int[size];
        int sp = 0;
        stack[sp] = 0;
        stackOut[sp++] = -1;
        int[] rank = ranks != null ? ranks : nameRanks(names);
        long[] tmp = new long[16];
        while (sp > 0) {
            int node = stack[--sp];
            int outP = stackOut[sp];
            int out = n++;
            order[out] = node;
            outParent[out] = outP;
            int from = childStart[node];
            int to = childStart[node + 1];
            int k = 0;
            if (tmp.length < to - from) {
                tmp = new long[to - from];
            }
            for (int c = from; c < to; c++) {
                int child = children[c];
                if (heavyEnough(child, minWeight)) {
                    tmp[k++] = ((long) rank[name[child]] << 32) | child; // sorts by name, then node id
                }
            }
            Arrays.sort(tmp, 0, k);
            for (int c = k - 1; c >= 0; c--) {
                stack[sp] = (int) tmp[c];
                stackOut[sp++] = out;
            }
        }
        // subtree sizes: walk backwards, each node adds its count to its parent
        for (int i = n - 1; i >= 0; i--) {
            count[i]++;
            if (outParent[i] >= 0) {
                count[outParent[i]] += count[i];
            }
        }
        return new Layout(Arrays.copyOf(order, n), Arrays.copyOf(outParent, n), Arrays.copyOf(count, n));
    }

    /** Position of each name in sorted order, so children sort by int instead of by string. */
    static int[] nameRanks(String[] names) {
        Integer[] order = new Integer[names.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> names[a].compareTo(names[b]));
        int[] rank = new int[names.length];
        for (int i = 0; i < order.length; i++) {
            rank[order[i]] = i;
        }
        return rank;
    }

    private boolean heavyEnough(int node, long minWeight) {
        for (long[] t : total) {
            if (t[node] >= minWeight) {
                return true;
            }
        }
        return false;
    }

    /** Output order, parent (output index) and subtree size per output node. */
    record Layout(int[] order, int[] parent, int[] count) {
    }

    int name(int node) {
        return name[node];
    }

    byte type(int node) {
        return type[node];
    }

    long total(int side, int node) {
        return total[side][node];
    }

    long self(int side, int node) {
        return self[side][node];
    }

    long samples(int side, int node) {
        return samples[side][node];
    }
}
