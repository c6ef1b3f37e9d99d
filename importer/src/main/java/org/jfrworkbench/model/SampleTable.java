package org.jfrworkbench.model;

import java.util.Arrays;

/**
 * The samples of one {@link Kind}: parallel columns of time (epoch nanoseconds), thread id ({@link ThreadTable}),
 * stack id ({@link StackTable}, -1 when the event had none), weight (in the kind's unit) and, for alloc/live/nativemem,
 * the allocated class as a {@link StringTable} id (0 when none), the thread state as recorded and the source (which
 * sampler wrote the sample), both ids of the profile's small {@link Dictionary dictionaries} (0 when not recorded).
 * For {@code live} samples the time is the allocation time.
 * Columns are stored in fixed-size pages so that millions of samples never need one huge array or a growth copy.
 * Each column is kept as narrow as its values allow, since an import's time goes largely into allocating, zeroing and
 * (for the collector) copying these pages: a time is an int offset from its block of 256 samples' first time (a page
 * whose samples lie further apart is widened to longs), thread ids are chars while they fit, weights are absent while
 * all equal the first, then ints while they fit, then longs; classes, and states with sources (one char per sample),
 * are absent while all equal the first. Exact
 * values are kept throughout: an alloc sample takes 18 bytes instead of 28, a cpu sample 10 instead of 16.
 */
public final class SampleTable {
    private static final int PAGE_BITS = 14;
    private static final int PAGE = 1 << PAGE_BITS;
    private static final int MASK = PAGE - 1;
    private static final int BLOCK_BITS = 8;
    private static final int BLOCK_MASK = (1 << BLOCK_BITS) - 1;
    private static final int FIRST_PAGE = 1 << BLOCK_BITS;

    private final Kind kind;
    /** Per page: the first time of each block of 256 samples, and each sample's offset from it (null once widened). */
    private long[][] timeBases = new long[0][];
    private int[][] timeOffsets = new int[0][];
    /** Per page: null while the page's offsets fit in ints, else the page's times. */
    private long[][] wideTimes = new long[0][];
    /** Thread ids as chars; null once one did not fit, then {@link #threadsWide} holds them. */
    private char[][] threads = new char[0][];
    private int[][] threadsWide;
    private int[][] stacks = new int[0][];
    /** null while every weight equals {@link #uniformWeight}; then ints, or longs once one does not fit an int. */
    private int[][] weights;
    private long[][] weightsWide;
    private long uniformWeight;
    /** null while every class equals {@link #uniformClass} */
    private int[][] classes;
    private int uniformClass;
    /** Per sample source id << 8 | state id; null while every sample's equals {@link #uniformTag}. */
    private char[][] tags;
    private char uniformTag;
    private final Dictionary stateNames;
    private final Dictionary sourceNames;
    private int size;
    private long totalWeight;
    /** The columns' last pages and the slots left in them: add writes there without finding the page. */
    private long[] lastBases;
    private int[] lastOffsets;
    private long[] lastWideTimes;
    private char[] lastThreads;
    private int[] lastThreadsWide;
    private int[] lastStacks;
    private int[] lastWeights;
    private long[] lastWeightsWide;
    private int[] lastClasses;
    private char[] lastTags;
    private int free;
    private volatile int defaultSource = -1;
    private boolean sealed;

    /** A table of its own: state and source ids have no names (tests, tools). */
    public SampleTable(Kind kind) {
        this(kind, new Dictionary(), new Dictionary());
    }

    /** A table of a profile, whose state and source names are in the profile's dictionaries. */
    SampleTable(Kind kind, Dictionary stateNames, Dictionary sourceNames) {
        this.kind = kind;
        this.stateNames = stateNames;
        this.sourceNames = sourceNames;
    }

    public void add(long timeNanos, int thread, int stack, long weight, int objectClass) {
        add(timeNanos, thread, stack, weight, objectClass, 0, 0);
    }

