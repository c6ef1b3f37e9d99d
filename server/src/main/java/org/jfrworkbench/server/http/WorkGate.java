package org.jfrworkbench.server.http;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * Admission for heavy work (imports, flame graph, diff and live-heap builds): each task reserves its estimated heap
 * from a budget sized from the heap, and at most so many run at once. Large tasks are admitted in arrival order (one
 * estimated above the whole budget runs alone); small ones run beside them as long as they fit. Past the queue's
 * length, or after waiting too long, a request is answered 503 with Retry-After instead of adding to an
 * OutOfMemoryError.
 */
final class WorkGate {
    private final long budget;
    private final int maxRunning;
    private final int maxWaiting;
    private final long maxWaitNanos;
    private final ArrayDeque<Object> queue = new ArrayDeque<>();
    private long reserved;
    private int running;
    private int smallRunning;
    private int smallWaiting;

    WorkGate(long budget, int maxRunning, int maxWaiting, long maxWaitMillis) {
        this.budget = budget;
        this.maxRunning = maxRunning;
        this.maxWaiting = maxWaiting;
        this.maxWaitNanos = TimeUnit.MILLISECONDS.toNanos(maxWaitMillis);
    }

    /** The server's gate: two fifths of the heap (the caches hold at most about a third), one task per core. */
    static WorkGate forHeap(long heapBytes) {
        int cores = Runtime.getRuntime().availableProcessors();
        // a request waits at most 10 s for its turn: well inside clients' timeouts, so they get the 503 and its Retry-After
        return new WorkGate(heapBytes * 2 / 5, Math.max(2, cores), 64, 10_000);
    }

    /** What a task estimated at estimatedBytes reserves: at least 1 MB, at most the whole budget. */
    long reservation(long estimatedBytes) {
        return Math.max(1L << 20, Math.min(budget, estimatedBytes));
    }

    /** The requests waiting for their turn now (tests wait for it instead of for a time). */
    synchronized int waiting() {
        return queue.size() + smallWaiting;
    }

    /** Work that holds its reservation while it runs. */
    interface Work<T> {
        T run() throws Exception;
    }

    /** Runs work once its estimated bytes fit (at most the whole budget), or throws {@link OverloadedException}. */
    <T> T run(String what, long estimatedBytes, Work<T> work) throws Exception {
        return run(what, estimatedBytes, () -> false, work);
    }

    /** The same, for a client that may hang up while it waits: then its work is dropped from the queue unrun. */
    <T> T run(String what, long estimatedBytes, java.util.function.BooleanSupplier gone, Work<T> work) throws Exception {
        long need = reservation(estimatedBytes);
        // small work (a sixteenth of the budget or less) is not queued behind large work: it fits beside it
        boolean small = need <= budget / 16;
        Object ticket = new Object();
        synchronized (this) {
            if (queue.size() + smallWaiting >= maxWaiting) {
                throw new OverloadedException("the server is busy: " + maxWaiting + " requests wait for memory already", 5);
            }
            if (small) {
                smallWaiting++;
            } else {
                queue.addLast(ticket);
            }
            long deadline = System.nanoTime() + maxWaitNanos;
            try {
                while (small ? smallRunning >= 2 * maxRunning || reserved + need > budget
                        : queue.peekFirst() != ticket || running >= maxRunning || reserved + need > budget) {
                    if (gone.getAsBoolean()) {
                        throw new org.jfrworkbench.analysis.QueryLimits.QueryCancelledException();
                    }
                    long left = Math.min(deadline - System.nanoTime(), TimeUnit.SECONDS.toNanos(1));
                    if (deadline - System.nanoTime() <= 0) {
                        throw new OverloadedException("the server is busy: " + what + " waited "
                                + TimeUnit.NANOSECONDS.toSeconds(maxWaitNanos) + " s for memory", 10);
                    }
                    TimeUnit.NANOSECONDS.timedWait(this, left);
                }
                // a client that left while its work waited (however briefly) gets none of it run
                if (gone.getAsBoolean()) {
                    throw new org.jfrworkbench.analysis.QueryLimits.QueryCancelledException();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new OverloadedException("the server is stopping", 10);
            } finally {
                if (small) {
                    smallWaiting--;
                } else {
                    queue.remove(ticket);
                }
                notifyAll();
            }
            reserved += need;
            if (small) {
                smallRunning++;
            } else {
                running++;
            }
        }
        try {
            // counted as running work (without limits of its own), so that a query beside an import does not take
            // a helper thread for half of itself (org.jfrworkbench.analysis.Parallel)
            return org.jfrworkbench.analysis.QueryLimits.run(() -> false, Long.MAX_VALUE, work::run);
        } finally {
            synchronized (this) {
                reserved -= need;
                if (small) {
                    smallRunning--;
                } else {
                    running--;
                }
                notifyAll();
            }
        }
    }
}
