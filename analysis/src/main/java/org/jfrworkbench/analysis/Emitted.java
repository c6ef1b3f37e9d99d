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
        FlameLayout.Names names = new FlameLayout.Names(dict, withAll, withOthers);
        int[] nameCol = new int[withOthers];
        int[] parentCol = new int[withOthers];
        long[] totalCol = new long[withOthers];
        long[] selfCol = new long[withOthers];
        String[] typeCol = new String[withOthers];
        int[] count = new int[withOthers];
        long[] samplesCol = new long[withOthers];
        int[] hits = new int[16];
        int hitCount = 0;
        int[] stack = QueryArrays.extend(new int[0], Math.max(1, withOthers));
        int[] stackParent = QueryArrays.extend(new int[0], stack.length);
        // where each node goes: the walk reads only what orders the answer (children, names in the order they are
        // met), and the weights follow in the order the nodes were chosen, not in the walk's jumps between them
        int[] at = QueryArrays.extend(new int[0], Math.max(1, size));
        int sp = 0;
        stack[sp] = 0;
        stackParent[sp++] = -1;
        int k = 0;
        int other = -1;
        while (sp > 0) {
            int e = stack[--sp];
            int to = k++;
            parentCol[to] = stackParent[sp];
            if (e < 0) {
                int of = -e - 1;
                other = other < 0 ? names.literal(BoundedTree.OTHER) : other;
                nameCol[to] = other;
                totalCol[to] = FlameLayout.scaled(leftOut[of], scale);
                selfCol[to] = totalCol[to];
                typeCol[to] = "";
                samplesCol[to] = leftOutSamples[of];
                continue;
            }
            at[e] = to;
            int nm = name[e];
            nameCol[to] = names.id(nm);
            if (matches != null && nm >= 0 && matches[nm]) {
                if (hitCount == hits.length) {
                    hits = Arrays.copyOf(hits, hitCount * 2);
                }
                hits[hitCount++] = to;
            }
            for (int c = fill[e] - 1; c >= start[e]; c--) {
                long key = children[c];
                stack[sp] = (key & 0x80000000L) != 0 ? -((int) (key & 0x7fffffffL)) - 1 : (int) key;
                stackParent[sp++] = to;
            }
        }
        for (int e = 0; e < size; e++) {
            int to = at[e];
            totalCol[to] = FlameLayout.scaled(total[e], scale);
            selfCol[to] = FlameLayout.scaled(self[e], scale);
            typeCol[to] = type[e];
            samplesCol[to] = samples[e];
        }
        QueryArrays.give(at);
        QueryArrays.give(start);
        QueryArrays.give(fill);
        QueryArrays.give(children);
        QueryArrays.give(stack);
        QueryArrays.give(stackParent);
        for (int i = withOthers - 1; i >= 0; i--) {
            count[i]++;
            if (parentCol[i] >= 0) {
                count[parentCol[i]] += count[i];
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
