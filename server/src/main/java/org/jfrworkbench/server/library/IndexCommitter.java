package org.jfrworkbench.server.library;

import java.io.Closeable;
import java.io.IOException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jfrworkbench.server.index.RecordingIndex;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits the index shortly after it changed, off the request path. A recording is durable once its metadata is
 * (the store is the truth); an index commit only spares the next start re-indexing what changed since, so it can
 * wait a little and take several changes at once. Closing commits what is left.
 */
final class IndexCommitter implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(IndexCommitter.class);
    static final long DELAY_MILLIS = 2000;

    private final RecordingIndex index;
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, r -> {
        Thread t = new Thread(r, "index-committer");
        t.setDaemon(true);
        return t;
    });

    IndexCommitter(RecordingIndex index) {
        this.index = index;
        // closing drops a commit still waiting for its time (close commits anyway)
        timer.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    /** The index has changes: commit them within {@link #DELAY_MILLIS}. */
    void changed() {
        if (scheduled.compareAndSet(false, true)) {
            timer.schedule(this::commit, DELAY_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    private void commit() {
        scheduled.set(false); // a change from now on schedules the next commit
        try {
            index.commit();
        } catch (IOException | RuntimeException e) {
            // the changes stay in the index and go with the next commit, or are indexed again on start
            LOG.warn("index commit failed: {}", e.toString());
        }
    }

    @Override
    public void close() throws IOException {
        // never interrupt a running commit: an interrupt inside Lucene's file I/O closes its channel, which is a
        // tragic event for the IndexWriter (it closes itself and releases the index lock)
        timer.shutdown();
        try {
            timer.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        index.commit();
    }
}