    /** Adds a sample; state and source are ids of {@link #stateNames()} and {@link #sourceNames()} (below 256). */
    public void add(long timeNanos, int thread, int stack, long weight, int objectClass, int state, int source) {
        char tag = (char) (source << 8 | state & 0xFF);
        int at = free;
        if (at == 0) {
            at = nextSlot();
            if (size == 0) {
                uniformWeight = weight;
                uniformClass = objectClass;
                uniformTag = tag;
            }
        }
        int[] s = lastStacks;
        int k = s.length - at;
        s[k] = stack;
        putTime(k, timeNanos);
        if (lastThreads != null && thread == (char) thread) {
            lastThreads[k] = (char) thread;
        } else {
            putWideThread(k, thread);
        }
        if (lastWeights != null && weight == (int) weight) {
            lastWeights[k] = (int) weight;
        } else if (lastWeightsWide != null) {
            lastWeightsWide[k] = weight;
        } else if (weight != uniformWeight || lastWeights != null) {
            splitWeights(k, weight);
        }
        if (lastClasses != null) {
            lastClasses[k] = objectClass;
        } else if (objectClass != uniformClass) {
            splitClasses(k, objectClass);
        }
        if (lastTags != null) {
            lastTags[k] = tag;
        } else if (tag != uniformTag) {
            splitTags(k, tag);
        }
        free = at - 1;
        size++;
        totalWeight += weight;
    }

    private void putTime(int k, long t) {
        long[] wide = lastWideTimes;
        if (wide != null) {
            wide[k] = t;
            return;
        }
        int block = k >>> BLOCK_BITS;
        if ((k & BLOCK_MASK) == 0) {
            lastBases[block] = t;
        }
        long offset = t - lastBases[block];
        if (offset == (int) offset) {
            lastOffsets[k] = (int) offset;
        } else {
            widenTimes(k, t);
        }
    }

    /** A time too far from its block's first: this page keeps longs from now on. */
    private void widenTimes(int k, long t) {
        int page = wideTimes.length - 1;
        long[] wide = new long[lastOffsets.length];
        for (int i = 0; i < k; i++) {
            wide[i] = lastBases[i >>> BLOCK_BITS] + lastOffsets[i];
        }
        wide[k] = t;
        wideTimes[page] = wide;
        timeBases[page] = null;
        timeOffsets[page] = null;
        lastWideTimes = wide;
        lastBases = null;
        lastOffsets = null;
    }

    private void putWideThread(int k, int thread) {
        if (threadsWide == null) {
            threadsWide = new int[threads.length][];
            for (int p = 0; p < threads.length; p++) {
                char[] narrow = threads[p];
                int[] wide = new int[narrow.length];
                for (int i = 0; i < narrow.length; i++) {
                    wide[i] = narrow[i];
                }
                threadsWide[p] = wide;
            }
            threads = null;
            lastThreads = null;
            lastThreadsWide = threadsWide[threadsWide.length - 1];
        }
        lastThreadsWide[k] = thread;
    }

    /** The first weight unlike the others (an int column), or the first that does not fit an int (a long column). */
    private void splitWeights(int k, long weight) {
        if (weights == null && weight == (int) weight && uniformWeight == (int) uniformWeight) {
            weights = intColumn((int) uniformWeight);
            lastWeights = weights[weights.length - 1];
            lastWeights[k] = (int) weight;
            return;
        }
        weightsWide = new long[stacks.length][];
        for (int p = 0; p < stacks.length; p++) {
            long[] wide = new long[stacks[p].length];
            if (weights != null) {
                for (int i = 0; i < wide.length; i++) {
                    wide[i] = weights[p][i];
                }
            } else {
                Arrays.fill(wide, uniformWeight);
            }
            weightsWide[p] = wide;
        }
        weights = null;
        lastWeights = null;
        lastWeightsWide = weightsWide[weightsWide.length - 1];
        lastWeightsWide[k] = weight;
    }

