package org.jfrworkbench.importer.jfr;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

import org.jfrworkbench.importer.SpareCpu;

/**
 * The rule for a second thread of an import ({@link EventDecoder}, {@link StackDecoder}): one per spare processor, and
 * only while the machine has a processor to spare. Imports side by side on a busy server read sequentially, where a
 * second thread per import would only add its hand-overs to the CPU time they already share.
 */
final class SpareProcessor {
    private static final AtomicInteger THREADS = new AtomicInteger();
    private static final ExecutorService WORKERS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "jfr-import-helper-" + THREADS.incrementAndGet());
        t.setDaemon(true);
        return t;
    });
    private static final Semaphore SPARE = new Semaphore(Math.max(1, Runtime.getRuntime().availableProcessors() - 1));

    /**
     * Whether a second thread is only started when the machine has a processor to spare ({@link SpareCpu}). Tests
     * switch it off to read both ways; so does {@code -Dworkbench.importer.onlyWhenIdle=false} (benchmarks on a
     * machine others use).
     */
    static volatile boolean onlyWhenIdle = !"false".equals(System.getProperty("workbench.importer.onlyWhenIdle"));

    private SpareProcessor() {
    }

    /**
     * Runs the task on a spare processor and returns true, or returns false (and runs nothing) when there is none. The
     * task gives the processor back with {@link #release}.
     */
    static boolean run(Runnable task) {
        if (onlyWhenIdle && !SpareCpu.now()) {
            return false;
        }
        if (!SPARE.tryAcquire()) {
            return false;
        }
        try {
            WORKERS.execute(task);
        } catch (RuntimeException | Error e) {
            SPARE.release();
            throw e;
        }
        return true;
    }

    static void release() {
        SPARE.release();
    }
}
