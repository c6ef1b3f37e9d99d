package org.jfrworkbench.testkit.jfr;

import java.util.List;
import java.util.Random;

import org.jfrworkbench.testkit.jfr.JfrWriter.Field;

/**
 * A one-chunk recording of a service whose heap the test knows exactly: {@code com.acme.Config} (40 MiB, allocated at
 * the start by {@code com.acme.App.main -> com.acme.Config.load}) and {@code byte[]} buffers (20 MiB, by
 * {@code com.acme.App.main -> com.acme.Buffers.init}) stay flat, while {@code com.acme.Leak} grows by
 * {@code leakBytesPerSecond}, allocated by {@code com.acme.Service.handle -> com.acme.Cache.put}. Every object is
 * 64 KiB; each is sampled with probability {@code sampling} (async-profiler's live samples) and reported live at the
 * chunk's end. A young GC every 2 s states the exact heap used after it; {@code int[]} garbage allocated after the
 * last GC is reported live too, as the tail of a real chunk would be. Allocation samples: the leak's sampled objects,
 * and 10 MiB/s of {@code java.lang.String} garbage from {@code com.acme.Service.handle -> com.acme.Json.render}.
 */
public final class LeakingRecording {
    public static final String LEAK = "com.acme.Leak";
    public static final String FLAT = "com.acme.Config";
    public static final String BLIP = "com.acme.Blip";
    public static final long BLIP_SECONDS = 40;
    public static final List<String> LEAK_STACK = List.of("com.acme.Service.handle", "com.acme.Cache.put");
    public static final int OBJECT_BYTES = 64 << 10;
    public static final long FLAT_BYTES = 40L << 20;
    public static final long BUFFER_BYTES = 20L << 20;
    public static final int SECONDS = 60;
    public static final int GC_EVERY_SECONDS = 2;

    private static final long MS = 1_000_000L;

    private LeakingRecording() {
    }

    /** The chunk's bytes; the same arguments give the same bytes. */
    public static byte[] write(long leakBytesPerSecond, double sampling, long seed) {
        return write(leakBytesPerSecond, sampling, seed, 0);
    }

    /**
     * As {@link #write(long, double, long)}, plus one {@link #BLIP} object of blipBytes allocated at 40 s and kept (by
     * {@code com.acme.App.main -> com.acme.Buffers.init}), always sampled: one sample, a step, not a trend.
     */
    public static byte[] write(long leakBytesPerSecond, double sampling, long seed, long blipBytes) {
        Random random = new Random(seed);
        JfrWriter w = types(JfrWriter.START_NANOS, SECONDS * 1_000L * MS);
        long reported = (SECONDS * 1_000L - 100) * MS;
        // the flat classes, allocated in the first half second
        for (int i = 0; i < FLAT_BYTES / OBJECT_BYTES; i++) {
            if (random.nextDouble() < sampling) {
                w.event("profiler.LiveObject", reported, 1L, 31L, 100 * MS, (long) OBJECT_BYTES, 2L);
            }
        }
        for (int i = 0; i < BUFFER_BYTES / OBJECT_BYTES; i++) {
            if (random.nextDouble() < sampling) {
                w.event("profiler.LiveObject", reported, 1L, 32L, 200 * MS, (long) OBJECT_BYTES, 3L);
            }
        }
        // the leak: objects at an even pace, each retained to the end
        double perSecond = (double) leakBytesPerSecond / OBJECT_BYTES;
        int leaked = (int) Math.floor(perSecond * SECONDS);
        long[] allocatedAt = new long[leaked];
        for (int j = 0; j < leaked; j++) {
            allocatedAt[j] = Math.round((j + 0.5) / perSecond * 1e9);
            if (allocatedAt[j] < reported && random.nextDouble() < sampling) {
                w.event("profiler.LiveObject", reported, 1L, 30L, allocatedAt[j], (long) OBJECT_BYTES, 1L);
                w.event("jdk.ObjectAllocationSample", allocatedAt[j], 1L, 30L, 1L, (long) OBJECT_BYTES);
            }
        }
        for (long t = 50 * MS; t < SECONDS * 1_000L * MS; t += 100 * MS) {
            w.event("jdk.ObjectAllocationSample", t, 1L, 33L, 5L, 1L << 20);
        }
        if (blipBytes > 0) {
            w.event("profiler.LiveObject", reported, 1L, 32L, BLIP_SECONDS * 1_000L * MS, blipBytes, 11L);
        }
        // the garbage tail: allocated after the last GC, still reachable when the chunk ends
        for (int i = 0; i < 20; i++) {
            w.event("profiler.LiveObject", reported, 1L, 33L, (SECONDS * 1_000L - 1_000 + i * 10) * MS, (long) OBJECT_BYTES, 4L);
        }
        int leakedSoFar = 0;
        for (int k = 1; k * GC_EVERY_SECONDS < SECONDS; k++) {
            long start = k * GC_EVERY_SECONDS * 1_000L * MS;
            long end = start + 10 * MS;
            while (leakedSoFar < leaked && allocatedAt[leakedSoFar] <= end) {
                leakedSoFar++;
            }
            long after = FLAT_BYTES + BUFFER_BYTES + (long) leakedSoFar * OBJECT_BYTES
                    + (end >= BLIP_SECONDS * 1_000L * MS ? blipBytes : 0);
            w.event("jdk.GarbageCollection", start, 10 * MS, (long) k, "G1New", "G1 Evacuation Pause")
                    .event("jdk.GCHeapSummary", start, (long) k, "Before GC", after + (30L << 20))
                    .event("jdk.GCHeapSummary", end, (long) k, "After GC", after);
        }
        return w.chunk();
    }

