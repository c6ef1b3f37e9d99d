package org.jfrworkbench.server.library;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test hook for the crash tests: with {@code -Dworkbench.crashpoint.pause=POINT} (or {@code POINT@N} for the N-th
 * arrival) the thread that reaches that point prints "reached POINT" and sleeps there, so the test can SIGKILL the
 * process at exactly that step. Without the property it does nothing.
 */
final class CrashPoint {
    private static final String SPEC = System.getProperty("workbench.crashpoint.pause");
    private static final AtomicInteger ARRIVALS = new AtomicInteger();

    private CrashPoint() {
    }

    static void reached(String point) {
        if (SPEC == null || !SPEC.startsWith(point) || !(SPEC.length() == point.length() || SPEC.charAt(point.length()) == '@')) {
            return;
        }
        int nth = SPEC.length() == point.length() ? 1 : Integer.parseInt(SPEC.substring(point.length() + 1));
        if (ARRIVALS.incrementAndGet() != nth) {
            return;
        }
        System.out.println("reached " + point);
        System.out.flush();
        try {
            Thread.sleep(Long.MAX_VALUE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
