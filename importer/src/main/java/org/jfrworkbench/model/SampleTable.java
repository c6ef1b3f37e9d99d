package org.jfrworkbench.model;

/**
 * The samples of one {@link Kind}: parallel columns of time (epoch nanoseconds), thread id ({@link ThreadTable}),
 * stack id ({@link StackTable}, -1 when the event had none), weight (in the kind's unit) and, for alloc/live/nativemem,
 * the allocated class as a {@link StringTable} id (0 when none).
 * For {@code live} samples the time is the allocation time.
 */
public final class SampleTable {
    private final Kind kind;
    private long[] times = new long[0];
    private int[] threads = new int[0];
    private int[] stacks = new int[0];
    private long[] weights = new long[0];
    private int[] classes = new int[0];
    private int size;
    private long totalWeight;

    public SampleTable(Kind kind) {
        this.kind = kind;
    }

    public void add(long timeNanos, int thread, int stack, long weight, int objectClass) {
        int i = size++;
        if (i == times.length) {
            times = IntArrays.grow(times, size);
            threads = IntArrays.grow(threads, size);
            stacks = IntArrays.grow(stacks, size);
            weights = IntArrays.grow(weights, size);
            classes = IntArrays.grow(classes, size);
        }
        times[i] = timeNanos;
        threads[i] = thread;
        stacks[i] = stack;
        weights[i] = weight;
        classes[i] = objectClass;
        totalWeight += weight;
    }

    public Kind kind() {
        return kind;
    }

    public int size() {
        return size;
    }

    public long totalWeight() {
        return totalWeight;
    }

    public long time(int i) {
        return times[i];
    }

    public int thread(int i) {
        return threads[i];
    }

    public int stack(int i) {
        return stacks[i];
    }

    public long weight(int i) {
        return weights[i];
    }

    public int objectClass(int i) {
        return classes[i];
    }
}
