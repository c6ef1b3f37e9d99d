package org.jfrworkbench.analysis;

import java.util.Arrays;

/**
 * The depth-first stack of a {@link DiffTree} merge: pairs of member groups (one per side) waiting to become merged
 * nodes, and "[other]" entries that collect the weight of the children a node leaves out.
 */
final class DiffStack {
    int[] aFrom = new int[64];
    int[] aLength = new int[64];
    int[] bFrom = new int[64];
    int[] bLength = new int[64];
    int[] parent = new int[64];
    boolean[] other = new boolean[64];
    long[] baseLeft = new long[64];
    long[] targetLeft = new long[64];
    int[] baseLeftSamples = new int[64];
    int[] targetLeftSamples = new int[64];
    int size;

    void push(int aStart, int aCount, int bStart, int bCount, int parentIndex) {
        if (size == aFrom.length) {
            int cap = size * 2;
            aFrom = Arrays.copyOf(aFrom, cap);
            aLength = Arrays.copyOf(aLength, cap);
            bFrom = Arrays.copyOf(bFrom, cap);
            bLength = Arrays.copyOf(bLength, cap);
            parent = Arrays.copyOf(parent, cap);
            other = Arrays.copyOf(other, cap);
            baseLeft = Arrays.copyOf(baseLeft, cap);
            targetLeft = Arrays.copyOf(targetLeft, cap);
            baseLeftSamples = Arrays.copyOf(baseLeftSamples, cap);
            targetLeftSamples = Arrays.copyOf(targetLeftSamples, cap);
        }
        aFrom[size] = aStart;
        aLength[size] = aCount;
        bFrom[size] = bStart;
        bLength[size] = bCount;
        parent[size] = parentIndex;
        other[size] = false;
        baseLeft[size] = 0;
        targetLeft[size] = 0;
        baseLeftSamples[size] = 0;
        targetLeftSamples[size++] = 0;
    }

    void pushOther(int parentIndex) {
        push(0, 0, 0, 0, parentIndex);
        other[size - 1] = true;
    }

    /** Adds a left-out pair of groups to the "[other]" entry at. */
    void leaveOut(int at, DiffTree tree, int aStart, int aCount, int bStart, int bCount) {
        baseLeft[at] += tree.weight(true, aStart, aCount);
        baseLeftSamples[at] += tree.samples(true, aStart, aCount);
        targetLeft[at] += tree.weight(false, bStart, bCount);
        targetLeftSamples[at] += tree.samples(false, bStart, bCount);
    }

    boolean hasLeftOut(int at) {
        return baseLeftSamples[at] + targetLeftSamples[at] > 0;
    }

    /** Removes entry at (an "[other]" without weight); the entries above it move down. */
    void remove(int at) {
        for (int i = at; i < size - 1; i++) {
            aFrom[i] = aFrom[i + 1];
            aLength[i] = aLength[i + 1];
            bFrom[i] = bFrom[i + 1];
            bLength[i] = bLength[i + 1];
            parent[i] = parent[i + 1];
            other[i] = other[i + 1];
        }
        size--;
    }

    /** Reverses the plain entries [from, to) (siblings: same parent, no left-out weight). */
    void reverse(int from, int to) {
        for (int i = from, j = to - 1; i < j; i++, j--) {
            swap(aFrom, i, j);
            swap(aLength, i, j);
            swap(bFrom, i, j);
            swap(bLength, i, j);
        }
    }

    private static void swap(int[] x, int i, int j) {
        int t = x[i];
        x[i] = x[j];
        x[j] = t;
    }
}
