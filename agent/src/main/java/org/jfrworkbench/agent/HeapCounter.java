package org.jfrworkbench.agent;

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
import javax.management.openmbean.TabularData;
import jdk.jfr.Recording;

/**
 * {@code heap-count=auto}: the JVM's exact heap by class (jdk.ObjectCountAfterGC) at no more than one counting
 * collection per chunk, and only while the live heap is at most a bound.
 *
 * <p>The count walks every object inside the pause that writes it (full collections, G1's remarks), so its cost follows
 * the live objects. Their bytes are estimated by the heap used after the last full collection (the live set then) or,
 * when the last GC left less, after that one (a young GC's leaves the old generation's garbage in: an upper bound).
 * Below the bound, a recording of its own enables the event: the JDK recorder writes an event into every recording
 * running at the time, so the count lands in the chunk's JDK recording too, with either engine. It is armed at a chunk's
 * start and after every full collection that was not counted, as long as the chunk has no count yet; the notification
 * of the first collection that counts closes that recording again. The collections that count are those of every
 * collector but the young ones; ZGC writes no count. G1's remark counts too and is notified from JDK 20 on (the bean
 * "G1 Concurrent GC"); before, it is not, so an armed G1 JVM would count at every remark: there the count is never armed.
 */
final class HeapCounter implements NotificationListener {
    static final String EVENT = "jdk.ObjectCountAfterGC";

    private final long maxLiveBytes;
    private final List<GarbageCollectorMXBean> counting = new ArrayList<>();
    private final List<GarbageCollectorMXBean> all = ManagementFactory.getGarbageCollectorMXBeans();
    private final String[] heapPools;
    /** Arms after a collection off the notification thread, inside the exit guard. */
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "workbench-heap-count");
        t.setDaemon(true);
        return t;
    });
    /**
     * The recording that enables the count while one is awaited (and holds nothing else), started at the first arming:
     * switching its setting takes effect at once, where closing a recording would end the JDK recorder's chunk first.
     */
    private Recording counts;
    private boolean armed;
    /** When it was armed, in milliseconds since the JVM started (the clock of the notifications' GC times). */
    private long armedAt;
    /** Whether a collection was counted in the current chunk. */
    private boolean countedInChunk;
    /** The heap used after the last full collection, -1 before one. */
    private long usedAfterFull = -1;
    private boolean listening;
    private boolean stopped;

    HeapCounter(long maxLiveBytes) {
        this.maxLiveBytes = maxLiveBytes;
        List<String> pools = new ArrayList<>();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                pools.add(pool.getName());
            }
        }
        heapPools = pools.toArray(String[]::new);
        boolean g1 = false;
        boolean remarksNotified = false;
        for (GarbageCollectorMXBean gc : all) {
            g1 |= gc.getName().startsWith("G1 ");
            remarksNotified |= gc.getName().equals("G1 Concurrent GC");
            if (gc.getName().startsWith("ZGC")) {
                return; // ZGC writes no count: nothing to arm for
            }
        }
        if (g1 && !remarksNotified) {
            return;
        }
        for (GarbageCollectorMXBean gc : all) {
            if (countingCollector(gc.getName()) && gc instanceof NotificationEmitter) {
                counting.add(gc);
            }
        }
    }

    /** Whether the collector's pauses may write the count: all but the young collectors (G1, Parallel, Serial, ParNew). */
    static boolean countingCollector(String name) {
        return !name.equals("G1 Young Generation") && !name.equals("PS Scavenge") && !name.equals("Copy") && !name.equals("ParNew");
    }

    /** Full collections: after them the heap used is the live set. */
    static boolean fullCollector(String name) {
        return name.equals("G1 Old Generation") || name.equals("PS MarkSweep") || name.equals("MarkSweepCompact");
    }

    /** Whether this JVM's collector can be counted here at all. */
    boolean applies() {
        return !counting.isEmpty();
    }

    /**
     * At a chunk's start: arms a count when none is awaited and the live heap is below the bound; disarms an awaited one
     * (none counted in the chunk before) when the heap has grown above it. Called where a JDK recording may start (not
     * while the JVM exits: {@link ExitGuard}).
     */
    synchronized void chunkStarted() {
        if (stopped || counting.isEmpty()) {
            return;
        }
        if (!listening) {
            for (GarbageCollectorMXBean gc : counting) {
                ((NotificationEmitter) gc).addNotificationListener(this, null, null);
            }
            listening = true;
        }
        countedInChunk = false;
        long live = liveEstimate(usedAfterLastGc());
        if (live > maxLiveBytes) {
            if (armed) {
                disarm();
            }
        } else if (!armed) {
            arm();
        }
    }

    private long liveEstimate(long usedAfterLast) {
        return usedAfterFull < 0 ? usedAfterLast : Math.min(usedAfterFull, usedAfterLast);
    }

    private void arm() {
        armedAt = ManagementFactory.getRuntimeMXBean().getUptime();
        if (counts == null) {
            Recording r = new Recording(Map.of(EVENT + "#enabled", "true"));
            r.setName("workbench-agent-heap-count");
            r.setToDisk(false);
            r.start();
            counts = r;
        } else {
            counts.enable(EVENT);
        }
        armed = true;
    }

    @Override
    public void handleNotification(Notification notification, Object handback) {
        try {
            CompositeData info = (CompositeData) notification.getUserData();
            CompositeData gc = (CompositeData) info.get("gcInfo");
            boolean full = fullCollector((String) info.get("gcName"));
            long usedAfter = full ? usedAfter((TabularData) gc.get("memoryUsageAfterGc")) : -1;
            synchronized (this) {
                if (full) {
                    usedAfterFull = usedAfter;
                }
                // notifications come after the fact: one of a collection that ended before the arming counted nothing
                if (armed && (Long) gc.get("endTime") >= armedAt) {
                    countedInChunk = true;
                    disarm(); // this collection counted: no other in this chunk, and at once, before the next one
                } else if (!armed && full && !countedInChunk && !stopped && usedAfter <= maxLiveBytes) {
                    worker.execute(this::armAfterCollection); // the live set is known small now: count the next one
                }
            }
        } catch (Throwable t) {
            Log.failureOnce("heap-count", "could not follow the collections for the heap count", t);
        }
    }

    private void armAfterCollection() {
        try {
            ExitGuard.runUnlessExiting(() -> {
                synchronized (this) {
                    if (!armed && !countedInChunk && !stopped) {
                        arm();
                    }
                }
            });
        } catch (Throwable t) {
            Log.failureOnce("heap-count-arm", "could not arm the heap count; chunks go on without it", t);
        }
    }

    /** Ends the awaited count. */
    private void disarm() {
        armed = false;
        counts.disable(EVENT);
    }

    /** Ends listening and any awaited count. */
    void stop() {
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
            armed = false;
            if (counts != null) {
                try {
                    counts.close();
                } catch (RuntimeException e) {
                    // stopped by the JDK's own shutdown hook already
                }
                counts = null;
            }
        }
        worker.shutdown();
        try {
            worker.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private long usedAfter(TabularData after) {
        long used = 0;
        for (String pool : heapPools) {
            CompositeData row = after.get(new Object[] {pool});
            used += row == null ? 0 : MemoryUsage.from((CompositeData) row.get("value")).getUsed();
        }
        return used;
    }

    /** The heap used after the latest GC of any collector (the whole heap in use where none ran yet). */
    private long usedAfterLastGc() {
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
