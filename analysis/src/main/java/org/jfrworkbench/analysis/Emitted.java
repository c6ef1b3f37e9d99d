package org.jfrworkbench.analysis;

import java.util.Arrays;

/**
 * The answer nodes of a {@link BoundedTree} in the order they were chosen (heaviest first), with what each left
 * out; {@link #graph} lays them out in pre-order with children by name, a "[other]" child last where weight was
 * left out.
 */
final class Emitted {
    private int[] name = new int[256];
    private int[] parent = new int[256];
    private long[] total = new long[256];
    private long[] self = new long[256];
    private long[] samples = new long[256];
    private String[] type = new String[256];
    private int[] pendingChildren = new int[256];
    private long[] leftOut = new long[256];
    private long[] leftOutSamples = new long[256];
    private int size;
    /** Nodes with children not (yet) in the answer: each will have a "[other]" child if they stay out. */
    private int others;
    private final FrameNames dict;
    /** A row's name while {@link #graph} places the rows: a "[other]" row (dictionary ids are -1, the root, and up). */
    private static final int OTHER_ROW = Integer.MIN_VALUE;

    Emitted(FrameNames dict) {
        this.dict = dict;
    }

    /** A node named by a dictionary id (-1: the root "all"), under parentIndex (-1 for the root). */
    int add(int nameId, int parentIndex, long totalWeight, long selfWeight, long sampleCount, String typeName) {
        if (size == name.length) {
            reserve(size * 2);
        }
        name[size] = nameId;
        parent[size] = parentIndex;
        total[size] = totalWeight;
        self[size] = selfWeight;
        samples[size] = sampleCount;
        type[size] = typeName;
        return size++;
    }

    /** Room for cap nodes, made at once where the caller can tell. */
    void reserve(int cap) {
        if (cap > name.length) {
            // written by add before any read; the counts below are added to, so they start at zero
            name = QueryArrays.extend(name, cap);
            parent = QueryArrays.extend(parent, cap);
            total = QueryArrays.extend(total, cap);
            self = QueryArrays.extend(self, cap);
            samples = QueryArrays.extend(samples, cap);
            type = Arrays.copyOf(type, cap);
            pendingChildren = QueryArrays.grow(pendingChildren, cap);
            leftOut = QueryArrays.grow(leftOut, cap);
            leftOutSamples = QueryArrays.grow(leftOutSamples, cap);
        }
    }

    private void release() {
        QueryArrays.give(name);
        QueryArrays.give(parent);
        QueryArrays.give(total);
        QueryArrays.give(self);
        QueryArrays.give(samples);
        QueryArrays.give(pendingChildren);
        QueryArrays.give(leftOut);
        QueryArrays.give(leftOutSamples);
        name = parent = pendingChildren = null;
        total = self = samples = leftOut = leftOutSamples = null;
    }

    void setSelf(int node, long selfWeight) {
        self[node] = selfWeight;
    }

    void childPending(int p) {
        if (pendingChildren[p]++ == 0) {
            others++;
        }
    }

    void childDone(int p) {
        if (--pendingChildren[p] == 0) {
            others--;
        }
    }

    void leftOut(int p, long weight, long sampleCount) {
        leftOut[p] += weight;
        leftOutSamples[p] += sampleCount;
    }

    int size() {
        return size;
    }

    int others() {
        return others;
    }

