package org.jfrworkbench.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The heap views of a real G1 recording (the agent's, JDK 25, six chunks, of a cache that slowly retains sessions with
 * a 2 KB buffer each): G1's eden, survivor and old generation after each GC add up to the heap used after it, as the
 * JDK reports both; the retained buffers lead the growth.
 */
class RecordedHeapApiTest {
    @TempDir
    static Path data;
    static TestServer server;
    static String id;

    @BeforeAll
    static void start() throws Exception {
        server = new TestServer(data, 64 << 20, null);
        id = server.upload("?name=retaining-cache.jfr",
                Files.readAllBytes(Path.of("../sample-recordings/retaining-cache.jfr")));
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @Test
    void theRetainedBuffersAreTheFirstSuspectAcrossTheAgentsChunks() throws Exception {
        JsonNode growth = server.get("/api/recordings/" + id + "/heap/growth").json();
        JsonNode first = growth.get("suspects").get(0);
        assertEquals("byte[]", first.get("class").asText(), growth.get("suspects").toString());
        assertTrue(first.get("bytesPerSecond").asDouble() > 0 && first.get("confidence").asDouble() > 0.5, first.toString());
        JsonNode stack = first.get("stack");
        assertEquals("org.jfrworkbench.samples.RetainingCache.main", stack.get(stack.size() - 1).asText(), first.toString());
        assertTrue(growth.get("findings").get("liveSetBytesPerMinute").asDouble() > 0);
    }

    @Test
    void g1sPoolsAfterEachGcAddUpToTheHeapUsedAfterIt() throws Exception {
        JsonNode heap = server.get("/api/recordings/" + id + "/heap").json();
        TreeSet<String> names = new TreeSet<>();
        Map<Long, Long> sumByGc = new HashMap<>();
        for (JsonNode pool : heap.get("pools")) {
            String name = pool.get("pool").asText();
            names.add(name);
            for (JsonNode reading : pool.get("after")) {
                if (name.startsWith("G1 ")) {
                    sumByGc.merge(reading.get(3).asLong(), reading.get(1).asLong(), Long::sum);
                }
                if (name.equals("Metaspace")) {
                    assertTrue(reading.get(1).asLong() > 0 && reading.get(2).asLong() >= reading.get(1).asLong(), reading.toString());
                }
            }
        }
        assertEquals(new TreeSet<>(java.util.List.of("G1 Eden", "G1 Old", "G1 Survivor", "Metaspace")), names);
        int checked = 0;
        for (JsonNode gc : heap.get("gcs")) {
            Long sum = sumByGc.get(gc.get("gcId").asLong());
            if (sum != null && gc.get("usedAfter").asLong() >= 0) {
                assertEquals(gc.get("usedAfter").asLong(), sum.longValue(), gc.toString());
                checked++;
            }
        }
        assertTrue(checked > 100, "most GCs have G1's pools: " + checked);
    }
}