    /** The bytes the leak holds at second s of the recording (its objects allocated by then). */
    public static long leakBytesAt(long leakBytesPerSecond, double seconds) {
        double perSecond = (double) leakBytesPerSecond / OBJECT_BYTES;
        long objects = 0;
        while ((objects + 0.5) / perSecond <= seconds) {
            objects++;
        }
        return objects * OBJECT_BYTES;
    }

    private static JfrWriter types(long start, long duration) {
        JfrWriter w = new JfrWriter(start, duration);
        w.stackTypes();
        w.gcTypes();
        w.liveObjectType();
        w.type("jdk.ObjectAllocationSample", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                Field.pool("eventThread", "java.lang.Thread"), Field.pool("stackTrace", "jdk.types.StackTrace"),
                Field.pool("objectClass", "java.lang.Class"), Field.of("weight", "long"));
        w.constant("java.lang.Thread", 1, "main", 1L);
        String[] symbols = {"com/acme/Leak", "com/acme/Config", "[B", "[I", "java/lang/String", "com/acme/App",
            "com/acme/Service", "com/acme/Cache", "com/acme/Buffers", "com/acme/Json", "main", "handle", "put", "load",
            "init", "render", "com/acme/Blip"};
        for (int i = 0; i < symbols.length; i++) {
            w.constant("jdk.types.Symbol", i + 1, symbols[i]);
        }
        // classes 1-10 name symbols 1-10, class 11 symbol 17
        for (long c = 1; c <= 10; c++) {
            w.constant("java.lang.Class", c, c);
        }
        w.constant("java.lang.Class", 11, 17L);
        w.constant("jdk.types.Method", 20, 6L, 11L)   // App.main
                .constant("jdk.types.Method", 21, 7L, 12L) // Service.handle
                .constant("jdk.types.Method", 22, 8L, 13L) // Cache.put
                .constant("jdk.types.Method", 23, 2L, 14L) // Config.load
                .constant("jdk.types.Method", 24, 9L, 15L) // Buffers.init
                .constant("jdk.types.Method", 25, 10L, 16L); // Json.render
        Object[] main = {20L, 10};
        Object[] handle = {21L, 20};
        w.constant("jdk.types.StackTrace", 30, false, List.<Object[]>of(new Object[] {22L, 30}, handle));
        w.constant("jdk.types.StackTrace", 31, false, List.<Object[]>of(new Object[] {23L, 40}, main));
        w.constant("jdk.types.StackTrace", 32, false, List.<Object[]>of(new Object[] {24L, 50}, main));
        w.constant("jdk.types.StackTrace", 33, false, List.<Object[]>of(new Object[] {25L, 60}, handle));
        return w;
    }
}
