package org.jfrworkbench.agent.events;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.GcInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;
import org.jfrworkbench.agent.Log;

/**
 * Writes a HeapSummary and one MemoryPoolSummary per heap pool after every GC, from the GC notifications, as long as
 * collections come at most {@code maxPerSecond} a second.
 *
 * <p>The JDK builds a notification (open data for every memory pool) for every GC once anybody listens: nothing at a
 * few GCs a second, a noticeable share of a core for a service collecting dozens of times a second. When a second
 * brings more than {@code maxPerSecond} collections the monitor stops listening and instead looks at the collectors
 * once a second and at every chunk's end ({@link #flush}): a collector that ran since the last look gets
 * the summary of its latest GC ({@code getLastGcInfo}, no open data built), with {@code collections} saying how many
 * GCs that summary stands for (the JDK's own jdk.GCHeapSummary still records every GC). Once a second, not more
 * often: each look is cold code after a sleep. Once collections slow down to half the limit it listens
 * again. Summaries written from the collectors' last-GC info have no cause (GcInfo has none).
 */
public final class HeapMonitor implements NotificationListener {
    /** Default limit of summaries per second. */
    public static final int DEFAULT_MAX_PER_SECOND = 5;
    /** Above the limit: one look at the collectors a second. */
    static final long SAMPLE_PERIOD_MILLIS = 1000;

    private final int maxPerSecond;
    private final List<com.sun.management.GarbageCollectorMXBean> collectors = new ArrayList<>();
    private final String[] heapPools;
    private final long jvmStartMillis = ManagementFactory.getRuntimeMXBean().getStartTime();
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final Object gcSignal = new Object();
    /** Per collector: the id (= its collection count) of the last GC a summary was written for or counted in. */
    private final long[] lastId;
    /** Per collector: the action ("end of minor GC") its notifications carry; fixed per collector in HotSpot. */
    private final String[] action;
    /** Collections (not pauses within one) notified or sampled since start; what {@link #awaitNextGc} waits on while listening. */
    private long handled;
    /** The last of them (guarded by gcSignal); null before the first. */
    private Collection lastCollection;
    /** Per collector: whether its GCs collect the heap ({@link #collecting}). */
    private final boolean[] collects;
    private boolean started;
    private volatile boolean listening;
    private long windowStart;
    private int inWindow;
    private ScheduledExecutorService poller;
    private ScheduledFuture<?> polling;
    private long rateStartNanos;
    private long rateStartCount;
    /**
     * Registered with the JDK recorder as the HeapSummary event's hook at every chunk's end: the recorder calls it while
     * it stops (or rotates) a recording, after everything else in the chunk, at exit too, where the JDK's own shutdown
     * hook stops the recording before the agent's could flush.
     */
    private final Runnable chunkEnd = this::flush;
    /** Whether {@link #chunkEnd} is registered; start and stop are called by one thread at a time (the recorder's lock). */
    private volatile boolean hooked;

