package org.jfrworkbench.server.library;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

import org.jfrworkbench.analysis.ProfileData;
import org.jfrworkbench.server.catalog.RecordingInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * New recordings' index entries, made after their uploads are answered, one recording at a time in upload order: an
 * entry's documents (the methods' statistics, tokenized) were the longest step before the answer, longer than writing
 * the pieces beside them (ap-cpualloc-38mb: about 600 against 300 ms), and the first view does not need them. One
 * waits at most: while uploads come faster than that, each makes its own entry before its answer, as all did before,
 * so the entries never fall behind by more than two recordings, nor hold more profiles than those. Until an entry is
 * visible, the list and the searches wait for it ({@link #awaitVisible}), so that what was acknowledged is found.
 */
final class NewEntries {
    private static final Logger LOG = LoggerFactory.getLogger(NewEntries.class);
    /** How long the list and the searches wait for new recordings' index entries (one takes well under a second). */
    private static final long WAIT_MILLIS = 30_000;

    /** Makes and adds a stored recording's entry (unless it was deleted meanwhile). */
    interface Indexing {
        void index(RecordingInfo info, ProfileData data) throws IOException;
    }

    private final Indexing indexing;
    private final ThreadPoolExecutor indexer = new ThreadPoolExecutor(1, 1, 30, TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(1), RecordingLibrary.daemon("recording-indexer"), new ThreadPoolExecutor.AbortPolicy());
    /** Recordings acknowledged whose index entry is not visible yet, by id. */
    private final Map<String, CompletableFuture<Void>> unindexed = new ConcurrentHashMap<>();
    private volatile Consumer<RecordingInfo> beforeIndexing = info -> { };

    NewEntries(Indexing indexing) {
        this.indexing = indexing;
        indexer.allowCoreThreadTimeOut(true);
    }

    /**
     * Makes a stored recording's index entry, on the indexer's thread where it is free or has none waiting, else on
     * this one. A failure is logged: the recording stays stored and whole, and is indexed on the next start.
     */
    void add(RecordingInfo info, ProfileData data) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        unindexed.put(info.id(), done);
        try {
            indexer.execute(() -> index(info, data, done, true));
        } catch (RejectedExecutionException e) {
            index(info, data, done, false); // one waits already (or the library is closing): this upload makes its own
        }
    }

    /** afterFirstView: whether to wait for {@link #beforeIndexing} first (not on the upload's own thread). */
    private void index(RecordingInfo info, ProfileData data, CompletableFuture<Void> done, boolean afterFirstView) {
        try {
            if (afterFirstView) {
                beforeIndexing.accept(info);
            }
            indexing.index(info, data);
        } catch (IOException | RuntimeException | Error e) {
            LOG.error("could not index recording {}; it stays stored and is indexed on the next start", info.id(), e);
        } finally {
            unindexed.remove(info.id(), done);
            done.complete(null);
        }
    }

    /** See {@link RecordingLibrary#beforeIndexing}. */
    void beforeIndexing(Consumer<RecordingInfo> waitFor) {
        beforeIndexing = waitFor;
    }

    /**
     * Waits until every recording acknowledged so far can be found, at most {@link #WAIT_MILLIS}; past that the caller
     * answers from the index as it is.
     */
    void awaitVisible() throws IOException {
        long deadline = System.nanoTime() + WAIT_MILLIS * 1_000_000L;
        for (CompletableFuture<Void> pending : List.copyOf(unindexed.values())) {
            try {
                pending.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while new recordings were indexed");
            } catch (ExecutionException | TimeoutException e) {
                return;
            }
        }
    }

    /** Lets the entries under way and waiting finish (at most 30 s), so they go into the index's closing commit. */
    void close() {
        indexer.shutdown();
        try {
            indexer.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
