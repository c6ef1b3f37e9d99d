package org.jfrworkbench.server.library;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;

import org.jfrworkbench.analysis.ProfileData;
import org.jfrworkbench.server.catalog.RecordingInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * New recordings' index entries, and a run's each time a part or its end changes it, made after their uploads are
 * answered, one at a time in upload order: an
 * entry's documents (the methods' statistics, tokenized) were the longest step before the answer, longer than writing
 * the pieces beside them (ap-cpualloc-38mb: about 600 against 300 ms), and the first view does not need them. One
 * waits at most: while uploads come faster than that, each makes its own entry before its answer, as all did before,
 * so the entries never fall behind by more than two recordings, nor hold more profiles than those. Until an entry is
 * visible, the list and the searches wait for it ({@link #awaitVisible}), so that what was acknowledged is found.
 *
 * <p>An entry that fails (a full disk, an index briefly unwritable) is made again in the background, its profile
 * loaded again, after 1 s, then twice as long each time up to a minute, {@link #RETRIES} times at most; meanwhile the
 * list and the searches no longer wait for it, and its state ({@link #status}) says so. One that still fails is left
 * to the next start, which indexes every stored recording without an entry. A run's newer entry supersedes its older
 * one, retries included: a retry indexes the recording as it is now, so one chain of retries per recording suffices.
 */
final class NewEntries {
    private static final Logger LOG = LoggerFactory.getLogger(NewEntries.class);
    /** How long the list and the searches wait for new recordings' index entries (one takes well under a second). */
    private static final long WAIT_MILLIS = 30_000;
    /** Attempts after the first failure; with their backoff (1, 2, 4 … 60 s) about three minutes in all. */
    static final int RETRIES = 8;
    /** The longest wait between two attempts, in units of the first. */
    private static final long MAX_RETRY_UNITS = 60;

    /**
     * Makes and adds a stored recording's entry (unless it was deleted or changed meanwhile), calling visible once the
     * entry is made and just before the searches can find it: a retried entry's state reads indexed from then on, so
     * that no one finds it while its state still says retrying.
     */
    interface Indexing {
        void index(RecordingInfo info, ProfileData data, Runnable visible) throws IOException;
    }

    /** A stored recording's profile for a retry (from the cache, else decoded from the store). */
    interface Loading {
        ProfileData load(String id) throws IOException;
    }

    private final Indexing indexing;
    /** The recording's info as it is now, null once deleted: a retry indexes that one. */
    private final Function<String, RecordingInfo> current;
    private final Loading loading;
    /** The wait before the first retry (1 s; shorter in tests of the schedule). */
    private final long firstRetryMillis;
    private final ScheduledThreadPoolExecutor retries = new ScheduledThreadPoolExecutor(1, RecordingLibrary.daemon("index-retry"));
    /** Recordings whose entry failed, by id: retrying, or failed for good until the next start. */
    private final Map<String, IndexStatus> failing = new ConcurrentHashMap<>();
    private final ThreadPoolExecutor indexer = new ThreadPoolExecutor(1, 1, 30, TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(1), RecordingLibrary.daemon("recording-indexer"), new ThreadPoolExecutor.AbortPolicy());
    /** Recordings acknowledged whose index entry is not visible yet, by id. */
    private final Map<String, CompletableFuture<Void>> unindexed = new ConcurrentHashMap<>();
    private volatile Consumer<RecordingInfo> beforeIndexing = info -> { };

    NewEntries(Indexing indexing, Function<String, RecordingInfo> current, Loading loading) {
        this(indexing, current, loading, 1000);
    }

    NewEntries(Indexing indexing, Function<String, RecordingInfo> current, Loading loading, long firstRetryMillis) {
        this.firstRetryMillis = firstRetryMillis;
        this.indexing = indexing;
        this.current = current;
        this.loading = loading;
        indexer.allowCoreThreadTimeOut(true);
        // closing drops the retries still waiting for their time: the next start indexes those recordings
        retries.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    /**
     * Makes a stored recording's index entry, on the indexer's thread where it is free or has none waiting, else on
     * this one. A failure is logged and the entry retried in the background; the recording stays stored and whole.
     */
    void add(RecordingInfo info, ProfileData data) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        failing.remove(info.id()); // the same bytes uploaded again after a delete, or a run's newer entry
        unindexed.put(info.id(), done);
        try {
            indexer.execute(() -> index(info, data, done, true));
        } catch (RejectedExecutionException e) {
            index(info, data, done, false); // one waits already (or the library is closing): this upload makes its own
        }
    }

    /** afterFirstView: whether to wait for {@link #beforeIndexing} first (not on the upload's own thread). */
    private void index(RecordingInfo info, ProfileData data, CompletableFuture<Void> done, boolean afterFirstView) {
        IndexStatus retrying = null;
        try {
            if (afterFirstView) {
                beforeIndexing.accept(info);
            }
            // still unindexed until it is visible: the list and the searches wait for it by that mark
            indexing.index(info, data, () -> { });
        } catch (IOException | RuntimeException | Error e) {
            retrying = noteFailure(info.id(), 0, e);
        } finally {
            unindexed.remove(info.id(), done);
            done.complete(null);
        }
        if (retrying != null) {
            // scheduled once this attempt no longer marks it unindexed: a retry that came first read pending after it
            // made the entry visible
            scheduleRetry(info.id(), 0, retrying);
        }
    }

    /** Attempt n (0 the first) failed: the next is scheduled, or after the last the recording waits for the next start. */
    private void failed(String id, int attempt, Throwable e) {
        IndexStatus retrying = noteFailure(id, attempt, e);
        if (retrying != null) {
            scheduleRetry(id, attempt, retrying);
        }
    }

    /** Notes attempt n's failure: the status of the retry to schedule, or null after the last attempt. */
    private IndexStatus noteFailure(String id, int attempt, Throwable e) {
        String error = e.getClass().getSimpleName();
        if (attempt >= RETRIES) {
            failing.put(id, new IndexStatus(IndexStatus.FAILED, attempt + 1, error, 0));
            LOG.error("could not index recording {} after {} attempts; it stays stored and is indexed on the next start",
                    id, attempt + 1, e);
            return null;
        }
        long delay = retryDelay(attempt);
        IndexStatus status = new IndexStatus(IndexStatus.RETRYING, attempt + 1, error, System.currentTimeMillis() + delay);
        failing.put(id, status);
        LOG.warn("could not index recording {} (attempt {}); it stays stored and is tried again in {} ms", id,
                attempt + 1, delay, e);
        return status;
    }

    private long retryDelay(int attempt) {
        return firstRetryMillis * Math.min(MAX_RETRY_UNITS, 1L << attempt);
    }

    private void scheduleRetry(String id, int attempt, IndexStatus status) {
        try {
            retries.schedule(() -> retry(id, attempt + 1, status), retryDelay(attempt), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closing) {
            failing.remove(id); // the library is closing: the next start indexes it
        }
    }

    /**
     * Attempt n for a recording whose entry failed: with its info and profile as they are now, if it still exists, and
     * unless a newer entry of it (a run's next part) was added since the failure it follows (scheduled).
     */
    private void retry(String id, int attempt, IndexStatus scheduled) {
        if (failing.get(id) != scheduled) {
            return;
        }
        try {
            RecordingInfo info = current.apply(id);
            if (info != null) {
                beforeIndexing.accept(info);
                indexing.index(info, loading.load(id), () -> failing.remove(id, scheduled));
            }
            failing.remove(id, scheduled);
        } catch (IOException | RuntimeException | Error e) {
            if (current.apply(id) == null) {
                failing.remove(id, scheduled); // deleted meanwhile
            } else if (failing.get(id) == scheduled) {
                failed(id, attempt, e);
            }
        }
    }

    /** Whether a recording's entry is made, under way, or failed (and then whether it is retried). */
    IndexStatus status(String id) {
        IndexStatus failure = failing.get(id);
        if (failure != null) {
            return failure;
        }
        return unindexed.containsKey(id) ? IndexStatus.PENDING : IndexStatus.INDEXED;
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

    /**
     * Lets the entries under way and waiting finish (at most 30 s), so they go into the index's closing commit; a
     * retry under way finishes too, those still waiting are left to the next start.
     */
    void close() {
        indexer.shutdown();
        retries.shutdown();
        try {
            indexer.awaitTermination(30, TimeUnit.SECONDS);
            retries.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
