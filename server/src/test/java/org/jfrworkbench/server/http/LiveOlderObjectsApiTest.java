package org.jfrworkbench.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import org.jfrworkbench.testkit.jfr.OlderObjectsRecording;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live heap at a GC of a later chunk keeps the counted classes of objects older than the chunk, on two-chunk
 * recordings whose heap is known exactly ({@link OlderObjectsRecording}).
 */
class LiveOlderObjectsApiTest {
    private static final long MIB = 1L << 20;
    private static final String ENTRY = OlderObjectsRecording.ENTRY;
    private static final String ORDER = OlderObjectsRecording.ORDER;
    private static final String UNSAMPLED = OlderObjectsRecording.UNSAMPLED;

    @TempDir
    static Path data;
    static TestServer server;
    /** The heap is Entry and Order, 64 MiB after every GC. */
    static String sampled;
    /** As sampled, plus 8 MiB of Unsampled allocated before profiling began, and the JVM's count of the heap at GC 2. */
    static String counted;
    /** As counted, the count made by a G1 concurrent cycle (GC 5, at 8 s), which is not a GC of the timeline. */
    static String concurrent;
    /**
     * As concurrent, with allocation samples, and the cycle's count at its remark holding eden as G1 counts it: the
     * 24 MiB of Order and 4 MiB of Unsampled allocated since GC 1, all garbage, counted as live.
     */
    static String remark;

    @BeforeAll
    static void start() throws Exception {
        server = new TestServer(data, 64 << 20, null);
        sampled = server.upload("?name=older-sampled.jfr", OlderObjectsRecording.write(false, false));
        counted = server.upload("?name=older-counted.jfr", OlderObjectsRecording.write(true, false));
        concurrent = server.upload("?name=older-concurrent.jfr", OlderObjectsRecording.write(true, true));
        remark = server.upload("?name=older-remark.jfr", OlderObjectsRecording.write(true, true, true));
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
    void aConcurrentCyclesCountLessTheAllocationSinceTheYoungGcBeforeItIsCarriedAsAnEstimate() throws Exception {
        // the remark's count (Order 56 MiB, Unsampled 12 MiB) less what the allocation samples put in eden after GC 1
        // (24 and 4 MiB; not the 10 MiB of Unsampled before GC 1 nor the Entry after the remark): the heap at GC 1
        JsonNode base = server.get("/api/recordings/" + remark + "/live?gc=0").json();
        assertFalse(base.get("counted").asBoolean(), base.toString());
        // GC 2 carries Unsampled, which has no live sample; Entry and Order have theirs there, so are taken from them
        JsonNode atGc2 = server.get("/api/recordings/" + remark + "/live?gc=1").json();
        assertFalse(atGc2.get("counted").asBoolean(), atGc2.toString());
        assertEquals(8 * MIB, atGc2.get("carriedBytes").asLong(), 2, atGc2.toString());
        // the next chunk still carries it (not the 12 MiB counted, nor 2 MiB had the allocation before GC 1 been taken)
        JsonNode later = server.get("/api/recordings/" + remark + "/live?gc=3").json();
        assertFalse(later.get("counted").asBoolean(), later.toString());
        assertEquals(8 * MIB, later.get("carriedBytes").asLong(), 2, later.toString());
        Map<String, JsonNode> byClass = byClass(later);
        assertEquals(8 * MIB, byClass.get(UNSAMPLED).get("bytes").asLong(), 2, later.toString());
        assertEquals(8 * MIB, byClass.get(UNSAMPLED).get("carriedBytes").asLong(), 2);
        assertEquals(0, byClass.get(UNSAMPLED).get("samples").asLong());
        assertEquals(64 * MIB, byClass.get(ORDER).get("bytes").asLong(), 2, later.toString());
        assertEquals(512, byClass.get(ORDER).get("samples").asLong());
        // an estimate, not exact: Unsampled's 4 MiB in 64 allocation samples (±1/8 of them) against its 8 MiB left
        assertEquals(4.0 / 8 / 8, byClass.get(UNSAMPLED).get("error").asDouble(), 1e-6);
    }

    @Test
    void aConcurrentCyclesCountWithoutAllocationSamplesIsNotUsedSinceItCountsEdenAsLive() throws Exception {
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
}
