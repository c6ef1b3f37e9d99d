package org.jfrworkbench.analysis;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * One daemon thread at low priority that makes what a recording's queries would otherwise make on their first
 * request (a tree's inverted part, a kind's samples listed per thread), one after another; a short queue, so that
 * recordings asked for and dropped from the cache meanwhile are not all held for it (what is refused is made by the
 * first query that needs it).
 */
final class Background {
    private static final ThreadPoolExecutor MAKER = maker();

    private Background() {
    }

    private static ThreadPoolExecutor maker() {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(8), r -> {
            Thread t = new Thread(r, "recording-prep");
            t.setDaemon(true);
            t.setPriority(Thread.MIN_PRIORITY);
            return t;
        }, new ThreadPoolExecutor.AbortPolicy());
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /** Runs work on the maker's thread after what is queued before it; false if the queue is full. */
    static boolean later(Runnable work) {
        try {
            MAKER.execute(work);
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }
}
