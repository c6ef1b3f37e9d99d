package org.jfrworkbench.testkit.jfr;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;

import org.jfrworkbench.testkit.jfr.JfrWriter.Field;

/**
 * Two chunks of 10 s of an agent whose heap is known exactly: {@link #ENTRY} (32 MiB) allocated at the start and kept,
 * {@link #ORDER} (32 MiB) replaced at 12 s, 64 KiB objects, every one sampled. async-profiler's live samples of a chunk
 * are the objects allocated during it, so the second chunk's samples hold no {@code Entry}; each chunk's samples are
 * reported at its end. GCs 1 and 2 in the first chunk (at 5 s and 9 s), 3 and 4 in the second (15 s, 19 s), each
 * stating the exact heap used after it.
 */
public final class OlderObjectsRecording {
    public static final String ENTRY = "com.acme.Entry";
    public static final String ORDER = "com.acme.Order";
    /** Allocated before profiling began: in no chunk's samples, only in the JVM's count. */
    public static final String UNSAMPLED = "com.acme.Unsampled";
    private static final long MS = 1_000_000L;
    private static final long SECOND = 1_000 * MS;
    private static final int OBJECT = 64 << 10;
    private static final long MIB = 1L << 20;

    private OlderObjectsRecording() {
    }

    /**
     * The recording. count: 8 MiB of {@link #UNSAMPLED} too, and the JVM's count of the heap by class
     * (jdk.ObjectCountAfterGC) at GC 2, a full GC; concurrentCycle: that count made by a G1 concurrent cycle (GC 5,
     * from 7 s, counted at 8 s) instead, which is no GC of the timeline.
     */
    public static byte[] write(boolean count, boolean concurrentCycle) throws IOException {
        return write(count, concurrentCycle, false);
    }

    /**
     * As {@link #write(boolean, boolean)}; allocation: with allocation samples (jdk.ObjectAllocationSample, every 64 KiB
     * object) and, where the count is a concurrent cycle's, eden in it as G1 counts it at the remark: 24 MiB of
     * {@link #ORDER} and 4 MiB of {@link #UNSAMPLED} allocated after GC 1 (from 6 s, all garbage) counted as live. The
     * allocation before GC 1 (10 MiB of {@code Unsampled} at 2 s) and after the remark (Entry at 8.5 s) is not in eden
     * then.
     */
    public static byte[] write(boolean count, boolean concurrentCycle, boolean allocation) throws IOException {
        long extra = count ? 8 * MIB : 0;
        long used = 64 * MIB + extra;
        JfrWriter first = types(0, count, allocation);
        long edenOrder = 0;
        long edenUnsampled = 0;
        if (allocation) {
            for (int i = 0; i < 160; i++) {
                first.event("jdk.ObjectAllocationSample", 2 * SECOND + i * MS, 1L, 30L, 3L, (long) OBJECT);
            }
            for (int i = 0; i < 64; i++) {
                first.event("jdk.ObjectAllocationSample", 6 * SECOND + i * MS, 1L, 30L, 3L, (long) OBJECT);
            }
            for (int i = 0; i < 384; i++) {
                first.event("jdk.ObjectAllocationSample", 6_500 * MS + i * MS, 1L, 31L, 2L, (long) OBJECT);
            }
            for (int i = 0; i < 100; i++) {
                first.event("jdk.ObjectAllocationSample", 8_500 * MS + i * MS, 1L, 30L, 1L, (long) OBJECT);
            }
            if (concurrentCycle) {
                edenOrder = 24 * MIB;
                edenUnsampled = 4 * MIB;
            }
        }
        int objects = (int) (32 * MIB / OBJECT);
        for (int i = 0; i < objects; i++) {
            first.event("profiler.LiveObject", 9_900 * MS, 1L, 30L, 100 * MS + i, (long) OBJECT, 1L); // Entry at start
            first.event("profiler.LiveObject", 9_900 * MS, 1L, 31L, 200 * MS + i, (long) OBJECT, 2L); // the first Orders
        }
        gc(first, 1, 5 * SECOND, "G1New", used);
        gc(first, 2, 9 * SECOND, count && !concurrentCycle ? "G1Full" : "G1New", used);
        if (count) {
            long countGc = concurrentCycle ? 5 : 2;
            long at = concurrentCycle ? 8 * SECOND : 9 * SECOND + 5 * MS;
            if (concurrentCycle) {
                first.event("jdk.GarbageCollection", 7 * SECOND, 1_500 * MS, countGc, "G1Old", "G1 Evacuation Pause");
            }
            first.event("jdk.ObjectCountAfterGC", at, countGc, 1L, (long) objects, 32 * MIB)
                    .event("jdk.ObjectCountAfterGC", at, countGc, 2L, (long) objects, 32 * MIB + edenOrder)
                    .event("jdk.ObjectCountAfterGC", at, countGc, 3L, 128L, extra + edenUnsampled);
        }
        JfrWriter second = types(10 * SECOND, count, allocation);
        for (int i = 0; i < objects; i++) {
            second.event("profiler.LiveObject", 19_900 * MS, 1L, 31L, 12 * SECOND + i, (long) OBJECT, 2L); // new Orders
        }
        gc(second, 3, 15 * SECOND, "G1New", used);
        gc(second, 4, 19 * SECOND, "G1New", used);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(first.chunk());
        out.write(second.chunk());
        return out.toByteArray();
    }

    static void gc(JfrWriter w, long id, long start, String name, long used) {
        w.event("jdk.GarbageCollection", start, 10 * MS, id, name, "Allocation Failure")
                .event("jdk.GCHeapSummary", start, id, "Before GC", used + 100 * MIB)
                .event("jdk.GCHeapSummary", start + 10 * MS, id, "After GC", used);
    }

    static JfrWriter types(long startTicks, boolean count, boolean allocation) {
        JfrWriter w = new JfrWriter(JfrWriter.START_NANOS + startTicks, 10 * SECOND, startTicks, 1_000_000_000L);
        w.stackTypes();
        w.gcTypes();
        w.liveObjectType();
        if (allocation) {
            w.type("jdk.ObjectAllocationSample", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                    Field.pool("eventThread", "java.lang.Thread"), Field.pool("stackTrace", "jdk.types.StackTrace"),
                    Field.pool("objectClass", "java.lang.Class"), Field.of("weight", "long"));
        }
        if (count) {
            w.type("jdk.ObjectCountAfterGC", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                    Field.of("gcId", "int"), Field.pool("objectClass", "java.lang.Class"), Field.of("count", "long"),
                    Field.of("totalSize", "long"));
        }
        w.constant("java.lang.Thread", 1, "main", 1L);
        String[] symbols = {"com/acme/Entry", "com/acme/Order", "com/acme/Unsampled", "com/acme/Store", "load", "put"};
        for (int i = 0; i < symbols.length; i++) {
            w.constant("jdk.types.Symbol", i + 1, symbols[i]);
        }
        for (long c = 1; c <= 4; c++) {
            w.constant("java.lang.Class", c, c);
        }
        w.constant("jdk.types.Method", 20, 4L, 5L) // Store.load
                .constant("jdk.types.Method", 21, 4L, 6L); // Store.put
        w.constant("jdk.types.StackTrace", 30, false, List.<Object[]>of(new Object[] {20L, 10}));
        w.constant("jdk.types.StackTrace", 31, false, List.<Object[]>of(new Object[] {21L, 20}));
        return w;
    }
}