    private void splitClasses(int k, int objectClass) {
        classes = intColumn(uniformClass);
        lastClasses = classes[classes.length - 1];
        lastClasses[k] = objectClass;
    }

    private void splitTags(int k, char tag) {
        tags = new char[stacks.length][];
        for (int p = 0; p < stacks.length; p++) {
            tags[p] = new char[stacks[p].length];
            Arrays.fill(tags[p], uniformTag);
        }
        lastTags = tags[tags.length - 1];
        lastTags[k] = tag;
    }

    /** A column shaped like the stack pages, every entry the given value (out of add, so add stays inlinable). */
    private int[][] intColumn(int value) {
        int[][] column = new int[stacks.length][];
        for (int p = 0; p < stacks.length; p++) {
            column[p] = new int[stacks[p].length];
            Arrays.fill(column[p], value);
        }
        return column;
    }

    /** Room for the next sample: a new page or a larger first page; the free slots of the last page. */
    private int nextSlot() {
        if (sealed) {
            throw new IllegalStateException("the profile is sealed: no sample can be added after import");
        }
        int page = size >>> PAGE_BITS;
        if (page == stacks.length) {
            addPage();
        } else {
            growFirstPage();
        }
        page = stacks.length - 1;
        lastStacks = stacks[page];
        lastWideTimes = wideTimes[page];
        lastBases = timeBases[page];
        lastOffsets = timeOffsets[page];
        lastThreads = threads != null ? threads[page] : null;
        lastThreadsWide = threadsWide != null ? threadsWide[page] : null;
        lastWeights = weights != null ? weights[page] : null;
        lastWeightsWide = weightsWide != null ? weightsWide[page] : null;
        lastClasses = classes != null ? classes[page] : null;
        lastTags = tags != null ? tags[page] : null;
        free = lastStacks.length - (size & MASK);
        return free;
    }

    private void addPage() {
        int n = stacks.length + 1;
        int last = n - 1;
        // the first page starts small: most kinds of most recordings have few samples
        int length = last == 0 ? FIRST_PAGE : PAGE;
        stacks = Arrays.copyOf(stacks, n);
        stacks[last] = new int[length];
        timeBases = Arrays.copyOf(timeBases, n);
        timeBases[last] = new long[PAGE >>> BLOCK_BITS];
        timeOffsets = Arrays.copyOf(timeOffsets, n);
        timeOffsets[last] = new int[length];
        wideTimes = Arrays.copyOf(wideTimes, n);
        if (threads != null) {
            threads = Arrays.copyOf(threads, n);
            threads[last] = new char[length];
        } else {
            threadsWide = Arrays.copyOf(threadsWide, n);
            threadsWide[last] = new int[length];
        }
        if (weights != null) {
            weights = Arrays.copyOf(weights, n);
            weights[last] = new int[length];
        }
        if (weightsWide != null) {
            weightsWide = Arrays.copyOf(weightsWide, n);
            weightsWide[last] = new long[length];
        }
        if (classes != null) {
            classes = Arrays.copyOf(classes, n);
            classes[last] = new int[length];
        }
        if (tags != null) {
            tags = Arrays.copyOf(tags, n);
            tags[last] = new char[length];
        }
    }

    private void growFirstPage() {
        int length = Math.min(PAGE, stacks[0].length * 4);
        stacks[0] = Arrays.copyOf(stacks[0], length);
        if (wideTimes[0] != null) {
            wideTimes[0] = Arrays.copyOf(wideTimes[0], length);
        } else {
            timeOffsets[0] = Arrays.copyOf(timeOffsets[0], length);
        }
        if (threads != null) {
            threads[0] = Arrays.copyOf(threads[0], length);
        } else {
            threadsWide[0] = Arrays.copyOf(threadsWide[0], length);
        }
        if (weights != null) {
            weights[0] = Arrays.copyOf(weights[0], length);
        }
        if (weightsWide != null) {
            weightsWide[0] = Arrays.copyOf(weightsWide[0], length);
        }
        if (classes != null) {
            classes[0] = Arrays.copyOf(classes[0], length);
        }
        if (tags != null) {
            tags[0] = Arrays.copyOf(tags[0], length);
        }
    }

