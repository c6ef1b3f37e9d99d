package org.jfrworkbench.model;

import java.util.Arrays;

/**
 * The samples of one {@link Kind}: parallel columns of time (epoch nanoseconds), thread id ({@link ThreadTable}),
 * stack id ({@link StackTable}, -1 when the event had none), weight (in the kind's unit) and, for alloc/live/nativemem,
 * the allocated class as a {@link StringTable} id (0 when none).
 * For {@code live} samples the time is the allocation time.
 * Columns are stored in fixed-size pages so that millions of samples never need one huge array or a growth copy.
 * The weight and class columns are only allocated once a value differs from the first sample's: cpu and wall
 * samples (weight 1, no class) then take 16 bytes each instead of 28.
 */
public final class SampleTable {
    private static final int PAGE_BITS = 14;
    private static final int PAGE = 1 << PAGE_BITS;
    private static final int MASK = PAGE - 1;

    private final Kind kind;
    private long[][] times = new long[0][];
    private int[][] threads = new int[0][];
    private int[][] stacks = new int[0][];
    /** null while every weight equals {@link #uniformWeight} */
    private long[][] weights;
    private long uniformWeight;
    /** null while every class equals {@link #uniformClass} */
    private int[][] classes;
    private int uniformClass;
    private int size;
    private long totalWeight;
    /** The columns' last pages and the slots left in them: add writes there without finding the page. */
    private long[] lastTimes;
    private int[] lastThreads;
    private int[] lastStacks;
    private long[] lastWeights;
    private int[] lastClasses;
    private int free;

    public SampleTable(Kind kind) {
        this.kind = kind;
    }

    public void add(long timeNanos, int thread, int stack, long weight, int objectClass) {
        int at = free;
        if (at == 0) {
            at = nextSlot();
            if (size == 0) {
                uniformWeight = weight;
                uniformClass = objectClass;
            }
        }
        long[] t = lastTimes;
        int k = t.length - at;
        t[k] = timeNanos;
        lastThreads[k] = thread;
        lastStacks[k] = stack;
        if (lastWeights != null) {
            lastWeights[k] = weight;
        } else if (weight != uniformWeight) {
            splitWeights(weight);
        }
        if (lastClasses != null) {
            lastClasses[k] = objectClass;
        } else if (objectClass != uniformClass) {
            splitClasses(objectClass);
        }
        free = at - 1;
        size++;
        totalWeight += weight;
    }

    /** Room for the next sample: a new page or a larger first page; the free slots of the last page. */
    private int nextSlot() {
        int page = size >>> PAGE_BITS;
        if (page == times.length) {
            addPage();
        } else {
            growFirstPage();
        }
        page = times.length - 1;
        lastTimes = times[page];
        lastThreads = threads[page];
        lastStacks = stacks[page];
        lastWeights = weights != null ? weights[page] : null;
        lastClasses = classes != null ? classes[page] : null;
        free = lastTimes.length - (size & MASK);
        return free;
    }

    private void splitWeights(long weight) {
        weights = uniformLongs(uniformWeight);
        lastWeights = weights[weights.length - 1];
        lastWeights[size & MASK] = weight;
    }

    private void splitClasses(int objectClass) {
        classes = uniformInts(uniformClass);
        lastClasses = classes[classes.length - 1];
        lastClasses[size & MASK] = objectClass;
    }

    /** A column shaped like the time pages, every entry the given value (out of add, so add stays inlinable). */
    private long[][] uniformLongs(long value) {
        long[][] column = new long[times.length][];
        for (int p = 0; p < times.length; p++) {
            column[p] = new long[times[p].length];
            Arrays.fill(column[p], value);
        }
        return column;
    }

    private int[][] uniformInts(int value) {
        int[][] column = new int[times.length][];
        for (int p = 0; p < times.length; p++) {
            column[p] = new int[times[p].length];
            Arrays.fill(column[p], value);
        }
        return column;
    }

    private void addPage() {
        int n = times.length + 1;
        times = Arrays.copyOf(times, n);
        threads = Arrays.copyOf(threads, n);
        stacks = Arrays.copyOf(stacks, n);
        int last = n - 1;
        // the first page starts small: most kinds of most recordings have few samples
        int length = last == 0 ? 256 : PAGE;
        times[last] = new long[length];
        threads[last] = new int[length];
        stacks[last] = new int[length];
        if (weights != null) {
            weights = Arrays.copyOf(weights, n);
            weights[last] = new long[length];
        }
        if (classes != null) {
            classes = Arrays.copyOf(classes, n);
            classes[last] = new int[length];
        }
    }

    private void growFirstPage() {
        int length = Math.min(PAGE, times[0].length * 4);
        times[0] = Arrays.copyOf(times[0], length);
        threads[0] = Arrays.copyOf(threads[0], length);
        stacks[0] = Arrays.copyOf(stacks[0], length);
        if (weights != null) {
            weights[0] = Arrays.copyOf(weights[0], length);
        }
        if (classes != null) {
            classes[0] = Arrays.copyOf(classes[0], length);
        }
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
        return times[i >>> PAGE_BITS][i & MASK];
    }

    public int thread(int i) {
        return threads[i >>> PAGE_BITS][i & MASK];
    }

    public int stack(int i) {
        return stacks[i >>> PAGE_BITS][i & MASK];
    }

    public long weight(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("sample " + i + " of " + size);
        }
        return weights == null ? uniformWeight : weights[i >>> PAGE_BITS][i & MASK];
    }

    public int objectClass(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("sample " + i + " of " + size);
        }
        return classes == null ? uniformClass : classes[i >>> PAGE_BITS][i & MASK];
    }

    /** Approximate heap bytes, from the allocated pages. */
    public long footprint() {
        long bytes = 64;
        for (int p = 0; p < times.length; p++) {
            long slots = times[p].length;
            bytes += 16 * 3 + slots * (8 + 4 + 4) + (weights != null ? 16 + slots * 8 : 0) + (classes != null ? 16 + slots * 4 : 0);
        }
        return bytes;
    }
}
