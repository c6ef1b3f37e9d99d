package org.jfrworkbench.agent.events;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.GcInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import org.jfrworkbench.agent.Log;

/** Writes a HeapSummary and one MemoryPoolSummary per heap pool after every GC, from the GC notifications. */
public final class HeapMonitor implements NotificationListener {
    private final Set<String> heapPools = new HashSet<>();
    private final long jvmStartMillis = ManagementFactory.getRuntimeMXBean().getStartTime();
    private final List<NotificationEmitter> emitters = new ArrayList<>();
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
                record(GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData()));
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

    private void record(GarbageCollectionNotificationInfo info) {
        GcInfo gc = info.getGcInfo();
        Map<String, MemoryUsage> before = gc.getMemoryUsageBeforeGc();
        Map<String, MemoryUsage> after = gc.getMemoryUsageAfterGc();
        long usedBefore = 0;
        long usedAfter = 0;
        long committedAfter = 0;
        for (Map.Entry<String, MemoryUsage> e : after.entrySet()) {
            if (!heapPools.contains(e.getKey())) {
                continue;
            }
            MemoryUsage b = before.get(e.getKey());
            MemoryUsage a = e.getValue();
            usedBefore += b == null ? 0 : b.getUsed();
            usedAfter += a.getUsed();
            committedAfter += a.getCommitted();
            MemoryPoolSummaryEvent pool = new MemoryPoolSummaryEvent();
            pool.gcId = gc.getId();
            pool.gcName = info.getGcName();
            pool.pool = e.getKey();
            pool.usedBefore = b == null ? 0 : b.getUsed();
            pool.usedAfter = a.getUsed();
            pool.committedAfter = a.getCommitted();
            pool.commit();
        }
        HeapSummaryEvent event = new HeapSummaryEvent();
        event.gcId = gc.getId();
        event.gcName = info.getGcName();
        event.gcCause = info.getGcCause();
        event.gcAction = info.getGcAction();
        event.gcStartMillis = jvmStartMillis + gc.getStartTime();
        event.gcDurationMillis = gc.getDuration();
        event.usedBefore = usedBefore;
        event.usedAfter = usedAfter;
        event.committedAfter = committedAfter;
        event.maxHeap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getMax();
        event.commit();
    }
}
