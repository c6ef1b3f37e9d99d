package org.jfrworkbench.analysis;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Two independent halves of one query (a diff's two sides) at once: the second is offered to a helper thread while
 * the caller's thread does the first, and whichever thread gets to the second first does it. While another query
 * runs ({@link QueryLimits#running}), the machine's load average reaches its cores, or every helper is busy, the
 * caller does both in turn, as without helpers: parallelism only uses a core that would otherwise idle, and a query
 * never waits for a helper to free up. Helpers: one per core but one (none on one core;
 * {@code -Djfrworkbench.queryHelpers=N} sets another number, 0 turns them off).
 */
final class Parallel {
    private static final int HELPERS = Integer.getInteger("jfrworkbench.queryHelpers",
            Runtime.getRuntime().availableProcessors() - 1);
    /** Its threads start on first use and end after 30 s idle. */
    private static final ThreadPoolExecutor POOL = pool(Math.max(1, HELPERS));
    private static final int CORES = Runtime.getRuntime().availableProcessors();
    private static final OperatingSystemMXBean OS = ManagementFactory.getOperatingSystemMXBean();

    private Parallel() {
    }

    /** The two results, in order. */
    record Both<A, B>(A first, B second) {
    }

    static <A, B> Both<A, B> both(Supplier<A> first, Supplier<B> second) {
        // another query running, or a machine whose cores are all busy, leaves no core idle: a helper would only
        // take turns with the others, and measured so, two clients' diffs took longer with helpers than without
        return both(first, second, HELPERS > 0 && QueryLimits.running() <= 1 && !busyMachine());
    }

    /** offer: whether the second half is offered to a helper (there is one and a core is idle). */
    static <A, B> Both<A, B> both(Supplier<A> first, Supplier<B> second, boolean offer) {
        if (!offer) {
            A a = first.get();
            return new Both<>(a, second.get());
        }
        AtomicBoolean claimed = new AtomicBoolean();
        CompletableFuture<B> helped = new CompletableFuture<>();
        QueryLimits limits = QueryLimits.current();
        POOL.execute(() -> {
            if (claimed.compareAndSet(false, true)) {
                try {
                    helped.complete(QueryLimits.under(limits, second));
                } catch (Throwable t) {
                    helped.completeExceptionally(t);
                }
            }
        });
        A a;
        try {
            a = first.get();
        } catch (RuntimeException | Error e) {
            claimed.set(true); // a helper that has not started it yet leaves it
            throw e;
        }
        if (claimed.compareAndSet(false, true)) {
            return new Both<>(a, second.get());
        }
        try {
            return new Both<>(a, helped.join());
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }

    /** Whether the machine's run queue (the last minute's load average) fills every core; false where unknown. */
    private static boolean busyMachine() {
        double load = OS.getSystemLoadAverage();
        return load >= CORES;
    }

    /** Daemon helpers; offers past a short queue are dropped (their caller does the work itself). */
    private static ThreadPoolExecutor pool(int threads) {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(2 * threads), r -> {
                    Thread t = new Thread(r, "query-helper");
                    t.setDaemon(true);
                    return t;
                }, new ThreadPoolExecutor.DiscardPolicy());
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }
}
