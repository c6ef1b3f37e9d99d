package org.jfrworkbench.agent.events;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;
import org.jfrworkbench.agent.Log;

/** Writes a HeapSummary and one MemoryPoolSummary per heap pool after every GC, from the GC notifications. */
public final class HeapMonitor implements NotificationListener {
    private final Set<String> heapPools = new HashSet<>();
    private final long jvmStartMillis = ManagementFactory.getRuntimeMXBean().getStartTime();
    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final Object gcSignal = new Object();
    private long gcCount;

    public void start() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                heapPools.add(pool.getName());
            }
        }
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener(this, null, null);
                emitters.add(emitter);
            }
        }
    }

    public void stop() {
        for (NotificationEmitter emitter : emitters) {
            try {
                emitter.removeNotificationListener(this);
            } catch (ListenerNotFoundException ignored) {
                // already gone
            }
        }
        emitters.clear();
    }

    @Override
    public void handleNotification(Notification notification, Object handback) {
        try {
            if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
                record((CompositeData) notification.getUserData());
                synchronized (gcSignal) {
                    gcCount++;
                    gcSignal.notifyAll();
                }
            }
        } catch (Throwable t) {
            Log.failureOnce("heap-monitor", "could not record a GC heap summary", t);
        }
    }

    /** Waits until the next GC's notification has been handled, at most timeoutMillis; true if one came. */
    public boolean awaitNextGc(long timeoutMillis) throws InterruptedException {
        synchronized (gcSignal) {
            long seen = gcCount;
            long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
            long left = timeoutMillis;
            while (gcCount == seen && left > 0) {
                gcSignal.wait(left);
                left = (deadline - System.nanoTime()) / 1_000_000;
            }
            return gcCount != seen;
        }
    }

    /**
     * Reads the notification's open data directly: {@code GarbageCollectionNotificationInfo.from} rebuilds a GcInfo with
     * maps of every pool (memory and non-memory) from it, and {@code ManagementFactory.getMemoryMXBean()} searches
     * the platform beans with streams; at ~20 GCs/s those were most of this listener's cost (profiled; the rest is
     * the JDK building the notification, which any listener pays).
     */
    private void record(CompositeData info) {
        CompositeData gc = (CompositeData) info.get("gcInfo");
        String gcName = (String) info.get("gcName");
        long gcId = (Long) gc.get("id");
        TabularData before = (TabularData) gc.get("memoryUsageBeforeGc");
        TabularData after = (TabularData) gc.get("memoryUsageAfterGc");
        long usedBefore = 0;
        long usedAfter = 0;
        long committedAfter = 0;
        for (Object row : after.values()) {
            CompositeData entry = (CompositeData) row;
            String pool = (String) entry.get("key");
            if (!heapPools.contains(pool)) {
                continue;
            }
            CompositeData a = (CompositeData) entry.get("value");
            CompositeData beforeRow = before.get(new Object[] {pool});
            long poolBefore = beforeRow == null ? 0 : (Long) ((CompositeData) beforeRow.get("value")).get("used");
            long poolAfter = (Long) a.get("used");
            long poolCommitted = (Long) a.get("committed");
            usedBefore += poolBefore;
            usedAfter += poolAfter;
            committedAfter += poolCommitted;
            MemoryPoolSummaryEvent event = new MemoryPoolSummaryEvent();
            event.gcId = gcId;
            event.gcName = gcName;
            event.pool = pool;
            event.usedBefore = poolBefore;
            event.usedAfter = poolAfter;
            event.committedAfter = poolCommitted;
            event.commit();
        }
        HeapSummaryEvent event = new HeapSummaryEvent();
        event.gcId = gcId;
        event.gcName = gcName;
        event.gcCause = (String) info.get("gcCause");
        event.gcAction = (String) info.get("gcAction");
        event.gcStartMillis = jvmStartMillis + (Long) gc.get("startTime");
        event.gcDurationMillis = (Long) gc.get("duration");
        event.usedBefore = usedBefore;
        event.usedAfter = usedAfter;
        event.committedAfter = committedAfter;
        event.maxHeap = memory.getHeapMemoryUsage().getMax();
        event.commit();
    }
}
