package org.jfrworkbench.agent.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The heap events written after every GC, and the wait a chunk rotation does so that live objects are reported right after a GC. */
class HeapMonitorTest {
    @Test
    void everyGcGetsAHeapSummaryAndItsPoolsFromTheNotification(@TempDir Path tmp) throws Exception {
        HeapMonitor monitor = new HeapMonitor(HeapMonitor.DEFAULT_MAX_PER_SECOND);
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
                        notified.set(monitor.awaitNextGc(300_000) != null);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                waiter.start();
                long deadline = System.nanoTime() + 300_000_000_000L; // only a stuck wait gets there
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
            assertEquals(1, h.getLong("collections"), "one GC per summary at a few GCs a second");
            assertFalse(h.getString("gcCause").isEmpty());
            assertTrue(h.getString("gcAction").startsWith("end of"), h.getString("gcAction"));
            assertTrue(h.getLong("gcStartMillis") >= ManagementFactory.getRuntimeMXBean().getStartTime(), h.toString());
        }
    }

    @Test
    void aboveItsLimitTheMonitorSamplesTheCollectorsAndCountsEveryGcThenListensAgain(@TempDir Path tmp) throws Exception {
        HeapMonitor monitor = new HeapMonitor(2);
        Path file = tmp.resolve("sampled.jfr");
        Map<String, Long> before = collectionCounts();
        int gcs = 0;
        Map<String, Long> afterBurst;
        try (Recording recording = new Recording()) {
            recording.enable("workbench.HeapSummary");
            recording.enable("workbench.MemoryPoolSummary");
            recording.start();
            monitor.start();
            assertTrue(monitor.listening());
            // ~20 GCs a second, ten times the limit, until the monitor samples and 40 GCs were asked for (a count, not a
            // time: a busy machine makes them slower, not fewer); the bound only ends a stuck run
            long stuck = System.nanoTime() + 300_000_000_000L;
            while ((monitor.listening() || gcs < 40) && System.nanoTime() < stuck) {
                System.gc();
                gcs++;
                Thread.sleep(50);
            }
            assertFalse(monitor.listening(), "sampling after " + gcs + " GCs");
            afterBurst = collectionCounts();
            // the last look was up to a second ago: the JDK recorder calls the monitor as it ends the chunk, so the
            // recording's stop alone (nothing else asks the monitor) counts the GCs since then in this chunk
            recording.stop();
            recording.dump(file);
        }
        List<RecordedEvent> heap = heapSummaries(file);
        assertTrue(heap.size() < gcs / 2, heap.size() + " summaries for " + gcs + " GCs: sampled, not one each");
        assertTrue(heap.stream().anyMatch(h -> h.getLong("collections") > 1), "a sampled summary stands for several GCs");
        assertEveryGcCountedOnce(heap, before, afterBurst);
        for (RecordedEvent h : heap) {
            assertTrue(h.getLong("usedAfter") > 0 && h.getLong("committedAfter") >= h.getLong("usedAfter"), h.toString());
        }
        // collections slow down: after a quiet 2 s rate window the monitor listens to the notifications again
        long quiet = System.nanoTime() + 300_000_000_000L;
        while (!monitor.listening() && System.nanoTime() < quiet) {
            Thread.sleep(50);
        }
        assertTrue(monitor.listening(), "listening again once GCs are rare");
        assertEquals(afterBurst, collectionCounts(), "no GC while quiet");
        monitor.stop();
    }

    @Test
    void aStoppedMonitorCanStartAgain() {
        // its chunk-end hook is registered with the JDK recorder at start and removed at stop (twice would be refused)
        HeapMonitor monitor = new HeapMonitor(1);
        for (int i = 0; i < 2; i++) {
            monitor.start();
            monitor.stop();
        }
    }

    private static List<RecordedEvent> heapSummaries(Path file) throws java.io.IOException {
        return RecordingFile.readAllEvents(file).stream().filter(e -> e.getEventType().getName().equals("workbench.HeapSummary")).toList();
    }

    /** The summaries' {@code collections} add up to each collector's GCs between the two counts. */
    private static void assertEveryGcCountedOnce(List<RecordedEvent> heap, Map<String, Long> before, Map<String, Long> after) {
        for (Map.Entry<String, Long> c : after.entrySet()) {
            long summarized = heap.stream().filter(h -> h.getString("gcName").equals(c.getKey())).mapToLong(h -> h.getLong("collections")).sum();
            assertEquals(c.getValue() - before.get(c.getKey()), summarized, "every GC of " + c.getKey() + " counted once");
        }
    }

    private static Map<String, Long> collectionCounts() {
        Map<String, Long> counts = new java.util.TreeMap<>();
        for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            counts.put(gc.getName(), Math.max(0, gc.getCollectionCount()));
        }
        return counts;
    }

    @Test
    void awaitNextGcReturnsOnceAGcNotificationIsHandled() throws Exception {
        HeapMonitor monitor = new HeapMonitor(HeapMonitor.DEFAULT_MAX_PER_SECOND);
        monitor.start();
        try {
            java.util.concurrent.atomic.AtomicBoolean waited = new java.util.concurrent.atomic.AtomicBoolean();
            // GCs until the wait has ended, so one comes after the wait began however late a busy machine starts it
            Thread gc = new Thread(() -> {
                while (!waited.get()) {
                    System.gc();
                    try {
                        Thread.sleep(50);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            gc.start();
            try {
                HeapMonitor.Collection seen = monitor.awaitNextGc(300_000);
                assertTrue(seen != null, "the GC's notification ends the wait, not its bound");
                // the collection named is one of this JVM's collectors' and collects, with an id it has reached
                com.sun.management.GarbageCollectorMXBean bean = java.lang.management.ManagementFactory
                        .getPlatformMXBeans(com.sun.management.GarbageCollectorMXBean.class).stream()
                        .filter(b -> b.getName().equals(seen.gcName())).findFirst().orElseThrow();
                assertTrue(HeapMonitor.collecting(seen.gcName()), seen.toString());
                assertTrue(seen.gcId() >= 1 && seen.gcId() <= bean.getCollectionCount(), seen.toString());
            } finally {
                waited.set(true);
                gc.join();
            }
        } finally {
            monitor.stop();
        }
    }

    @Test
    void onlyCollectorsThatCollectEndAWaitForTheNextGc() {
        for (String name : new String[] {"G1 Young Generation", "G1 Old Generation", "PS Scavenge", "PS MarkSweep", "Copy",
                "MarkSweepCompact", "ZGC Cycles", "ZGC Minor Cycles", "ZGC Major Cycles", "Shenandoah Cycles"}) {
            assertTrue(HeapMonitor.collecting(name), name);
        }
        for (String name : new String[] {"G1 Concurrent GC", "ZGC Pauses", "ZGC Minor Pauses", "ZGC Major Pauses", "Shenandoah Pauses"}) {
            assertFalse(HeapMonitor.collecting(name), name);
        }
    }

    @Test
    void withoutAnyGcTheWaitTimesOut() throws Exception {
        HeapMonitor monitor = new HeapMonitor(HeapMonitor.DEFAULT_MAX_PER_SECOND); // not started: it watches the collection counts
        long t0 = System.nanoTime();
        assertNull(monitor.awaitNextGc(200));
        assertTrue((System.nanoTime() - t0) / 1_000_000 >= 190, "waited its bound");
    }
}
