package org.jfrworkbench.agent;

/**
 * Keeps JVM exit from starting while a JDK recording is being started.
 *
 * <p>Why: when the JDK's Flight Recorder shutdown hook has already torn the recorder down, a recording that starts
 * afterwards waits forever inside the JVM, and the JVM then never exits (seen on JDK 17 and 25 when a chunk
 * rotation coincides with the end of {@code main}). Both ways into exit ({@code Runtime.exit} and the end of the
 * last non-daemon thread) run the shutdown hooks while holding the monitor of {@code java.lang.Shutdown}'s class
 * object, so holding that monitor for the short start makes the two mutually exclusive. If the class cannot be
 * found, the guard degrades to a private lock plus the shutdown check.
 */
final class ExitGuard {
    private static final Object MONITOR = find();

    private static final java.util.concurrent.atomic.AtomicInteger WAITING = new java.util.concurrent.atomic.AtomicInteger();

    private ExitGuard() {
    }

    private static Object find() {
        try {
            return Class.forName("java.lang.Shutdown");
        } catch (Throwable t) {
            return new Object();
        }
    }

    interface Action {
        void run() throws Exception;
    }

    /** Runs {@code action} unless the JVM is already exiting; returns whether it ran. */
    static boolean runUnlessExiting(Action action) throws Exception {
        if (shutdownInProgress()) {
            return false;
        }
        WAITING.incrementAndGet();
        synchronized (MONITOR) {
            WAITING.decrementAndGet();
            if (shutdownInProgress()) {
                return false;
            }
            action.run();
            return true;
        }
    }

    /** Threads blocked entering the guard: at exit they wait for the exit to finish and will do nothing. */
    static int waitingThreads() {
        return WAITING.get();
    }

    static boolean shutdownInProgress() {
        Thread probe = new Thread(() -> { });
        try {
            Runtime.getRuntime().addShutdownHook(probe);
            Runtime.getRuntime().removeShutdownHook(probe);
            return false;
        } catch (IllegalStateException e) {
            return true;
        }
    }
}
