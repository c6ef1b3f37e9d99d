package org.jfrworkbench.analysis;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.jfrworkbench.importer.SpareCpu;

/**
 * Two independent halves of one query (a diff's two sides; then its merged tree and its method rows) at once: the
 * second is offered to a helper thread while the caller's thread does the first, and whichever thread gets to the
 * second first does it. Whether it is offered is a rule, one of these constants: the server's is {@link #WHEN_SPARE}
 * (while another query runs, {@link QueryLimits#running}, other processes leave no processor spare, {@link SpareCpu},
 * or every helper is busy, the caller does both in turn, as without helpers: parallelism only uses a core that would
 * otherwise idle, and a query never waits for a helper to free up); tests hand a query {@link #ALWAYS} or
 * {@link #NEVER} to check that both ways answer alike. Helpers: one per core but one (none on one core;
 * {@code -Djfrworkbench.queryHelpers=N} sets another number, 0 turns them off). The server's index takes the same rule to
 * index a new recording's documents in two halves at once.
 */
public enum Parallel {
    /** Offered where a processor is spare: what queries do unless told otherwise. */
    WHEN_SPARE,
    /** Always offered (to a helper even where {@code queryHelpers} is 0). */
    ALWAYS,
    /** Never offered: the halves in turn on the caller's thread. */
    NEVER;

    private static final int HELPERS = Integer.getInteger("jfrworkbench.queryHelpers",
            Runtime.getRuntime().availableProcessors() - 1);
    /** Its threads start on first use and end after 30 s idle. */
    private static final ThreadPoolExecutor POOL = pool(Math.max(1, HELPERS));

    /** The two results, in order. */
    public record Both<A, B>(A first, B second) {
    }

    /** The two halves, the second offered to a helper as this rule says. */
    public <A, B> Both<A, B> both(Supplier<A> first, Supplier<B> second) {
        return both(first, second, offers());
    }

    /**
     * The same for halves whose results hold pooled arrays ({@link QueryArrays}): when one half throws, the other's
     * result, once made, is released as its consumer says, so a failing query does not drain the pool.
     */
    <A, B> Both<A, B> both(Supplier<A> first, Supplier<B> second, Consumer<? super A> releaseFirst,
                           Consumer<? super B> releaseSecond) {
        return both(first, second, offers(), releaseFirst, releaseSecond);
    }

    /** Whether this rule offers a half to a helper now: for work that is split only if so. */
    public boolean offers() {
        return switch (this) {
            case ALWAYS -> true;
            case NEVER -> false;
            // another query running, or other processes that keep the cores busy, leave no core idle: a helper would
            // only take turns with the others, and measured so, two clients' diffs took longer with helpers than without
            case WHEN_SPARE -> HELPERS > 0 && QueryLimits.running() <= 1 && SpareCpu.now();
        };
    }

    /** offer: whether the second half is offered to a helper (there is one and a core is idle). */
    public static <A, B> Both<A, B> both(Supplier<A> first, Supplier<B> second, boolean offer) {
        return both(first, second, offer, a -> { }, b -> { });
    }

    /**
     * offer as in {@link #both(Supplier, Supplier, boolean)}; releases as in {@link #both(Supplier, Supplier, Consumer,
     * Consumer)}. A helper still making the second half when the first throws is not waited for: it releases its
     * result itself when done.
     */
    static <A, B> Both<A, B> both(Supplier<A> first, Supplier<B> second, boolean offer, Consumer<? super A> releaseFirst,
                                  Consumer<? super B> releaseSecond) {
        if (!offer) {
            A a = first.get();
            return new Both<>(a, secondOrRelease(a, second, releaseFirst));
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
            if (!claimed.compareAndSet(false, true)) {
                helped.thenAccept(releaseSecond); // a helper has it: released as it completes (not if it throws)
            } // else a helper that has not started it yet leaves it
            throw e;
        }
        if (claimed.compareAndSet(false, true)) {
            return new Both<>(a, secondOrRelease(a, second, releaseFirst));
        }
        try {
            return new Both<>(a, helped.join());
        } catch (CompletionException e) {
            releaseFirst.accept(a);
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }

    /** The second half on this thread; when it throws, the first's result is released. */
    private static <A, B> B secondOrRelease(A a, Supplier<B> second, Consumer<? super A> releaseFirst) {
        try {
            return second.get();
        } catch (RuntimeException | Error e) {
            releaseFirst.accept(a);
            throw e;
        }
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
