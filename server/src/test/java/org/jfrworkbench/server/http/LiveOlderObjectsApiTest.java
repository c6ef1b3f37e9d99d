package org.jfrworkbench.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import org.jfrworkbench.testkit.jfr.JfrWriter;
import org.jfrworkbench.testkit.jfr.JfrWriter.Field;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live heap at a GC of a later chunk keeps the counted classes of objects older than the chunk, on two-chunk
 * recordings of an agent whose heap is known exactly: {@code com.acme.Entry} (32 MiB) allocated at the start and kept,
 * {@code com.acme.Order} (32 MiB) replaced at 12 s. async-profiler's live samples of a chunk are the objects allocated
 * during it, so the second chunk's samples hold no {@code Entry}. Every object sampled; each chunk's samples reported
 * at its end; GCs 1 and 2 in the first chunk, 3 and 4 in the second.
 */
class LiveOlderObjectsApiTest {
    private static final long MS = 1_000_000L;
    private static final long SECOND = 1_000 * MS;
    private static final int OBJECT = 64 << 10;
    private static final long MIB = 1L << 20;
    private static final String ENTRY = "com.acme.Entry";
    private static final String ORDER = "com.acme.Order";
    private static final String UNSAMPLED = "com.acme.Unsampled";

    @TempDir
    static Path data;
    static TestServer server;
    /** The heap is Entry and Order, 64 MiB after every GC. */
    static String sampled;
    /** As sampled, plus 8 MiB of Unsampled allocated before profiling began, and the JVM's count of the heap at GC 2. */
    static String counted;
    /** As counted, the count made by a G1 concurrent cycle (GC 5, at 8 s), which is not a GC of the timeline. */
    static String concurrent;