    /** No sample can be added from now on: no free slot is left, and {@link #nextSlot} refuses to make one. */
    void seal() {
        sealed = true;
        free = 0;
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
        int p = i >>> PAGE_BITS;
        int j = i & MASK;
        long[] wide = wideTimes[p];
        return wide != null ? wide[j] : timeBases[p][j >>> BLOCK_BITS] + timeOffsets[p][j];
    }

    public int thread(int i) {
        return threads != null ? threads[i >>> PAGE_BITS][i & MASK] : threadsWide[i >>> PAGE_BITS][i & MASK];
    }

    public int stack(int i) {
        return stacks[i >>> PAGE_BITS][i & MASK];
    }

    public long weight(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("sample " + i + " of " + size);
        }
        if (weights != null) {
            return weights[i >>> PAGE_BITS][i & MASK];
        }
        return weightsWide != null ? weightsWide[i >>> PAGE_BITS][i & MASK] : uniformWeight;
    }

    public int objectClass(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("sample " + i + " of " + size);
        }
        return classes == null ? uniformClass : classes[i >>> PAGE_BITS][i & MASK];
    }

    private char tag(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("sample " + i + " of " + size);
        }
        return tags == null ? uniformTag : tags[i >>> PAGE_BITS][i & MASK];
    }

    /** The sample's thread state as recorded, an id of {@link #stateNames()}; 0 when the event had none. */
    public int state(int i) {
        return tag(i) & 0xFF;
    }

    /** Which sampler wrote the sample, an id of {@link #sourceNames()}. */
    public int source(int i) {
        return tag(i) >>> 8;
    }

    /** The names of the thread states ({@code STATE_RUNNABLE}, ...), shared by every kind of the profile. */
    public Dictionary stateNames() {
        return stateNames;
    }

    /** The names of the sources ({@code jdk}, {@code async-profiler}, ...), shared by every kind of the profile. */
    public Dictionary sourceNames() {
        return sourceNames;
    }

    /** Whether the samples come from more than one source, or carry more than one state. */
    public boolean uniformStateAndSource() {
        return tags == null;
    }

    /**
     * The source shown when a query names none: of the sources present, the profiler's own before the JDK's
     * ({@link Sources#preference}); -1 when the table is empty. Two sources of one kind are never summed.
     */
    public int defaultSource() {
        int d = defaultSource;
        if (d < 0 && size > 0) {
            boolean[] present = new boolean[Dictionary.MAX];
            if (tags == null) {
                present[uniformTag >>> 8] = true;
            } else {
                for (int i = 0; i < size; i++) {
                    present[tags[i >>> PAGE_BITS][i & MASK] >>> 8] = true;
                }
            }
            int best = -1;
            for (int s = 0; s < present.length; s++) {
                if (present[s] && (best < 0 || Sources.preference(sourceName(s)) < Sources.preference(sourceName(best)))) {
                    best = s;
                }
            }
            defaultSource = d = best;
        }
        return d;
    }

    private String sourceName(int id) {
        return id < sourceNames.size() ? sourceNames.get(id) : "";
    }

    /** Approximate heap bytes, from the allocated pages. */
    public long footprint() {
        long bytes = 64;
        for (int p = 0; p < stacks.length; p++) {
            long slots = stacks[p].length;
            bytes += 16 + slots * 4;
            bytes += wideTimes[p] != null ? 16 + slots * 8 : 32 + slots * 4 + 8L * (PAGE >>> BLOCK_BITS);
            bytes += 16 + slots * (threads != null ? 2 : 4);
            bytes += weights != null ? 16 + slots * 4 : weightsWide != null ? 16 + slots * 8 : 0;
            bytes += classes != null ? 16 + slots * 4 : 0;
            bytes += tags != null ? 16 + slots * 2 : 0;
        }
        return bytes;
    }
}
