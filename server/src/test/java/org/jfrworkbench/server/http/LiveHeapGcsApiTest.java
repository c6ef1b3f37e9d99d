package org.jfrworkbench.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import org.jfrworkbench.testkit.jfr.JfrWriter;
import org.jfrworkbench.testkit.jfr.JfrWriter.Field;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live heap over HTTP on a hand-written recording whose GC list holds, besides young collections, the rows that
 * collect nothing: the start of G1's concurrent cycle, async-profiler's heap summary, and a Remark pause (from the
 * agent's heap summaries) right before the chunk ends. Only the collections are GCs, and a live sample counts at a
 * GC only when it is known alive there.
 */
class LiveHeapGcsApiTest {
    private static final long START = JfrWriter.START_NANOS;
    private static final long MS = 1_000_000L;

    @TempDir
    static Path data;
    static TestServer server;
    static String id;

    @BeforeAll
    static void start() throws Exception {
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        // chunk 1, 0-10 s: young GCs at 1 s and 5 s; then no collection, only rows that read the heap
        JfrWriter first = types(START);
        young(first, 1, 1_000, 900_000, 100_000);
        young(first, 2, 5_000, 900_000, 300_000);
        first.event("jdk.GCHeapSummary", 6_000 * MS, 3L, "Before GC", 850_000L); // concurrent start; the cycle outlasts the chunk
        first.event("jdk.GCHeapSummary", 7_000 * MS, 50L, "After GC", 700_000L); // async-profiler's summary: no GC
        first.event("workbench.HeapSummary", 9_005 * MS, 3L, "G1 Concurrent GC", "No GC", "end of concurrent GC pause",
                START / MS + 9_000, 5L, 800_000L, 790_000L, 1_000_000L); // Remark, right before the chunk ends
        live(first, 500, 9_990, 1_000, 1);   // byte[] retained: alive at both GCs
        live(first, 2_000, 9_990, 1_000, 2); // long[] (a growth array): allocated after GC 1, alive at GC 2
        live(first, 5_500, 9_990, 1_000, 3); // int[] garbage tail: allocated after the last collection
        live(first, 8_000, 9_990, 1_000, 3);
        file.writeBytes(first.chunk());
        // chunk 2, 10-20 s: one young GC; chunk 1's samples were reported before it, so nothing says they lived to it
        JfrWriter second = types(START + 10_000 * MS);
        young(second, 4, 5_000, 900_000, 200_000);
        live(second, 2_000, 9_990, 1_000, 4); // short[]: alive at GC 4
        file.writeBytes(second.chunk());

        server = new TestServer(data, 64 << 20, null);
        id = server.upload("?name=gc-kinds.jfr", file.toByteArray());
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @Test
    void onlyCollectionsAreOfferedAsGcsAndTheOtherRowsStayHeapReadings() throws Exception {
        JsonNode heap = server.get("/api/recordings/" + id + "/heap").json();
        List<Long> ids = new ArrayList<>();
        heap.get("gcs").forEach(g -> ids.add(g.get("gcId").asLong()));
        assertEquals(List.of(1L, 2L, 4L), ids, heap.toString());
        List<Long> readings = new ArrayList<>();
        heap.get("samples").forEach(s -> readings.add(s.get("used").asLong()));
        assertTrue(readings.containsAll(List.of(700_000L, 790_000L)), "the summary and the Remark stay readings: " + readings);
    }

    @Test
    void theDefaultGcIsTheLastCollectionAndCountsOnlySamplesReportedAfterIt() throws Exception {
        JsonNode live = server.get("/api/recordings/" + id + "/live").json();
        assertEquals(4, live.get("gc").get("gcId").asLong(), live.toString());
        assertEquals(Map.of("short[]", 200_000L), classes(live));
    }

    @Test
    void atAnEarlierGcOnlySamplesAliveThereCountAndTheGarbageTailNever() throws Exception {
        JsonNode atSecond = server.get("/api/recordings/" + id + "/live?gc=1").json();
        assertEquals(2, atSecond.get("gc").get("gcId").asLong(), atSecond.toString());
        assertEquals(Map.of("byte[]", 150_000L, "long[]", 150_000L), classes(atSecond));
        JsonNode atFirst = server.get("/api/recordings/" + id + "/live?gc=0").json();
        assertEquals(Map.of("byte[]", 100_000L), classes(atFirst), "the growth array was allocated after GC 1");
    }

    private static Map<String, Long> classes(JsonNode live) {
        Map<String, Long> out = new TreeMap<>();
        live.get("byClass").forEach(c -> out.put(c.get("class").asText(), c.get("bytes").asLong()));
        return out;
    }

    private static void young(JfrWriter w, long gcId, long startMs, long before, long after) {
        w.event("jdk.GarbageCollection", startMs * MS, 10 * MS, gcId, "G1New", "G1 Evacuation Pause")
                .event("jdk.GCHeapSummary", startMs * MS, gcId, "Before GC", before)
                .event("jdk.GCHeapSummary", (startMs + 10) * MS, gcId, "After GC", after);
    }

    private static void live(JfrWriter w, long allocatedMs, long reportedMs, long size, long classKey) {
        w.event("profiler.LiveObject", reportedMs * MS, allocatedMs * MS, size, classKey);
    }

    private static JfrWriter types(long start) {
        JfrWriter w = new JfrWriter(start, 10_000 * MS);
        w.type("jdk.types.Symbol", null, Field.of("string", "java.lang.String"));
        w.type("java.lang.Class", null, Field.of("hash", "int"), Field.pool("name", "jdk.types.Symbol"));
        w.gcTypes();
        w.type("workbench.HeapSummary", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                Field.of("gcId", "long"), Field.of("gcName", "java.lang.String"), Field.of("gcCause", "java.lang.String"),
                Field.of("gcAction", "java.lang.String"), Field.timestamp("gcStartMillis", "long", "MILLISECONDS_SINCE_EPOCH"),
                Field.of("gcDurationMillis", "long"), Field.of("usedBefore", "long"), Field.of("usedAfter", "long"),
                Field.of("committedAfter", "long"));
        w.type("profiler.LiveObject", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                Field.timestamp("allocationTime", "long", "TICKS"), Field.of("allocationSize", "long"),
                Field.pool("objectClass", "java.lang.Class"));
        w.constant("jdk.types.Symbol", 1, "[B").constant("jdk.types.Symbol", 2, "[J")
                .constant("jdk.types.Symbol", 3, "[I").constant("jdk.types.Symbol", 4, "[S");
        for (long k = 1; k <= 4; k++) {
            w.constant("java.lang.Class", k, (int) k, k);
        }
        return w;
    }
}
