package org.jfrworkbench.analysis;

/**
 * The part of a weighed tree that a diff's side can keep, gathered in pre-order into one small array: the selected
 * nodes whose sample count is at least a floor (the root always), which are a tree themselves since counts only
 * shrink down the tree, and the selected children of those nodes, whose own children are left out. The cut's
 * threshold is never below the floor, so its answer's size and the merged tree read this array, a node's figures
 * in one place and its children a few entries apart, instead of chasing the tree's columns from a node to its
 * children by subtree ends (a cache miss or more per child). A left-out node's children, which the merge still
 * needs where the other side keeps that path, are read from the tree.
 */
final class KeptNodes {
    private static final int NAME = 0;
    private static final int SAMPLES = 1;
    private static final int SELF_SAMPLES = 2;
    /** The entry after this entry's gathered subtree. */
    private static final int END = 3;
    private static final int PARENT = 4;
    /** The call-tree node the entry stands for. */
    private static final int NODE = 5;
    private static final int STRIDE = 6;

    /** From {@link QueryArrays}; null once released. */
    private int[] at;
    private int size;
    private final int floor;

    KeptNodes(int floor) {
        this.floor = floor;
        at = QueryArrays.intsToWrite(1 << 16);
    }

    /** The sample count from which a node's children are gathered too. */
    int floor() {
        return floor;
    }

    /** Appends a node in pre-order; parent: its parent's entry (-1 for the root). */
    int add(int node, int name, int samples, int selfSamples, int parent) {
        int k = size++;
        int o = k * STRIDE;
        if (o + STRIDE > at.length) {
            at = QueryArrays.extend(at, at.length * 2);
        }
        at[o + NAME] = name;
        at[o + SAMPLES] = samples;
        at[o + SELF_SAMPLES] = selfSamples;
        at[o + END] = k + 1;
        at[o + PARENT] = parent;
        at[o + NODE] = node;
        return k;
    }

    /** Once every node is added: each entry's end covers its gathered subtree. */
    void finish() {
        for (int k = size - 1; k > 0; k--) {
            int p = at[k * STRIDE + PARENT] * STRIDE + END;
            int end = at[k * STRIDE + END];
            if (end > at[p]) {
                at[p] = end;
            }
        }
    }

    int size() {
        return size;
    }

    int name(int k) {
        return at[k * STRIDE + NAME];
    }

    int samples(int k) {
        return at[k * STRIDE + SAMPLES];
    }

    int selfSamples(int k) {
        return at[k * STRIDE + SELF_SAMPLES];
    }

    int end(int k) {
        return at[k * STRIDE + END];
    }

    int parent(int k) {
        return at[k * STRIDE + PARENT];
    }

    int node(int k) {
        return at[k * STRIDE + NODE];
    }

    /** Whether the entry's selected children follow it here (else they are only in the tree). */
    boolean gathered(int k) {
        return k == 0 || at[k * STRIDE + SAMPLES] >= floor;
    }

    /** Once the diff is answered: the array goes back to {@link QueryArrays}. */
    void release() {
        QueryArrays.give(at);
        at = null;
    }
}
