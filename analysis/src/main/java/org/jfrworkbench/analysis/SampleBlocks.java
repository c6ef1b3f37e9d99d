package org.jfrworkbench.analysis;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;

import org.jfrworkbench.model.SampleTable;

/**
 * What a query's pass over a kind's samples needs to know beforehand, per block of 256 samples in the table's order:
 * the earliest and the latest time, so that a time range tests the times of only the blocks that straddle its ends
 * and skips the blocks outside it (samples arrive nearly in time order, so most blocks are wholly in or out); and
 * whether every sample weighs the same, so that a query counts samples per node and multiplies, instead of adding
 * a weight beside each count. 16 bytes per 256 samples, built in one pass on a kind's first query.
 */
final class SampleBlocks {
    static final int BITS = 8;

    private final int size;
    private final long[] min;
    private final long[] max;
    private final boolean uniform;
    /** The weight of every sample when all are equal. */
    private final long uniformWeight;
    private volatile KindBreakdown breakdown;
    /**
     * The samples listed per thread, made once by whichever asks first: a query of threads, or the background after an
     * import ({@link #prepareByThread}). A maker claims them only as it starts, so whoever finds them claimed waits
     * for a running pass, never for a task still queued.
     */
    private final AtomicReference<CompletableFuture<ThreadSamples>> byThread = new AtomicReference<>();

    private SampleBlocks(int size, long[] min, long[] max, boolean uniform, long uniformWeight) {
        this.size = size;
        this.min = min;
        this.max = max;
        this.uniform = uniform;
        this.uniformWeight = uniformWeight;
    }

    static SampleBlocks of(SampleTable t) {
        int size = t.size();
        int count = (size + (1 << BITS) - 1) >>> BITS;
        long[] min = new long[count];
        long[] max = new long[count];
        long uniform = size == 0 ? 0 : t.weight(0);
        boolean same = true;
        for (int b = 0; b < count; b++) {
            long lo = Long.MAX_VALUE;
            long hi = Long.MIN_VALUE;
            for (int i = b << BITS, end = Math.min(size, (b + 1) << BITS); i < end; i++) {
                long time = t.time(i);
                lo = Math.min(lo, time);
                hi = Math.max(hi, time);
                same &= t.weight(i) == uniform;
            }
            min[b] = lo;
            max[b] = hi;
        }
        return new SampleBlocks(size, min, max, same, uniform);
    }

    /** Samples the blocks describe: a table that has grown since needs new blocks. */
    int size() {
        return size;
    }

    int count() {
        return min.length;
    }

    long min(int block) {
        return min[block];
    }

    long max(int block) {
        return max[block];
    }

    /** Whether every sample weighs {@link #uniformWeight()}. */
    boolean uniform() {
        return uniform;
    }

    long uniformWeight() {
        return uniformWeight;
    }

    /** The kind's sources and states, for checking a query's (one pass over the samples, made on first need). */
    KindBreakdown breakdown(SampleTable t) {
        KindBreakdown b = breakdown;
        if (b == null) {
            breakdown = b = KindBreakdown.of(t.kind(), t);
        }
        return b;
    }

    /** The kind's samples per thread, for queries of a few threads ({@link ThreadSamples}, made on first need). */
    ThreadSamples byThread(SampleTable t) {
        while (true) {
            CompletableFuture<ThreadSamples> made = byThread.get();
            if (made == null) {
                CompletableFuture<ThreadSamples> mine = new CompletableFuture<>();
                if (byThread.compareAndSet(null, mine)) {
                    return make(t, mine);
                }
                continue;
            }
            try {
                return made.join(); // being made now: no longer than making them here
            } catch (CompletionException e) {
                // its maker failed and let go of them: this query makes them (or waits for whoever claims them next)
            }
        }
    }

    /** Makes the lists now unless they are made or being made: the background's work after an import. */
    void prepareByThread(SampleTable t) {
        CompletableFuture<ThreadSamples> mine = new CompletableFuture<>();
        if (byThread.compareAndSet(null, mine)) {
            make(t, mine);
        }
    }

    /** Whether the lists are made (not while they are being made). */
    boolean byThreadMade() {
        CompletableFuture<ThreadSamples> made = byThread.get();
        return made != null && made.isDone() && !made.isCompletedExceptionally();
    }

    private ThreadSamples make(SampleTable t, CompletableFuture<ThreadSamples> mine) {
        try {
            ThreadSamples made = ThreadSamples.of(t);
            mine.complete(made);
            return made;
        } catch (RuntimeException | Error e) {
            byThread.compareAndSet(mine, null); // the next to ask makes them again
            mine.completeExceptionally(e);
            throw e;
        }
    }

    /** Heap bytes of the blocks of a table of so many samples. */
    static long footprint(int samples) {
        return 48 + 16L * ((samples + (1 << BITS) - 1) >>> BITS);
    }

    long footprint() {
        return 48 + 16L * min.length;
    }
}
