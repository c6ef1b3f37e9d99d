package org.jfrworkbench.testkit.jfr;

import java.util.ArrayList;
import java.util.List;

import org.jfrworkbench.testkit.jfr.JfrWriter.Field;

/**
 * The chunks of one async-profiler-shaped run, one second each, whose chunks depend on each other the way a real run's
 * do: every other GC starts at the end of a chunk and is written, with its after-GC summary, in the next one; a
 * chunk's live-object samples (reported at its end) are proved alive only by that GC; mallocs are freed one or two
 * chunks later, some never, and some addresses are reused; the allocation sampling interval is stated in the first
 * chunk only. Plus cpu and allocation samples whose stacks vary by chunk. The same count gives the same bytes.
 */
public final class RunChunks {
    private static final long MS = 1_000_000L;
    private static final long CHUNK = 1_000 * MS;

    private RunChunks() {
    }

    public static List<byte[]> write(int count) {
        List<byte[]> chunks = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            chunks.add(chunk(i));
        }
        return chunks;
    }

    private static byte[] chunk(int i) {
        JfrWriter w = types(i);
        long t0 = i * CHUNK; // ticks count from the run's start, so a time before the chunk is no negative number
        if (i == 0) {
            w.event("jdk.ActiveSetting", t0, 1L, "alloc", "524288");
        }
        for (int s = 0; s < 5; s++) {
            w.event("jdk.ExecutionSample", t0 + (100 + 150 * s) * MS, 1L + s % 2, 30L + (i + s) % 4);
        }
        w.event("jdk.ObjectAllocationSample", t0 + 300 * MS, 1L, 30L + i % 4, 2L, 4096L + i);
        // a GC begun at the end of the previous chunk ends here
        if (i > 0 && (i - 1) % 2 == 0) {
            w.event("jdk.GarbageCollection", t0 - 2 * MS, 4 * MS, (long) i - 1, "G1New", "G1 Evacuation Pause")
                    .event("jdk.GCHeapSummary", t0 + 2 * MS, (long) i - 1, "After GC", 50_000_000L + i);
        }
        // a GC within the chunk, for the odd ones
        if (i % 2 == 1) {
            w.event("jdk.GarbageCollection", t0 + 500 * MS, 3 * MS, (long) i, "G1New", "G1 Evacuation Pause")
                    .event("jdk.GCHeapSummary", t0 + 500 * MS, (long) i, "Before GC", 80_000_000L + i)
                    .event("jdk.GCHeapSummary", t0 + 503 * MS, (long) i, "After GC", 40_000_000L + i);
        } else {
            // a GC that begins now and ends in the next chunk
            w.event("jdk.GCHeapSummary", t0 + CHUNK - 2 * MS, (long) i, "Before GC", 90_000_000L + i);
        }
        // live samples reported at the chunk's end: one allocated early (met the odd chunks' GC), one just before the
        // GC that starts at the even chunks' end (only the next chunk says it met it)
        w.event("profiler.LiveObject", t0 + CHUNK - MS, 1L, 31L, t0 + 100 * MS, 100_000L + i, 2L);
        w.event("profiler.LiveObject", t0 + CHUNK - MS, 1L, 32L, t0 + CHUNK - 5 * MS, 200_000L + i, 3L);
        // native memory: a malloc per chunk at its own address, freed one or two chunks later except every fifth;
        // every seventh chunk reuses the address of the malloc before it (whose free was not recorded)
        long address = i % 7 == 6 ? 0x1000L * i : 0x1000L * (i + 1);
        w.event("profiler.Malloc", t0 + 200 * MS, 1L, 33L, address, 1000L + i);
        if (i >= 1 && (i - 1) % 5 != 4 && (i - 1) % 2 == 0) {
            w.event("profiler.Free", t0 + 250 * MS, 1L, 0x1000L * i);
        }
        if (i >= 2 && (i - 2) % 5 != 4 && (i - 2) % 2 == 1) {
            w.event("profiler.Free", t0 + 260 * MS, 1L, 0x1000L * (i - 1));
        }
        return w.chunk();
    }

    private static JfrWriter types(int i) {
        JfrWriter w = new JfrWriter(JfrWriter.START_NANOS + i * CHUNK, CHUNK, i * CHUNK, 1_000_000_000L);
        w.stackTypes();
        w.type("jdk.ActiveSetting", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"), Field.of("id", "long"),
                Field.of("name", "java.lang.String"), Field.of("value", "java.lang.String"));
        w.type("jdk.ExecutionSample", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                Field.pool("sampledThread", "java.lang.Thread"), Field.pool("stackTrace", "jdk.types.StackTrace"));
        w.type("jdk.ObjectAllocationSample", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                Field.pool("eventThread", "java.lang.Thread"), Field.pool("stackTrace", "jdk.types.StackTrace"),
                Field.pool("objectClass", "java.lang.Class"), Field.of("weight", "long"));
        w.gcTypes();
        w.liveObjectType();
        w.type("profiler.Malloc", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                Field.pool("eventThread", "java.lang.Thread"), Field.pool("stackTrace", "jdk.types.StackTrace"),
                Field.of("address", "long"), Field.of("size", "long"));
        w.type("profiler.Free", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                Field.pool("eventThread", "java.lang.Thread"), Field.of("address", "long"));
        w.constant("java.lang.Thread", 1, "main", 1L).constant("java.lang.Thread", 2, "worker", 2L);
        String[] symbols = {"com/acme/App", "com/acme/Service", "com/acme/Cache", "com/acme/Native", "main", "handle",
            "put", "malloc", "byte[]", "com/acme/Entry"};
        for (int s = 0; s < symbols.length; s++) {
            w.constant("jdk.types.Symbol", s + 1, symbols[s]);
        }
        for (long c = 1; c <= 4; c++) {
            w.constant("java.lang.Class", c, c);
        }
        w.constant("java.lang.Class", 5, 9L).constant("java.lang.Class", 6, 10L);
        w.constant("jdk.types.Method", 20, 1L, 5L)   // App.main
                .constant("jdk.types.Method", 21, 2L, 6L)  // Service.handle
                .constant("jdk.types.Method", 22, 3L, 7L)  // Cache.put
                .constant("jdk.types.Method", 23, 4L, 8L); // Native.malloc
        Object[] main = {20L, 10};
        Object[] handle = {21L, 20};
        Object[] put = {22L, 30};
        Object[] malloc = {23L, 40};
        w.constant("jdk.types.StackTrace", 30, false, List.<Object[]>of(handle, main));
        w.constant("jdk.types.StackTrace", 31, false, List.<Object[]>of(put, handle, main));
        w.constant("jdk.types.StackTrace", 32, false, List.<Object[]>of(put, main));
        w.constant("jdk.types.StackTrace", 33, false, List.<Object[]>of(malloc, put, handle, main));
        return w;
    }
}