    /** The JVM's heap pools, by name: their used bytes after a GC add up to the heap used after it. */
    public static String[] heapPoolNames() {
        List<String> pools = new ArrayList<>();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                pools.add(pool.getName());
            }
        }
        return pools.toArray(String[]::new);
    }

    public HeapMonitor(int maxPerSecond) {
        this.maxPerSecond = maxPerSecond;
        heapPools = heapPoolNames();
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof com.sun.management.GarbageCollectorMXBean ext && gc instanceof NotificationEmitter) {
                collectors.add(ext);
            }
        }
        lastId = new long[collectors.size()];
        action = new String[collectors.size()];
        collects = new boolean[collectors.size()];
        for (int i = 0; i < collectors.size(); i++) {
            collects[i] = collecting(collectors.get(i).getName());
        }
    }

    /**
     * Whether the collector's GCs collect the heap. Not so: G1's Remark and Cleanup pauses (the bean "G1 Concurrent GC",
     * JDK 20+), which end a concurrent mark whose collecting young and mixed GCs do, and ZGC's and Shenandoah's pauses
     * ("... Pauses"), parts of a cycle that its "... Cycles" bean reports. The importer's rule for the same rows.
     */
    static boolean collecting(String collectorName) {
        return !collectorName.equals("G1 Concurrent GC") && !collectorName.endsWith(" Pauses");
    }

    public void start() {
        // First, before any thread can write a summary (registering HeapSummaryEvent while the notification thread commits
        // its first one can block both), and not while holding this monitor: the recorder calls the hook, which takes
        // it, while holding its own locks. Until started the hook does nothing.
        try {
            jdk.jfr.FlightRecorder.addPeriodicEvent(HeapSummaryEvent.class, chunkEnd);
            hooked = true;
        } catch (RuntimeException e) {
            Log.failureOnce("heap-monitor-hook", "could not register the chunk-end look; a chunk's last GCs may be summarized in the next one", e);
        }
        synchronized (this) {
            for (int i = 0; i < collectors.size(); i++) {
                lastId[i] = Math.max(0, collectors.get(i).getCollectionCount());
            }
            started = true;
            listen();
        }
    }

    public void stop() {
        if (hooked) {
            hooked = false;
            jdk.jfr.FlightRecorder.removePeriodicEvent(chunkEnd); // outside this monitor, as in start
        }
        synchronized (this) {
            started = false;
            unlisten();
            if (polling != null) {
                polling.cancel(false);
                polling = null;
            }
            if (poller != null) {
                poller.shutdownNow();
                poller = null;
            }
        }
    }

    /** Whether summaries come from every GC's notification (false: sampled from the collectors, or stopped). */
    public boolean listening() {
        return listening;
    }

    private void listen() {
        windowStart = System.nanoTime();
        inWindow = 0;
        for (com.sun.management.GarbageCollectorMXBean gc : collectors) {
            ((NotificationEmitter) gc).addNotificationListener(this, null, null);
        }
        listening = true;
        synchronized (gcSignal) {
            gcSignal.notifyAll(); // a waiter re-checks how to wait
        }
    }

    private void unlisten() {
        for (com.sun.management.GarbageCollectorMXBean gc : collectors) {
            try {
                ((NotificationEmitter) gc).removeNotificationListener(this);
            } catch (ListenerNotFoundException ignored) {
                // not listening
            }
        }
        listening = false;
        synchronized (gcSignal) {
            gcSignal.notifyAll();
        }
    }

    @Override
    public void handleNotification(Notification notification, Object handback) {
        try {
            if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
                Collection collection;
                synchronized (this) {
                    if (!listening) {
                        return; // delivered after the switch to sampling, which counts it
                    }
                    collection = recordNotification((CompositeData) notification.getUserData());
                    long now = System.nanoTime();
                    if (now - windowStart >= 1_000_000_000L) {
                        windowStart = now;
                        inWindow = 0;
                    }
                    if (++inWindow > maxPerSecond) {
                        startSampling();
                    }
                }
                if (collection != null) {
                    signalGc(collection);
                }
            }
        } catch (Throwable t) {
            Log.failureOnce("heap-monitor", "could not record a GC heap summary", t);
        }
    }

    private void signalGc(Collection collection) {
        synchronized (gcSignal) {
            handled++;
            lastCollection = collection;
            gcSignal.notifyAll();
        }
    }

    /** A collection: its collector's bean name and its id as that collector numbers them (HeapSummary's gcId). */
    public record Collection(String gcName, long gcId) {
    }

    private void startSampling() {
        unlisten();
        if (poller == null) {
            poller = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "workbench-heap-monitor");
                t.setDaemon(true);
                return t;
            });
        }
        rateStartNanos = System.nanoTime();
        rateStartCount = totalCollections();
        polling = poller.scheduleAtFixedRate(this::sampleSafely, SAMPLE_PERIOD_MILLIS, SAMPLE_PERIOD_MILLIS, TimeUnit.MILLISECONDS);
    }

    private void sampleSafely() {
        try {
            look(true);
        } catch (Throwable t) {
            Log.failureOnce("heap-monitor-sample", "could not record a sampled GC heap summary", t);
        }
    }

    /**
     * While sampling: writes the summaries of the GCs since the last look now, so that a chunk about to close accounts for
     * all of its GCs (without it, up to a second's GCs would be counted in the next chunk, or lost at exit). Nothing while
     * listening. Called by the JDK recorder at every chunk's end ({@link #chunkEnd}); never throws: the recorder's stop
     * that calls it must go on.
     */
    void flush() {
        try {
            look(false);
        } catch (Throwable t) {
            Log.failureOnce("heap-monitor-flush", "could not record the heap summaries at a chunk's end", t);
        }
    }

    /**
     * One look at the collectors while sampling: a summary of the latest GC of every collector that ran since the last
     * look; the periodic look also goes back to the notifications once collections slow down.
     */
    private void look(boolean periodic) {
        Collection recorded = null;
        synchronized (this) {
            if (!started || listening) {
                return;
            }
            for (int i = 0; i < collectors.size(); i++) {
                com.sun.management.GarbageCollectorMXBean gc = collectors.get(i);
                if (gc.getCollectionCount() > lastId[i]) {
                    GcInfo info = gc.getLastGcInfo();
                    if (info != null && info.getId() > lastId[i]) {
                        recordGcInfo(i, info);
                        if (collects[i]) {
                            recorded = new Collection(gc.getName(), info.getId());
                        }
                    }
                }
            }
            long now = System.nanoTime();
            if (periodic && now - rateStartNanos >= 2_000_000_000L) {
                long count = totalCollections();
                double perSecond = (count - rateStartCount) * 1e9 / (now - rateStartNanos);
                rateStartNanos = now;
                rateStartCount = count;
                if (perSecond <= maxPerSecond / 2.0) {
                    polling.cancel(false);
                    polling = null;
                    listen();
                }
            }
        }
        if (recorded != null) {
            signalGc(recorded);
        }
    }

    /** GCs of every collector: the rate the monitor switches on. */
    private long totalCollections() {
        long n = 0;
        for (com.sun.management.GarbageCollectorMXBean gc : collectors) {
            n += Math.max(0, gc.getCollectionCount());
        }
        return n;
    }

    /** Per collector, its collections so far; 0 for those whose GCs do not collect ({@link #collecting}). */
    private long[] collectingCounts() {
        long[] counts = new long[collectors.size()];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = collects[i] ? Math.max(0, collectors.get(i).getCollectionCount()) : 0;
        }
        return counts;
    }

    /** A collection counted since counts ({@link #collectingCounts}): the collector's latest, its count as its id. */
    private Collection countedSince(long[] counts) {
        for (int i = 0; i < counts.length; i++) {
            long now = collects[i] ? Math.max(0, collectors.get(i).getCollectionCount()) : 0;
            if (now > counts[i]) {
                return new Collection(collectors.get(i).getName(), now);
            }
        }
        return null;
    }

    /**
     * Waits until the next collection has been seen, at most timeoutMillis; that collection, or null if none came.
     * While listening that is
     * the next notification of a collecting collector handled (its summary is written); otherwise such a collector's
     * count going up (checked every millisecond: the sampled summary may come up to one sampling period later).
     * G1's Remark and Cleanup and ZGC's pauses do not end the wait ({@link #collecting}): after them the sampled objects
     * allocated since the last collection are still uncollected.
     */
    public Collection awaitNextGc(long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
        long[] counts = collectingCounts();
        synchronized (gcSignal) {
            long seen = handled;
            while (true) {
                if (handled != seen) {
                    return lastCollection;
                }
                boolean counting = !listening();
                Collection counted = counting ? countedSince(counts) : null;
                if (counted != null) {
                    return counted;
                }
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left <= 0) {
                    return null;
                }
                gcSignal.wait(counting ? Math.min(left, 1) : left);
            }
        }
    }

    /**
     * Reads the notification's open data directly: {@code GarbageCollectionNotificationInfo.from} rebuilds a GcInfo with
     * maps of every pool (memory and non-memory) from it, and {@code ManagementFactory.getMemoryMXBean()} searches
     * the platform beans with streams; at ~20 GCs/s those were most of this listener's cost (profiled; the rest is
     * the JDK building the notification, which any listener pays). Returns the GC where it was a collection
     * ({@link #collecting}).
     */
    private Collection recordNotification(CompositeData info) {
        CompositeData gc = (CompositeData) info.get("gcInfo");
        String gcName = (String) info.get("gcName");
        int index = indexOf(gcName);
        long gcId = (Long) gc.get("id");
        long collections = 1;
        if (index >= 0) {
            collections = Math.max(1, gcId - lastId[index]);
            lastId[index] = Math.max(lastId[index], gcId);
            action[index] = (String) info.get("gcAction");
        }
        TabularData before = (TabularData) gc.get("memoryUsageBeforeGc");
        TabularData after = (TabularData) gc.get("memoryUsageAfterGc");
        write(gcName, (String) info.get("gcAction"), (String) info.get("gcCause"), gcId, (Long) gc.get("startTime"),
                (Long) gc.get("duration"), pool -> usage(before, pool), pool -> usage(after, pool), collections);
        return (index >= 0 ? collects[index] : collecting(gcName)) ? new Collection(gcName, gcId) : null;
    }

    /** A pool's row of a GC notification's usage table (memoryUsageBeforeGc/AfterGc), or null where it has none. */
    public static MemoryUsage usage(TabularData table, String pool) {
        CompositeData row = table.get(new Object[] {pool});
        return row == null ? null : MemoryUsage.from((CompositeData) row.get("value"));
    }

    /** The bytes used in these pools, each pool's usage as given (null: none). */
    public static long used(String[] pools, Function<String, MemoryUsage> usage) {
        long used = 0;
        for (String pool : pools) {
            MemoryUsage u = usage.apply(pool);
            used += u == null ? 0 : u.getUsed();
        }
        return used;
    }

    private void recordGcInfo(int index, GcInfo info) {
        long collections = info.getId() - lastId[index];
        lastId[index] = info.getId();
        write(collectors.get(index).getName(), action[index] == null ? "" : action[index], "", info.getId(),
                info.getStartTime(), info.getDuration(), info.getMemoryUsageBeforeGc()::get, info.getMemoryUsageAfterGc()::get,
                collections);
    }

    private int indexOf(String gcName) {
        for (int i = 0; i < collectors.size(); i++) {
            if (collectors.get(i).getName().equals(gcName)) {
                return i;
            }
        }
        return -1;
    }

    /** One MemoryPoolSummary per heap pool the GC reported (after-GC usage known), then their HeapSummary. */
    private void write(String gcName, String gcAction, String gcCause, long gcId, long startMillisSinceJvmStart, long durationMillis,
                       Function<String, MemoryUsage> poolBefore, Function<String, MemoryUsage> poolAfter, long collections) {
        long usedBefore = 0;
        long usedAfter = 0;
        long committedAfter = 0;
        for (String pool : heapPools) {
            MemoryUsage a = poolAfter.apply(pool);
            if (a == null) {
                continue;
            }
            MemoryUsage b = poolBefore.apply(pool);
            long usedBeforeInPool = b == null ? 0 : b.getUsed();
            usedBefore += usedBeforeInPool;
            usedAfter += a.getUsed();
            committedAfter += a.getCommitted();
            MemoryPoolSummaryEvent event = new MemoryPoolSummaryEvent();
            event.gcId = gcId;
            event.gcName = gcName;
            event.pool = pool;
            event.usedBefore = usedBeforeInPool;
            event.usedAfter = a.getUsed();
            event.committedAfter = a.getCommitted();
            event.commit();
        }
        HeapSummaryEvent event = new HeapSummaryEvent();
        event.gcId = gcId;
        event.gcName = gcName;
        event.gcCause = gcCause;
        event.gcAction = gcAction;
        event.gcStartMillis = jvmStartMillis + startMillisSinceJvmStart;
        event.gcDurationMillis = durationMillis;
        event.usedBefore = usedBefore;
        event.usedAfter = usedAfter;
        event.committedAfter = committedAfter;
        event.maxHeap = memory.getHeapMemoryUsage().getMax();
        event.collections = collections;
        event.commit();
    }
}
