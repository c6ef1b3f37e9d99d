package org.jfrworkbench.server.http;

import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.jfrworkbench.analysis.FlameGraphQuery;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.server.catalog.RecordingInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds, encodes and compresses the view a new recording opens with (its first kind as the UI orders kinds, the
 * whole recording, binary form) right after the upload, on one background thread, so the first open of a
 * recording is answered from the flame response cache. A request for a view being prepared waits for it instead
 * of building it twice. Best effort and at most a fifth of one core: while uploads arrive faster than that allows
 * (an agent's chunks, a batch import), views are skipped and built on their first request, as before.
 */
final class DefaultViewWarmer {
    private static final Logger LOG = LoggerFactory.getLogger(DefaultViewWarmer.class);
    private static final int BACKLOG = 2;
    /** Idle time after each build, as a multiple of its duration: warming takes at most 1 / (1 + 4) of a core. */
    private static final int REST_FACTOR = 4;
    private static final long MAX_WAIT_SECONDS = 60;

    /** Builds one view and caches it under its key; the warmer only decides what and when. */
    interface ViewBuilder {
        void build(FlameResponseCache.Key key) throws Exception;
    }

    private final ViewBuilder builder;
    private final Map<FlameResponseCache.Key, CompletableFuture<Void>> pending = new ConcurrentHashMap<>();
    private volatile long restUntilNanos = System.nanoTime();
    // one low-priority daemon thread that ends when idle; the short queue bounds the backlog
    private final ThreadPoolExecutor executor = new ThreadPoolExecutor(1, 1, 10, TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(BACKLOG), r -> {
                Thread t = new Thread(r, "default-view-warmer");
                t.setDaemon(true);
                t.setPriority(Thread.MIN_PRIORITY);
                return t;
            }, new ThreadPoolExecutor.AbortPolicy());

    DefaultViewWarmer(ViewBuilder builder) {
        this.builder = builder;
        executor.allowCoreThreadTimeOut(true);
    }

    /** Queues the default view of a recording just stored; returns at once. */
    void warm(RecordingInfo info) {
        FlameResponseCache.Key key = keyOf(info);
        if (key == null) {
            return;
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        if (pending.putIfAbsent(key, done) != null) {
            return;
        }
        try {
            executor.execute(() -> {
                long started = System.nanoTime();
                try {
                    if (started - restUntilNanos >= 0) {
                        builder.build(key);
                        restUntilNanos = System.nanoTime() + REST_FACTOR * (System.nanoTime() - started);
                    }
                } catch (Exception e) {
                    // the request for this view will build it and report any error to its caller
                    LOG.debug("could not prepare the default view of {}", info.id(), e);
                } finally {
                    pending.remove(key);
                    done.complete(null);
                }
            });
        } catch (RejectedExecutionException e) {
            pending.remove(key);
            done.complete(null);
        }
    }

    /** If the default view of a recording is being prepared, waits until it is. */
    void awaitWarmed(RecordingInfo info) {
        FlameResponseCache.Key key = keyOf(info);
        if (key != null) {
            awaitPrepared(key);
        }
    }

    /** The key of a recording's default view, or null where it has no samples to show. */
    private static FlameResponseCache.Key keyOf(RecordingInfo info) {
        Kind kind = defaultKind(info);
        return kind == null ? null
                : new FlameResponseCache.Key(info.id(), new FlameGraphQuery(kind), "binary", info.updatedMillis());
    }

    /** If the view of key is being prepared, waits until it is (in the cache, or failed and left to the caller). */
    void awaitPrepared(FlameResponseCache.Key key) {
        CompletableFuture<Void> done = pending.get(key);
        if (done == null) {
            return;
        }
        try {
            done.get(MAX_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // build it in the request, as without the warmer
        }
    }

    /** The kind the UI shows first: the first kind with samples in {@link Kind}'s order (the UI's tab order). */
    static Kind defaultKind(RecordingInfo info) {
        for (Kind k : Kind.values()) {
            RecordingInfo.KindSummary s = info.kinds().get(k.id());
            if (s != null && (s.samples() > 0 || s.weight() > 0)) {
                return k;
            }
        }
        return null;
    }
}
