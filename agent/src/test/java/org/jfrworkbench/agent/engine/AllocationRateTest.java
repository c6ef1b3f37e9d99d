package org.jfrworkbench.agent.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class AllocationRateTest {
    static volatile Object sink;

    @Test
    void intervalIsTheRateDividedByTheTargetWithinBounds() {
        AllocationRate rate = new AllocationRate(100);
        assertEquals(15_000_000, rate.forRate(1.5e9));
        assertEquals(AllocationRate.MIN_INTERVAL, rate.forRate(1000));
        assertEquals(AllocationRate.MAX_INTERVAL, rate.forRate(1e15));
    }

    @Test
    void measuresThisJvmsAllocationRateBetweenTwoChoices() throws Exception {
        AllocationRate rate = new AllocationRate(10);
        long t0 = System.nanoTime();
        rate.nextInterval();
        assertIntervalAtLeastThisThreadsRate(rate, t0);
    }

    /**
     * Allocates for 200 ms; the next interval is at least what this thread allocated (others only add) per second, over
     * 10 samples/s. The seconds are counted from t0, taken before the rate's window opened, to after it closed: a busy
     * machine that pauses this thread between the two only makes the rate's window the shorter.
     */
    private static void assertIntervalAtLeastThisThreadsRate(AllocationRate rate, long t0) {
        long start = System.nanoTime();
        long bytes = 0;
        while (System.nanoTime() - start < 200_000_000L) {
            sink = new byte[64 * 1024];
            bytes += 64 * 1024;
        }
        long interval = rate.nextInterval();
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertTrue(interval >= 0.8 * bytes / seconds / 10, "interval " + interval + " for " + bytes + " B in " + seconds + " s");
    }

    @Test
    void measuresOnlySinceTheMarkSoABurstBeforeItDoesNotCount() throws Exception {
        AllocationRate rate = new AllocationRate(10);
        rate.nextInterval();
        // a burst like a start-up's: ~400 MB at once
        for (int i = 0; i < 400; i++) {
            sink = new byte[1024 * 1024];
        }
        rate.mark();
        Thread.sleep(500);
        long quiet = rate.nextInterval();
        // without the mark the burst alone would be ~400 MB / 0.5 s / 10 = 80 MB; a test JVM idling beside it allocates
        // far less than 40 MB/s
        assertTrue(quiet < 4 * 1024 * 1024, "interval " + quiet + " after a quiet half second");

        // and the other way: a quiet start, then steady allocation after the mark
        rate.nextInterval();
        Thread.sleep(300);
        long t0 = System.nanoTime();
        rate.mark();
        assertIntervalAtLeastThisThreadsRate(rate, t0); // measured over the 0.3 s before the mark too, it would be ~0.4 of that
    }
}
