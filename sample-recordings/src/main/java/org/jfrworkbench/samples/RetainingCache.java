package org.jfrworkbench.samples;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * Slowly retains objects of a known mix (per retained entry: one {@link Session}, one 2 KB {@code byte[]} buffer,
 * one {@code String} key) while churning short-lived garbage, so the heap view shows many GCs and a live set
 * that grows steadily. Usage: {@code RetainingCache SECONDS|stdin} (run with a small heap, e.g. -Xmx96m); until stdin ends
 * it retains at the pace of a 10 s run.
 */
public final class RetainingCache {
    /** A retained session: the class the live view should name. */
    record Session(String id, long createdNanos, byte[] buffer, List<Integer> history) {
    }

    private static final int MAX_ENTRIES = 14_000;

    public static void main(String[] args) throws Exception {
        RunFor run = RunFor.parse(args, 0, 15);
        long seconds = run.untilStdinEnds() ? 10 : run.seconds();
        Map<String, Session> cache = new LinkedHashMap<>();
        long start = System.nanoTime();
        System.out.println("retaining cache started");
        long garbage = 0;
        int next = 0;
        while (run.running()) {
            // retain at a steady rate: the cache reaches its cap near the end of the run
            double elapsed = (System.nanoTime() - start) / (double) (seconds * 1_000_000_000L);
            while (cache.size() < MAX_ENTRIES && next < elapsed * MAX_ENTRIES) {
                String id = "session-" + next++;
                List<Integer> history = new ArrayList<>();
                for (int h = 0; h < 8; h++) {
                    history.add(h * next);
                }
                cache.put(id, new Session(id, System.nanoTime(), new byte[2048], history));
            }
            garbage += churn();
            LockSupport.parkNanos(100_000); // a service, not a benchmark: a few GCs a second, not hundreds
        }
        // a last full collection, so the recording ends with the live set being exactly the retained sessions
        System.gc();
        Thread.sleep(200);
        System.out.println("retained " + cache.size() + " sessions, churned " + garbage);
    }

    /** Short-lived garbage that drives young collections. */
    static long churn() {
        long sum = 0;
        for (int i = 0; i < 200; i++) {
            int[] scratch = new int[256];
            scratch[i % 256] = i;
            sum += scratch[i % 256] + Integer.toString(i).length();
        }
        return sum;
    }
}
