package org.jfrworkbench.analysis;

/**
 * The reached nodes of one call-tree node's subtree that a bounded answer of its callees can hold, copied in
 * pre-order into one record per node, for {@link BoundedTree} to expand heaviest first: there the subtree's nodes
 * are met breadth first, each a cache miss or more in every column of the tree and its weights (name, end, type,
 * weights), where a record is one or two lines. Nodes only get lighter down the tree, so where the nodes of the
 * heaviest buckets ({@link GroupHeap#bucket}) down to some bucket, the <em>floor</em>, are as many as the answer's
 * budget, no node below the floor can be in the answer: those are not copied, only their weight and samples, kept
 * on their parent's record (they go to its "[other]", as they would once the answer stopped).
 */
final class SubtreeCopy {
    /**
     * Longs per node: end and name, type and samples, total, self, what its children below the floor weigh and their
     * samples, and while it waits to be expanded its parent's answer index and the next node of its bucket.
     */
    private static final int STRIDE = 7;
    private final long[] rec;
    private final int size;
    /** The queue of copied nodes waiting, a bucket per power of two of the weight, first in first out in each. */
    private final int[] head = new int[65];
    private final int[] tail = new int[65];
    private int top = -1;
    private int waiting;

    private SubtreeCopy(long[] rec, int size) {
        this.rec = rec;
        this.size = size;
        java.util.Arrays.fill(head, -1);
        java.util.Arrays.fill(tail, -1);
    }

    /**
     * The copy of the subtree of root (reached by the selection) for an answer of at most maxNodes nodes, or null
     * where there is no floor (weightless nodes among weighed ones: a child may rank above its parent) or the nodes
     * at or above it are more than maxCopy.
     */
    static SubtreeCopy of(TreeWeights w, int root, int maxNodes, int maxCopy) {
        CallTree tree = w.tree();
        int end = tree.end(root);
        int[] perBucket = new int[65];
        boolean weighed = w.total(root) > 0;
        for (int i = root; i < end; ) {
            int count = w.totalSamples(i);
            if (count == 0) {
                i = tree.end(i);
                continue;
            }
            long total = w.total(i);
            if (weighed && total == 0) {
                return null;
            }
            perBucket[GroupHeap.bucket(total, count)]++;
            i++;
        }
        int floor = 64;
        int kept = perBucket[64];
        while (floor > 0 && kept < maxNodes) {
            kept += perBucket[--floor];
        }
        if (kept > maxCopy) {
            return null;
        }
        // a power of two of records, so that copies of about the same size take the same array from the pool
        long[] rec = QueryArrays.longsToWrite(STRIDE * Integer.highestOneBit(Math.max(1, kept - 1) << 1));
        return new SubtreeCopy(rec, copy(w, root, floor, rec));
    }

    /** Copies the nodes at or above the floor in pre-order; returns how many. */
    private static int copy(TreeWeights w, int root, int floor, long[] rec) {
        CallTree tree = w.tree();
        int end = tree.end(root);
        // the open copied nodes and where their subtrees end in the tree
        int[] open = new int[64];
        int[] openEnd = new int[64];
        int depth = 0;
        int k = 0;
        for (int i = root; i < end; ) {
            int count = w.totalSamples(i);
            if (count == 0) {
                i = tree.end(i);
                continue;
            }
            while (depth > 0 && openEnd[depth - 1] <= i) {
                close(rec, open[--depth], k);
            }
            long total = w.total(i);
            if (GroupHeap.bucket(total, count) < floor) {
                int p = STRIDE * open[depth - 1];
                rec[p + 4] += total;
                rec[p + 5] += count;
                i = tree.end(i);
                continue;
            }
            int r = STRIDE * k;
            rec[r] = tree.name(i) & 0xFFFFFFFFL;
            rec[r + 1] = (long) tree.type(i) << 32 | count;
            rec[r + 2] = total;
            rec[r + 3] = w.self(i);
            rec[r + 4] = 0;
            rec[r + 5] = 0;
            if (depth == open.length) {
                open = java.util.Arrays.copyOf(open, depth * 2);
                openEnd = java.util.Arrays.copyOf(openEnd, depth * 2);
            }
            open[depth] = k++;
            openEnd[depth++] = tree.end(i);
            i++;
        }
        while (depth > 0) {
            close(rec, open[--depth], k);
        }
        return k;
    }

    private static void close(long[] rec, int node, int end) {
        rec[STRIDE * node] |= (long) end << 32;
    }

    int size() {
        return size;
    }

    /** The copied node after node's copied subtree. */
    int end(int node) {
        return (int) (rec[STRIDE * node] >>> 32);
    }

    int name(int node) {
        return (int) rec[STRIDE * node];
    }

    String typeName(int node) {
        return CallTree.TYPE_NAMES[(int) (rec[STRIDE * node + 1] >>> 32)];
    }

    int samples(int node) {
        return (int) rec[STRIDE * node + 1];
    }

    long total(int node) {
        return rec[STRIDE * node + 2];
    }

    long self(int node) {
        return rec[STRIDE * node + 3];
    }

    /** The weight of the node's reached children below the floor, and their samples (0: none). */
    long leftOut(int node) {
        return rec[STRIDE * node + 4];
    }

    long leftOutSamples(int node) {
        return rec[STRIDE * node + 5];
    }

    /** Queues a node, whose answer parent is parentIndex, in its bucket ({@link GroupHeap#bucket}). */
    void push(int node, int parentIndex) {
        int b = GroupHeap.bucket(total(node), samples(node));
        rec[STRIDE * node + 6] = (long) parentIndex << 32 | 0xFFFFFFFFL;
        if (tail[b] < 0) {
            head[b] = node;
        } else {
            rec[STRIDE * tail[b] + 6] = rec[STRIDE * tail[b] + 6] & 0xFFFFFFFF00000000L | node;
        }
        tail[b] = node;
        top = Math.max(top, b);
        waiting++;
    }

    boolean isEmpty() {
        return waiting == 0;
    }

    /** Removes and returns a heaviest waiting node (to within a factor of two), the first queued of its bucket. */
    int pop() {
        while (head[top] < 0) {
            top--;
        }
        int node = head[top];
        head[top] = (int) rec[STRIDE * node + 6];
        if (head[top] < 0) {
            tail[top] = -1;
        }
        waiting--;
        return node;
    }

    /** The answer index of a queued node's parent. */
    int parent(int node) {
        return (int) (rec[STRIDE * node + 6] >> 32);
    }

    void release() {
        QueryArrays.give(rec);
    }
}
