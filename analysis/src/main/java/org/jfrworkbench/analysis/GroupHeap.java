package org.jfrworkbench.analysis;

import java.util.Arrays;

/**
 * The groups waiting to become answer nodes in a {@link BoundedTree}, heaviest first to within a factor of two: a
 * bucket per power of two of the total weight, first in first out within a bucket (so an answer is the same every
 * time). Constant time per group where a binary heap's log n cache misses made it the largest cost of an inverted
 * graph. A group is its parent's answer index, its range of members, its total weight and samples.
 */
final class GroupHeap {
    private static final int BUCKETS = 65;
    private int[] parent = new int[256];
    private int[] from = new int[256];
    private int[] length = new int[256];
    private long[] total = new long[256];
    private long[] samples = new long[256];
    /** Per group, the next group of its bucket (-1: none); per bucket its first and last group. */
    private int[] next = new int[256];
    private final int[] head = new int[BUCKETS];
    private final int[] tail = new int[BUCKETS];
    private int groups;
    private int size;
    private int top = -1;

    GroupHeap() {
        Arrays.fill(head, -1);
        Arrays.fill(tail, -1);
    }

    void push(int parentIndex, int memberFrom, int memberLength, long totalWeight, long sampleCount) {
        if (groups == parent.length) {
            reserve(groups * 2);
        }
        int g = groups++;
        parent[g] = parentIndex;
        from[g] = memberFrom;
        length[g] = memberLength;
        total[g] = totalWeight;
        samples[g] = sampleCount;
        next[g] = -1;
        int b = bucket(totalWeight, sampleCount);
        if (tail[b] < 0) {
            head[b] = g;
        } else {
            next[tail[b]] = g;
        }
        tail[b] = g;
        top = Math.max(top, b);
        size++;
    }

    /** The bucket of a group: weightless groups (a zero-weight kind) still order by their sample counts. */
    static int bucket(long totalWeight, long sampleCount) {
        return 64 - Long.numberOfLeadingZeros(Math.max(0, totalWeight > 0 ? totalWeight : sampleCount));
    }

    /** Room for cap groups in all, made at once where the caller can tell (copies of growing arrays add up). */
    void reserve(int cap) {
        if (cap > parent.length) {
            // a group's fields are all written when it is pushed
            parent = QueryArrays.extend(parent, cap);
            from = QueryArrays.extend(from, cap);
            length = QueryArrays.extend(length, cap);
            total = QueryArrays.extend(total, cap);
            samples = QueryArrays.extend(samples, cap);
            next = QueryArrays.extend(next, cap);
        }
    }

    /** Gives the arrays back to {@link QueryArrays} once the answer is made: nothing reads this heap afterwards. */
    void release() {
        QueryArrays.give(parent);
        QueryArrays.give(from);
        QueryArrays.give(length);
        QueryArrays.give(total);
        QueryArrays.give(samples);
        QueryArrays.give(next);
        parent = from = length = next = null;
        total = samples = null;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Removes and returns a heaviest group (to within a factor of two), the first made among its bucket. */
    int pop() {
        while (head[top] < 0) {
            top--;
        }
        int g = head[top];
        head[top] = next[g];
        if (head[top] < 0) {
            tail[top] = -1;
        }
        size--;
        return g;
    }

    /** The group {@link #pop} would return now, -1 if none; removes nothing. */
    int peek() {
        if (size == 0) {
            return -1;
        }
        while (head[top] < 0) {
            top--;
        }
        return head[top];
    }

    /** The group after g in g's bucket, -1 if g is its bucket's last. */
    int after(int g) {
        return next[g];
    }

    int parent(int g) {
        return parent[g];
    }

    int from(int g) {
        return from[g];
    }

    int length(int g) {
        return length[g];
    }

    long total(int g) {
        return total[g];
    }

    long samples(int g) {
        return samples[g];
    }
}
