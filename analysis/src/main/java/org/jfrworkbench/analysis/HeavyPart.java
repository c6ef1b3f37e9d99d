package org.jfrworkbench.analysis;

import java.util.Arrays;

/**
 * The nodes of a tree's {@link InvertedTree} that an inverted graph may take, copied per query in the part's order:
 * those the selection reaches in a bucket ({@link GroupHeap#bucket}) at or above the graph's floor
 * ({@link InvertedTree.Weights#floor}), each with what it needs as an answer node, and per node the sums of its reached
 * children below the floor, which the graph leaves out without pushing them. A graph takes its nodes heaviest first, in
 * no order of the part: read from the part's own columns every answer node cost cache misses there (a compiler's
 * recording has a part of 1.5 million nodes where its graph takes a hundred thousand), and from this copy, made in one
 * walk in the part's order, they lie within a few megabytes.
 */
final class HeavyPart {
    private final InvertedTree inv;
    /**
     * Per node: its name, what gives its type ({@link InvertedTree#typeKey}), chain ({@link InvertedTree#chain}: a
     * call-tree node, or negative) and end.
     */
    private final int[] name;
    private final int[] type;
    private final int[] chain;
    private final int[] end;
    private final long[] total;
    private final int[] samples;
    /** Per node, its reached children below the floor: how many, their weight and samples. */
    private final int[] light;
    private final long[] lightTotal;
    private final long[] lightSamples;

    private HeavyPart(InvertedTree inv, int[] name, int[] type, int[] chain, int[] end, long[] total, int[] samples,
                      int[] light, long[] lightTotal, long[] lightSamples) {
        this.inv = inv;
        this.name = name;
        this.type = type;
        this.chain = chain;
        this.end = end;
        this.total = total;
        this.samples = samples;
        this.light = light;
        this.lightTotal = lightTotal;
        this.lightSamples = lightSamples;
    }

    /** The part's root (always copied, at 0) and its reached nodes at or above the floor. */
    static HeavyPart of(InvertedTree inv, InvertedTree.Weights w, int floor) {
        int size = 1 + w.reachedFrom(floor);
        // lengths that recur from query to query, so that the pool has them; every element below size is written
        // before it is read, but the light sums, which are added to
        size = Math.max(64, Integer.highestOneBit(size - 1) << 1);
        int[] name = QueryArrays.extend(new int[0], size);
        int[] type = QueryArrays.extend(new int[0], size);
        int[] chain = QueryArrays.extend(new int[0], size);
        int[] end = QueryArrays.extend(new int[0], size);
        long[] total = QueryArrays.extend(new long[0], size);
        int[] samples = QueryArrays.extend(new int[0], size);
        int[] light = QueryArrays.ints(size);
        long[] lightTotal = QueryArrays.longs(size);
        long[] lightSamples = QueryArrays.longs(size);
        // the copied nodes whose subtree is still open: a node's parent is copied too (no lighter than its child)
        int[] openAt = new int[64];
        int[] openEnd = new int[64];
        int depth = 0;
        name[0] = -1;
        type[0] = 0;
        chain[0] = -1;
        total[0] = w.total(0);
        samples[0] = w.samples(0);
        openAt[depth] = 0;
        openEnd[depth++] = inv.end(0);
        int k = 1;
        for (int i = 1, n = inv.end(0); i < n; ) {
            while (openEnd[depth - 1] <= i) {
                end[openAt[--depth]] = k;
            }
            int s = w.samples(i);
            if (s == 0) {
                i = inv.end(i);
                continue;
            }
            long t = w.total(i);
            int p = openAt[depth - 1];
            if (GroupHeap.bucket(t, s) < floor) {
                light[p]++;
                lightTotal[p] += t;
                lightSamples[p] += s;
                i = inv.end(i);
                continue;
            }
            name[k] = inv.name(i);
            // resolved where the node is taken: most copied nodes never are, and a run's lookup is a cache miss
            type[k] = inv.typeKey(i, w);
            chain[k] = inv.chain(i);
            total[k] = t;
            samples[k] = s;
            if (depth == openAt.length) {
                openAt = Arrays.copyOf(openAt, depth * 2);
                openEnd = Arrays.copyOf(openEnd, depth * 2);
            }
            openAt[depth] = k++;
            openEnd[depth++] = inv.end(i);
            i++;
        }
        while (depth > 0) {
            end[openAt[--depth]] = k;
        }
        return new HeavyPart(inv, name, type, chain, end, total, samples, light, lightTotal, lightSamples);
    }

    int name(int node) {
        return name[node];
    }

    String typeName(int node) {
        return CallTree.TYPE_NAMES[inv.typeCode(chain[node], type[node])];
    }

    int chain(int node) {
        return chain[node];
    }

    int end(int node) {
        return end[node];
    }

    long total(int node) {
        return total[node];
    }

    int samples(int node) {
        return samples[node];
    }

    int light(int node) {
        return light[node];
    }

    long lightTotal(int node) {
        return lightTotal[node];
    }

    long lightSamples(int node) {
        return lightSamples[node];
    }

    /** Gives the columns back to {@link QueryArrays}: nothing reads this copy afterwards. */
    void release() {
        QueryArrays.give(name);
        QueryArrays.give(type);
        QueryArrays.give(chain);
        QueryArrays.give(end);
        QueryArrays.give(total);
        QueryArrays.give(samples);
        QueryArrays.give(light);
        QueryArrays.give(lightTotal);
        QueryArrays.give(lightSamples);
    }
}
