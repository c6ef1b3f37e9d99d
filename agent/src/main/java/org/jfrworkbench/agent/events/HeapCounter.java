package org.jfrworkbench.agent.events;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import jdk.jfr.Recording;
import org.jfrworkbench.agent.Log;

/**
 * {@code heap-count=auto}: the JVM's exact heap by class (jdk.ObjectCountAfterGC) at no more than one counting
 * collection per chunk, and only while the heap used after the last GC is at most a bound.
 *
 * <p>The count walks every live object inside the pause that writes it (full collections, G1's remarks), so its cost
 * follows the live objects; the heap used after the last GC bounds them. At a chunk's start ({@link #chunkStarted}),
 * below the bound, a recording of its own enables the event: the JDK recorder writes an event into every recording
 * running at the time, so the count lands in the chunk's JDK recording too, with either engine. The first notification
 * of a collector whose pauses count (any but the young collectors; ZGC writes no count, so it is never armed) closes
 * that recording again. G1's remark is notified from JDK 20 on (the bean "G1 Concurrent GC"); before, a G1 JVM armed
 * counts at every remark until its next full collection or the chunk's end.
 */
public final class HeapCounter implements NotificationListener {
    static final String EVENT = "jdk.ObjectCountAfterGC";

    private final long maxUsedAfter;
    private final List<GarbageCollectorMXBean> counting = new ArrayList<>();
    private final List<GarbageCollectorMXBean> all = ManagementFactory.getGarbageCollectorMXBeans();
    private final String[] heapPools;
    /** Closes a recording off the notification thread: closing takes the JDK recorder's lock. */
    private final ExecutorService closer = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "workbench-heap-count");
        t.setDaemon(true);
        return t;
    });
    /** The recording that enables the count while one is awaited; null otherwise. */
    private Recording armed;
    /** When it was armed, in milliseconds since the JVM started (the clock of the notifications' GC times). */
    private long armedAt;
    private boolean listening;
    private boolean stopped;

    public HeapCounter(long maxUsedAfter) {
        this.maxUsedAfter = maxUsedAfter;
        List<String> pools = new ArrayList<>();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                pools.add(pool.getName());
            }
        }
        heapPools = pools.toArray(String[]::new);
        for (GarbageCollectorMXBean gc : all) {
            if (gc.getName().startsWith("ZGC")) {
                counting.clear();
                return; // ZGC writes no count: nothing to arm for
            }
            if (countingCollector(gc.getName()) && gc instanceof NotificationEmitter) {
                counting.add(gc);
            }
        }
    }

    /** Whether the collector's pauses may write the count: all but the young collectors (G1, Parallel, Serial, ParNew). */
    static boolean countingCollector(String name) {
        return !name.equals("G1 Young Generation") && !name.equals("PS Scavenge") && !name.equals("Copy") && !name.equals("ParNew");
    }

    /**
     * At a chunk's start: arms a count when none is awaited and the heap is below the bound; disarms an awaited one
     * (no collection counted in the chunk before) when the heap has grown above it. Called where a JDK recording may
     * start (not while the JVM exits).
     */
    public synchronized void chunkStarted() {
        if (stopped || counting.isEmpty()) {
            return;
        }
        long used = usedAfterLastGc();
        if (used > maxUsedAfter) {
            if (armed != null) {
                Log.info("heap count off: the heap used after the last GC (" + (used >> 20) + " MB) is above heap-count-max");
                disarm();
            }
            return;
        }
        if (armed != null) {
            return;
        }
        if (!listening) {
            for (GarbageCollectorMXBean gc : counting) {
                ((NotificationEmitter) gc).addNotificationListener(this, null, null);
            }
            listening = true;
        }
        Recording r = new Recording(Map.of(EVENT + "#enabled", "true"));
        r.setName("workbench-agent-heap-count");
        r.setToDisk(false);
        armedAt = ManagementFactory.getRuntimeMXBean().getUptime();
        r.start();
        armed = r;
    }

    @Override
    public void handleNotification(Notification notification, Object handback) {
        try {
            CompositeData gc = (CompositeData) ((CompositeData) notification.getUserData()).get("gcInfo");
            synchronized (this) {
                // notifications come after the fact: one of a collection that ended before the arming counted nothing
                if (armed != null && (Long) gc.get("endTime") >= armedAt) {
                    disarm(); // this collection counted: no other until the next chunk
                }
            }
        } catch (Throwable t) {
            Log.failureOnce("heap-count", "could not end a heap count", t);
        }
    }

    /** Ends the awaited count; the recording is closed on {@link #closer}. */
    private void disarm() {
        Recording r = armed;
        armed = null;
        closer.execute(() -> {
            try {
                r.close();
            } catch (Throwable t) {
                Log.failureOnce("heap-count-close", "could not close the heap count's recording", t);
            }
        });
    }

    /** Ends listening and any awaited count; waits briefly for the recording to close. */
    public void stop() {
        synchronized (this) {
            stopped = true;
            if (listening) {
                for (GarbageCollectorMXBean gc : counting) {
                    try {
                        ((NotificationEmitter) gc).removeNotificationListener(this);
                    } catch (ListenerNotFoundException ignored) {
                        // not listening
                    }
                }
                listening = false;
            }
            if (armed != null) {
                disarm();
            }
        }
        closer.shutdown();
        try {
            closer.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The heap used after the latest GC of any collector (the whole heap in use where none ran yet). After a young GC it
     * still holds the old generation's garbage: an upper bound of the live bytes, so the count errs towards not arming.
     */
    long usedAfterLastGc() {
        com.sun.management.GcInfo latest = null;
        for (GarbageCollectorMXBean gc : all) {
            if (gc instanceof com.sun.management.GarbageCollectorMXBean ext) {
                com.sun.management.GcInfo info = ext.getLastGcInfo();
                if (info != null && (latest == null || info.getEndTime() > latest.getEndTime())) {
                    latest = info;
                }
            }
        }
        if (latest == null) {
            return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        }
        long used = 0;
        for (String pool : heapPools) {
            MemoryUsage u = latest.getMemoryUsageAfterGc().get(pool);
            used += u == null ? 0 : u.getUsed();
        }
        return used;
    }
}
