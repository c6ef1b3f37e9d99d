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

    /**
     * The mark's window, on a byte count and clock the test sets: exact figures, and no waiting for a quiet machine (the
     * JVM's own count is measured above).
     */
    @Test
    void measuresOnlySinceTheMarkSoABurstBeforeItDoesNotCount() {
        long[] bytes = {0};
        long[] nanos = {0};
        AllocationRate rate = new AllocationRate(10, () -> bytes[0], () -> nanos[0]);
        rate.nextInterval();
        // a burst like a start-up's: 400 MB at once, then a quiet half second with 1 MB after the mark
        bytes[0] += 400L << 20;
        nanos[0] += 1_000_000;
        rate.mark();
        nanos[0] += 500_000_000;
        bytes[0] += 1L << 20;
        // 1 MB / 0.5 s / 10 samples/s; without the mark the burst would make it ~80 MB
        assertEquals((2L << 20) / 10, rate.nextInterval());

        // and the other way: a quiet 0.3 s, then 100 MB in 0.2 s after the mark
        nanos[0] += 300_000_000;
        rate.mark();
        nanos[0] += 200_000_000;
        bytes[0] += 100L << 20;
        // 500 MB/s over 10 samples/s; measured over the 0.3 s before the mark too, it would be 0.4 of that
        assertEquals((500L << 20) / 10, rate.nextInterval());
    }
}
