package org.jfrworkbench.analysis;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * What a caller allows the queries it runs on its thread: to go on only while it still wants the answer (an HTTP
 * client that hung up does not), and to build call trees of at most so many nodes (the heap the caller reserved
 * for it). Queries ask {@link #check} every few thousand stacks and {@link #nodes} as a tree grows.
 */
public final class QueryLimits {
    private static final ThreadLocal<QueryLimits> CURRENT = new ThreadLocal<>();
    private static final AtomicInteger RUNNING = new AtomicInteger();

    private final BooleanSupplier cancelled;
    private final long maxNodes;

    private QueryLimits(BooleanSupplier cancelled, long maxNodes) {
        this.cancelled = cancelled;
        this.maxNodes = maxNodes;
    }

    /** Work run under limits. */
    public interface Work<T> {
        T run() throws Exception;
    }

    /** Runs work on this thread; its queries stop once cancelled answers true or a tree would pass maxNodes. */
    public static <T> T run(BooleanSupplier cancelled, long maxNodes, Work<T> work) throws Exception {
        QueryLimits outer = CURRENT.get();
        CURRENT.set(new QueryLimits(cancelled, maxNodes));
        if (outer == null) {
            RUNNING.incrementAndGet();
        }
        try {
            return work.run();
        } finally {
            if (outer == null) {
                RUNNING.decrementAndGet();
            }
            CURRENT.set(outer);
        }
    }

    /**
     * Work running under limits in this JVM now (the caller's included): queries, and the other heavy work that the
     * server admits (imports, loading a recording) under no limits. More than one leaves no core idle.
     */
    static int running() {
        return RUNNING.get();
    }

    /** The limits of this thread's query (null: none), for a helper thread doing part of it ({@link Parallel}). */
    static QueryLimits current() {
        return CURRENT.get();
    }

    /** Runs part of a query on this (helper) thread under the query's limits. */
    static <T> T under(QueryLimits limits, Supplier<T> part) {
        QueryLimits outer = CURRENT.get();
        CURRENT.set(limits);
        try {
            return part.get();
        } finally {
            CURRENT.set(outer);
        }
    }

    /** Throws {@link QueryCancelledException} when the caller no longer wants the answer. */
    public static void check() {
        QueryLimits limits = CURRENT.get();
        if (limits != null && limits.cancelled.getAsBoolean()) {
            throw new QueryCancelledException();
        }
    }

    /** A tree that holds this many nodes is about to grow: throws {@link ViewTooLargeException} past the limit. */
    static void nodes(long size) {
        QueryLimits limits = CURRENT.get();
        if (limits != null) {
            if (size > limits.maxNodes) {
                throw new ViewTooLargeException(limits.maxNodes);
            }
            if (limits.cancelled.getAsBoolean()) {
                throw new QueryCancelledException();
            }
        }
    }

    /** The query's caller is gone; nothing is answered. */
    public static final class QueryCancelledException extends RuntimeException {
        public QueryCancelledException() {
            super("the query was cancelled: its client is gone", null, false, false);
        }
    }

    /** The view's call tree would take more heap than the caller has for it. */
    public static final class ViewTooLargeException extends RuntimeException {
        ViewTooLargeException(long maxNodes) {
            super("this view has more than " + maxNodes + " distinct frames, more than this server builds in its heap;"
                    + " narrow it (a time range, threads, a kind) or give the server more memory", null, false, false);
        }

        /** A view refused for another measure of its size, which the message names. */
        public ViewTooLargeException(String message) {
            super(message, null, false, false);
        }
    }
}