    @BeforeAll
    static void start() throws Exception {
        server = new TestServer(data, 64 << 20, null);
        sampled = upload("older-sampled.jfr", recording(false, false));
        counted = upload("older-counted.jfr", recording(true, false));
        concurrent = upload("older-concurrent.jfr", recording(true, true));
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @Test
    void withoutACountTheChunksOwnSamplesAreScaledToTheUsedBytes() throws Exception {
        // an earlier chunk's samples are not carried (they may hold garbage their GC had not cleared): Entry, allocated
        // before the second chunk, has no sample there and is not shown; Order's samples stand for the used bytes
        JsonNode live = server.get("/api/recordings/" + sampled + "/live?gc=3").json();
        Map<String, JsonNode> byClass = byClass(live);
        assertNull(byClass.get(ENTRY), live.toString());
        assertEquals(64 * MIB, byClass.get(ORDER).get("bytes").asLong(), 2, live.toString());
        assertEquals(512, byClass.get(ORDER).get("samples").asLong());
        assertEquals(0, byClass.get(ORDER).get("carriedBytes").asLong());
        assertEquals(0, live.get("carriedBytes").asLong());
        assertFalse(live.get("counted").asBoolean());
        assertEquals(64 * MIB, live.get("flame").get("total").asLong(), 2);
    }

    @Test
    void theFirstChunkAndARangeScaleTheSamplesAsTheyAre() throws Exception {
        JsonNode first = server.get("/api/recordings/" + sampled + "/live?gc=1").json();
        Map<String, JsonNode> byClass = byClass(first);
        assertEquals(32 * MIB, byClass.get(ENTRY).get("bytes").asLong(), 2);
        assertEquals(32 * MIB, byClass.get(ORDER).get("bytes").asLong(), 2);
        assertEquals(0, first.get("carriedBytes").asLong());
        // objects allocated from 11 s on: the new Orders, at their share of the used bytes
        JsonNode range = server.get("/api/recordings/" + counted + "/live?gc=3&from=11000").json();
        Map<String, JsonNode> inRange = byClass(range);
        assertNull(inRange.get(ENTRY), range.toString());
        assertEquals(32 * MIB, inRange.get(ORDER).get("bytes").asLong(), 2);
        assertEquals(32 * MIB, range.get("rangeBytes").asLong(), 2);
    }

    @Test
    void atAGcTheJvmCountedTheClassesAreExactAndTheGcsAfterCarryThem() throws Exception {
        JsonNode atCount = server.get("/api/recordings/" + counted + "/live?gc=1").json();
        assertTrue(atCount.get("counted").asBoolean(), atCount.toString());
        Map<String, JsonNode> exact = byClass(atCount);
        assertEquals(32 * MIB, exact.get(ENTRY).get("bytes").asLong());
        assertEquals(32 * MIB, exact.get(ORDER).get("bytes").asLong());
        assertEquals(8 * MIB, exact.get(UNSAMPLED).get("bytes").asLong(), atCount.toString());
        assertEquals(0, exact.get(UNSAMPLED).get("error").asDouble());
        assertEquals(512, exact.get(ENTRY).get("samples").asLong());
        // the next chunk: Order from its samples, Entry and the never sampled class from the count
        JsonNode later = server.get("/api/recordings/" + counted + "/live?gc=3").json();
        assertFalse(later.get("counted").asBoolean());
        assertEquals(40 * MIB, later.get("carriedBytes").asLong(), 2, later.toString());
        Map<String, JsonNode> byClass = byClass(later);
        assertEquals(32 * MIB, byClass.get(ENTRY).get("carriedBytes").asLong(), 2);
        assertEquals(512, byClass.get(ENTRY).get("carriedSamples").asLong());
        assertEquals(0, byClass.get(ENTRY).get("samples").asLong());
        assertEquals(32 * MIB, byClass.get(ORDER).get("bytes").asLong(), 2, later.toString());
        assertEquals(32 * MIB, byClass.get(ENTRY).get("bytes").asLong(), 2, later.toString());
        assertEquals(8 * MIB, byClass.get(UNSAMPLED).get("bytes").asLong(), 2, later.toString());
        // the binary form carries the same figures in its header
        TestServer.Reply binary = server.get("/api/recordings/" + counted + "/live?gc=1&format=binary");
        assertEquals(200, binary.status());
    }

    @Test
    void aConcurrentCyclesCountIsNotUsedSinceItCountsTheObjectsAllocatedDuringMarkingAsLive() throws Exception {
        assertEquals(4, server.get("/api/recordings/" + concurrent + "/heap").json().get("gcs").size());
        JsonNode gc2 = server.get("/api/recordings/" + concurrent + "/live?gc=1").json();
        assertFalse(gc2.get("counted").asBoolean(), gc2.toString());
        JsonNode later = server.get("/api/recordings/" + concurrent + "/live?gc=3").json();
        Map<String, JsonNode> byClass = byClass(later);
        assertNull(byClass.get(UNSAMPLED), later.toString());
        assertNull(byClass.get(ENTRY), later.toString());
        assertEquals(72 * MIB, byClass.get(ORDER).get("bytes").asLong(), 2, later.toString());
        assertEquals(0, later.get("carriedBytes").asLong());
    }

    private static Map<String, JsonNode> byClass(JsonNode live) {
        Map<String, JsonNode> m = new HashMap<>();
        for (JsonNode c : live.get("byClass")) {
            m.put(c.get("class").asText(), c);
        }
        return m;
    }

    static String upload(String name, byte[] file) throws Exception {
        TestServer.Reply r = server.post("?name=" + name, file, null);
        assertTrue(r.status() == 201 || r.status() == 200, r.body());
        return r.json().get("id").asText();
    }

    /** Two chunks of 10 s, event times in nanoseconds since the first chunk's start. */
    static byte[] recording(boolean count, boolean concurrentCycle) throws Exception {
        long extra = count ? 8 * MIB : 0;
        long used = 64 * MIB + extra;
        JfrWriter first = types(0, count);
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
                    .event("jdk.ObjectCountAfterGC", at, countGc, 2L, (long) objects, 32 * MIB)
                    .event("jdk.ObjectCountAfterGC", at, countGc, 3L, 128L, extra);
        }
        JfrWriter second = types(10 * SECOND, count);
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

    private static void gc(JfrWriter w, long id, long start, String name, long used) {
        w.event("jdk.GarbageCollection", start, 10 * MS, id, name, "Allocation Failure")
                .event("jdk.GCHeapSummary", start, id, "Before GC", used + 100 * MIB)
                .event("jdk.GCHeapSummary", start + 10 * MS, id, "After GC", used);
    }

    private static JfrWriter types(long startTicks, boolean count) {
        JfrWriter w = new JfrWriter(JfrWriter.START_NANOS + startTicks, 10 * SECOND, startTicks, 1_000_000_000L);
        w.stackTypes();
        w.type("jdk.GarbageCollection", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                Field.timespan("duration", "long", "TICKS"), Field.of("gcId", "int"), Field.of("name", "java.lang.String"),
                Field.of("cause", "java.lang.String"));
        w.type("jdk.GCHeapSummary", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                Field.of("gcId", "int"), Field.of("when", "java.lang.String"), Field.of("heapUsed", "long"));
        w.type("profiler.LiveObject", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                Field.pool("eventThread", "java.lang.Thread"), Field.pool("stackTrace", "jdk.types.StackTrace"),
                Field.timestamp("allocationTime", "long", "TICKS"), Field.of("allocationSize", "long"),
                Field.pool("objectClass", "java.lang.Class"));
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
