package org.jfrworkbench.server.http;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Views whose build starts when the page that links to them is served (IndexPage names them in its head): the page's
 * request for such a view, some 50-150 ms later once the browser has read the head, finds it under way or done and
 * waits for that build instead of starting its own. Keyed by the view's request URL, as the head names it and the
 * browser asks for it. At most {@link #RUNNING} at once, each through the work gate as a request's build, and one per
 * client address: a page costs its client next to nothing, its early build up to a request's work, which no
 * connection of that client waits for, so one client loading page after page would otherwise keep every early build
 * busy. A view asked for while those run is left to its request, as without this.
 */
final class EarlyViews {
    private static final Logger LOG = LoggerFactory.getLogger(EarlyViews.class);
    static final int RUNNING = 2;
    // longer than the gate lets a build wait for memory (10 s), so a request rarely builds a view twice
    private static final long MAX_WAIT_SECONDS = 30;

    /** A view built early: its cache key, its encoding and what its build took (Server-Timing entries). */
    record View(FlameResponseCache.Key key, FlameResponseCache.Entry entry, String timing) {
    }

    /** Builds one view (into the response cache too, where it fits); null when the cache had it. */
    interface Build {
        View run() throws Exception;
    }

    private final Map<String, CompletableFuture<View>> pending = new ConcurrentHashMap<>();
    /** The URL each client's early build is for, while it runs. */
    private final Map<String, String> byClient = new ConcurrentHashMap<>();
    private final ThreadPoolExecutor executor = new ThreadPoolExecutor(0, RUNNING, 10, TimeUnit.SECONDS,
            new SynchronousQueue<>(), r -> {
                Thread t = new Thread(r, "early-view");
                t.setDaemon(true);
                return t;
            }, new ThreadPoolExecutor.AbortPolicy());

    /**
     * Starts building the view of url for the client at that address, unless it is under way already, {@link #RUNNING}
     * builds run or one of that client's does; returns at once.
     */
    void start(String url, String client, Build build) {
        CompletableFuture<View> done = new CompletableFuture<>();
        if (pending.putIfAbsent(url, done) != null) {
            return;
        }
        if (byClient.putIfAbsent(client, url) != null) {
            pending.remove(url, done);
            done.complete(null);
            return;
        }
        try {
            executor.execute(() -> {
                View view = null;
                try {
                    view = build.run();
                } catch (Exception e) {
                    // the view's own request builds it again and answers the error to its caller
                    LOG.debug("early build of {} failed", url, e);
                } finally {
                    // the client's turn ends before its waiters go on: its next page may build early at once
                    byClient.remove(client, url);
                    done.complete(view); // whatever ended it (an Error too): its waiters go on
                    pending.remove(url, done);
                }
            });
        } catch (RejectedExecutionException e) {
            byClient.remove(client, url);
            pending.remove(url, done);
            done.complete(null);
        }
    }

    /** Whether the view of url is being built early. */
    boolean underWay(String url) {
        return pending.containsKey(url);
    }

    /**
     * If the view of url is being built early, waits until it is (in the response cache, or failed and left to the
     * caller) or the client has gone; returns the view built, or null when there was none to wait for or it failed.
     */
    View await(String url, BooleanSupplier gone) {
        CompletableFuture<View> done = pending.get(url);
        if (done == null) {
            return null;
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(MAX_WAIT_SECONDS);
        try {
            while (true) {
                try {
                    // a client that hangs up stops waiting, as it would stop its own build (ClientWatch)
                    return done.get(100, TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    if (gone.getAsBoolean() || System.nanoTime() - deadline > 0) {
                        return null;
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (ExecutionException e) {
            return null;
        }
    }
}
