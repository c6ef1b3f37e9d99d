package org.jfrworkbench.agent.events;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The wait a chunk rotation does before closing, so that live objects are reported right after a GC. */
class HeapMonitorTest {
    @Test
    void awaitNextGcReturnsOnceAGcNotificationIsHandled() throws Exception {
        HeapMonitor monitor = new HeapMonitor();
        monitor.start();
        try {
            Thread gc = new Thread(() -> {
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    return;
                }
                System.gc();
            });
            gc.start();
            long t0 = System.nanoTime();
            assertTrue(monitor.awaitNextGc(30_000), "the GC's notification ends the wait");
            assertTrue(System.nanoTime() - t0 < 20_000_000_000L, "well before the bound");
            gc.join();
        } finally {
            monitor.stop();
        }
    }

    @Test
    void withoutAnyGcTheWaitTimesOut() throws Exception {
        HeapMonitor monitor = new HeapMonitor(); // not started: no notifications reach it
        long t0 = System.nanoTime();
        assertFalse(monitor.awaitNextGc(200));
        assertTrue((System.nanoTime() - t0) / 1_000_000 >= 190, "waited its bound");
    }
}
