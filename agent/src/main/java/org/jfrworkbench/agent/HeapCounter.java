package org.jfrworkbench.agent;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;

import org.jfrworkbench.agent.events.HeapMonitor;

/**
 * {@code heap-count=auto}: the JVM's exact heap by class (jdk.ObjectCountAfterGC) at no more than one counting
 * collection per chunk, and only while the live heap is at most a bound.
 *
 * <p>The count walks every object inside the pause that writes it (full collections, G1's remarks), so its cost follows
 * the live objects. Their bytes are estimated by the heap used after the last full collection (the live set then) or,
 * when the last GC left less, after that one (a young GC's leaves the old generation's garbage in: an upper bound).
 * Below the bound the event is switched on in the chunk's own JDK recording ({@link Switch}): at a chunk's start, and
 * after every full collection that was not counted, as long as the chunk has no count yet; the notification of the
 * first collection that counts switches it off again, before the next collection. (A second recording enabling only
 * this event would do the same, but the JDK cannot write an in-memory recording that stops while another runs: its
 * file comes out empty.) The collections that count are those of every collector but the young ones; ZGC writes no
 * count. G1 is never counted here: its concurrent cycles' remarks write the count too (taking every object allocated
 * since marking began for live, so the live heap does not use it), they come far more often than its full
 * collections and would take the chunk's one count, and before JDK 20 they are not even notified.
 */
final class HeapCounter implements NotificationListener {
    static final String EVENT = "jdk.ObjectCountAfterGC";

    /** Switches the event on or off in the chunk's JDK recording. */
    interface Switch {
        void set(boolean on) throws Exception;
    }

    private final long maxLiveBytes;
    private final Switch eventSwitch;
    private final List<GarbageCollectorMXBean> counting = new ArrayList<>();
    private final List<GarbageCollectorMXBean> all = ManagementFactory.getGarbageCollectorMXBeans();
    private final String[] heapPools;
    /** Whether the event is on, awaiting a count. */
    private boolean armed;
    /**
     * Per counting collector, its collections when the count was switched on: a notified collection of a higher id (its
     * collector's count at it) came after. (The notifications' GC times run on a clock of their own, behind uptime's.)
     */
    private long[] armedAt = new long[0];
    /** Whether a chunk was started (the switch has a recording to act on) and whether one of its collections was counted. */
    private boolean inChunk;
    private boolean countedInChunk;
    /** The heap used after the last full collection, -1 before one. */
    private long usedAfterFull = -1;
    private boolean listening;
    private boolean stopped;
    /** Why this JVM is not counted ({@link #applies}), for the log; null where it is. */
    private String notCounted;

    HeapCounter(long maxLiveBytes, Switch eventSwitch) {
        this.maxLiveBytes = maxLiveBytes;
        this.eventSwitch = eventSwitch;
        heapPools = HeapMonitor.heapPoolNames();
        for (GarbageCollectorMXBean gc : all) {
            if (gc.getName().startsWith("ZGC")) {
                notCounted = "ZGC writes no count";
                return;
            }
            if (gc.getName().startsWith("G1 ")) {
                // a concurrent cycle's remark, far more frequent than G1's full collections, would take the chunk's one
                // count: a walk of the heap inside that pause for a count the live heap does not use
                notCounted = "G1 writes the count at its remarks too, which the live heap does not use; heap-count=true counts its full collections";
                return;
            }
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

    /** Why not, where it cannot. */
    String whyNot() {
        return notCounted == null ? "no collector of this JVM writes the count" : notCounted;
    }

    /**
     * Listens to the counting collectors, before the first chunk's recording starts: a listener added later than the
     * application's own would hear of a collection after it (the notifications go to the listeners in turn).
     */
    synchronized void start() {
        if (!listening && !counting.isEmpty()) {
            for (GarbageCollectorMXBean gc : counting) {
                ((NotificationEmitter) gc).addNotificationListener(this, null, null);
            }
            listening = true;
        }
    }

    /**
     * At a chunk's start, its JDK recording started with the event off: switches it on when the live heap is below the
     * bound. Called inside the {@link ExitGuard}, as everything here that switches (it takes the JDK recorder's lock).
     */
    synchronized void chunkStarted() throws Exception {
        if (stopped || !listening) {
            return;
        }
        inChunk = true;
        countedInChunk = false;
        armed = false;
        if (liveEstimate(usedAfterLastGc()) <= maxLiveBytes) {
            arm();
        }
    }

    private long liveEstimate(long usedAfterLast) {
        return usedAfterFull < 0 ? usedAfterLast : Math.min(usedAfterFull, usedAfterLast);
    }

    private void arm() throws Exception {
        if (armedAt.length != counting.size()) {
            armedAt = new long[counting.size()];
        }
        for (int i = 0; i < counting.size(); i++) {
            armedAt[i] = counting.get(i).getCollectionCount();
        }
        armed = true;
        eventSwitch.set(true);
    }

    @Override
    public void handleNotification(Notification notification, Object handback) {
        try {
            CompositeData info = (CompositeData) notification.getUserData();
            CompositeData gc = (CompositeData) info.get("gcInfo");
            String name = (String) info.get("gcName");
            long id = (Long) gc.get("id");
            boolean full = fullCollector(name);
            TabularData after = (TabularData) gc.get("memoryUsageAfterGc");
            long usedAfter = full ? HeapMonitor.used(heapPools, pool -> HeapMonitor.usage(after, pool)) : -1;
            // the guard first, as at a chunk's start: JVM exit holds it while the agent's shutdown hook waits for this monitor
            ExitGuard.runUnlessExiting(() -> {
                synchronized (this) {
                    if (full) {
                        usedAfterFull = usedAfter;
                    }
                    if (stopped) {
                        return;
                    }
                    // notifications come after the fact: one of a collection from before the switch counted nothing
                    if (armed && id > armedAt(name)) {
                        armed = false;
                        countedInChunk = true;
                        eventSwitch.set(false); // this collection counted: no other in this chunk
                    } else if (!armed && full && inChunk && !countedInChunk && usedAfter <= maxLiveBytes) {
                        arm(); // the live set is known small now: count the next collection
                    }
                }
            });
        } catch (Throwable t) {
            Log.failureOnce("heap-count", "could not switch the heap count", t);
        }
    }

    private long armedAt(String collector) {
        for (int i = 0; i < counting.size() && i < armedAt.length; i++) {
            if (counting.get(i).getName().equals(collector)) {
                return armedAt[i];
            }
        }
        return Long.MAX_VALUE;
    }

    /** Stops listening; the chunk's recording, about to stop, keeps its setting. */
    synchronized void stop() {
        stopped = true;
        armed = false;
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
        return HeapMonitor.used(heapPools, latest.getMemoryUsageAfterGc()::get);
    }
}