    /**
     * The flame graph: withAll names the root "all" (else the root is a method); matches (per dictionary name, or
     * null) marks the search's hit nodes. Made once: the emitted nodes' arrays go back to {@link QueryArrays}.
     */
    FlameGraph graph(Selection selection, boolean withAll, boolean[] matches, FlameGraph.Search search, double scale) {
        int withOthers = size;
        for (int i = 0; i < size; i++) {
            if (leftOutSamples[i] > 0) {
                withOthers++;
            }
        }
        // children lists by a counting sort on the parent; each sorted by name (ids are ranks), "[other]" last
        // the scratch arrays below from the pool: they are the answer's size, a megabyte and more for a large one
        int[] start = QueryArrays.ints(size + 1);
        for (int i = 1; i < size; i++) {
            start[parent[i] + 1]++;
        }
        for (int i = 0; i < size; i++) {
            if (leftOutSamples[i] > 0) {
                start[i + 1]++;
            }
        }
        for (int i = 0; i < size; i++) {
            start[i + 1] += start[i];
        }
        long[] children = QueryArrays.extend(new long[0], withOthers);
        int[] fill = QueryArrays.copyOf(start);
        for (int i = 1; i < size; i++) {
            children[fill[parent[i]]++] = (long) name[i] << 32 | i;
        }
        for (int i = 0; i < size; i++) {
            if (leftOutSamples[i] > 0) {
                // a "[other]" child is -(i + 1): after every rank
                children[fill[i]++] = (long) Integer.MAX_VALUE << 32 | (0x80000000L | i);
            }
            if (fill[i] - start[i] > 1) {
                Arrays.sort(children, start[i], fill[i]);
            }
        }
        // each node's rows (itself, its descendants, the "[other]" rows among them), summed from the last node back:
        // a node comes after its parent. Then each node's row is known before its children's, so one pass in the
        // order the nodes were chosen places every row, reading the nodes and their children lists in order, where a
        // walk in pre-order read each node's lines at random (javac, a profile: a fifth of an inverted graph, now an
        // eighth); side by side per node, its rows and then its row, so that placing a child is one line
        int[] rows = QueryArrays.ints(2 * size);
        for (int e = size - 1; e >= 0; e--) {
            int r = rows[2 * e] += leftOutSamples[e] > 0 ? 2 : 1;
            if (e > 0) {
                rows[2 * parent[e]] += r;
            }
        }
        int[] nameCol = new int[withOthers];
        int[] parentCol = new int[withOthers];
        long[] totalCol = new long[withOthers];
        long[] selfCol = new long[withOthers];
        String[] typeCol = new String[withOthers];
        int[] count = new int[withOthers];
        long[] samplesCol = new long[withOthers];
        if (size > 0) {
            parentCol[0] = -1;
        }
        for (int e = 0; e < size; e++) {
            int to = rows[2 * e + 1];
            // the dictionary's id for now: the answer's ids go by first use in pre-order, given in the pass below
            nameCol[to] = name[e];
            totalCol[to] = FlameLayout.scaled(total[e], scale);
            selfCol[to] = FlameLayout.scaled(self[e], scale);
            typeCol[to] = type[e];
            samplesCol[to] = samples[e];
            count[to] = rows[2 * e];
            int next = to + 1;
            for (int c = start[e], end = fill[e]; c < end; c++) {
                long key = children[c];
                parentCol[next] = to;
                if ((key & 0x80000000L) != 0) {
                    nameCol[next] = OTHER_ROW;
                    totalCol[next] = FlameLayout.scaled(leftOut[e], scale);
                    selfCol[next] = totalCol[next];
                    typeCol[next] = "";
                    samplesCol[next] = leftOutSamples[e];
                    count[next++] = 1;
                } else {
                    int child = (int) key;
                    rows[2 * child + 1] = next;
                    next += rows[2 * child];
                }
            }
        }
        QueryArrays.give(rows);
        QueryArrays.give(start);
        QueryArrays.give(fill);
        QueryArrays.give(children);
        FlameLayout.Names names = new FlameLayout.Names(dict, withAll, withOthers);
        int[] hits = new int[16];
        int hitCount = 0;
        int other = -1;
        for (int to = 0; to < withOthers; to++) {
            int nm = nameCol[to];
            if (nm == OTHER_ROW) {
                other = other < 0 ? names.literal(BoundedTree.OTHER) : other;
                nameCol[to] = other;
                continue;
            }
            nameCol[to] = names.id(nm);
            if (matches != null && nm >= 0 && matches[nm]) {
                if (hitCount == hits.length) {
                    hits = Arrays.copyOf(hits, hitCount * 2);
                }
                hits[hitCount++] = to;
            }
        }
        FlameGraph.Search found = search == null ? null : new FlameGraph.Search(search.pattern(), search.matchCase(),
                search.literal(), search.matched(), search.share(), Arrays.copyOf(hits, hitCount));
        release();
        return new FlameGraph(selection.kind().id(), selection.unit(), totalCol.length == 0 ? 0 : totalCol[0],
                samplesCol.length == 0 ? 0 : samplesCol[0], names.done(),
                new FlameGraph.Nodes(nameCol, parentCol, totalCol, selfCol, typeCol, count, samplesCol), found);
    }
}
