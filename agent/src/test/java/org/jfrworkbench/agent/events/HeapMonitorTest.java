package org.jfrworkbench.agent.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The heap events written after every GC, and the wait a chunk rotation does so that live objects are reported right after a GC. */
class HeapMonitorTest {
    @Test
    void everyGcGetsAHeapSummaryAndItsPoolsFromTheNotification(@TempDir Path tmp) throws Exception {
        HeapMonitor monitor = new HeapMonitor();
        Path file = tmp.resolve("heap.jfr");
        try (Recording recording = new Recording()) {
            recording.enable("workbench.HeapSummary");
            recording.enable("workbench.MemoryPoolSummary");
            recording.start();
            monitor.start();
            for (int i = 0; i < 3; i++) {
                // a GC per round until one's notification reaches the monitor (one may end before the wait begins)
                java.util.concurrent.atomic.AtomicBoolean notified = new java.util.concurrent.atomic.AtomicBoolean();
                Thread waiter = new Thread(() -> {
                    try {
                        notified.set(monitor.awaitNextGc(30_000));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                waiter.start();
                long deadline = System.nanoTime() + 30_000_000_000L;
                while (waiter.isAlive() && System.nanoTime() < deadline) {
                    System.gc();
                    waiter.join(100);
                }
                assertTrue(notified.get(), "GC round " + i + " was notified");
            }
            monitor.stop();
            recording.stop();
            recording.dump(file);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(file);
        List<RecordedEvent> heap = events.stream().filter(e -> e.getEventType().getName().equals("workbench.HeapSummary")).toList();
        assertTrue(heap.size() >= 3, "a summary per GC: " + heap.size());
        long maxHeap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getMax();
        for (RecordedEvent h : heap) {
            long gcId = h.getLong("gcId");
            List<RecordedEvent> pools = events.stream().filter(e -> e.getEventType().getName().equals("workbench.MemoryPoolSummary")
                    && e.getLong("gcId") == gcId && e.getString("gcName").equals(h.getString("gcName"))).toList();
            assertFalse(pools.isEmpty(), "pool summaries of GC " + gcId);
            assertEquals(h.getLong("usedBefore"), pools.stream().mapToLong(p -> p.getLong("usedBefore")).sum());
            assertEquals(h.getLong("usedAfter"), pools.stream().mapToLong(p -> p.getLong("usedAfter")).sum());
            assertEquals(h.getLong("committedAfter"), pools.stream().mapToLong(p -> p.getLong("committedAfter")).sum());
            assertTrue(h.getLong("usedAfter") > 0 && h.getLong("committedAfter") >= h.getLong("usedAfter"), h.toString());
            assertEquals(maxHeap, h.getLong("maxHeap"));
            assertFalse(h.getString("gcCause").isEmpty());
            assertTrue(h.getString("gcAction").startsWith("end of"), h.getString("gcAction"));
            assertTrue(h.getLong("gcStartMillis") >= ManagementFactory.getRuntimeMXBean().getStartTime(), h.toString());
        }
    }

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
