package org.jfrworkbench.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** GET /api/recordings/{id}/threads: a lane per thread whose buckets add up to the kind's samples. */
class ThreadTimelinesApiTest {
    @TempDir
    static Path data;
    static TestServer server;
    static String id;

    @BeforeAll
    static void start() throws Exception {
        server = new TestServer(data, 64 << 20, null);
        id = server.uploadFixture("a");
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @Test
    void everySampleOfTheKindIsInOneLaneBusiestFirstOnTheRecordingsTimelineBuckets() throws Exception {
        JsonNode rec = server.get("/api/recordings/" + id).json();
        JsonNode lanes = server.get("/api/recordings/" + id + "/threads?kind=cpu").json();
        assertEquals(rec.get("kinds").get("cpu").get("samples").asLong(), lanes.get("samples").asLong());
        assertEquals(rec.get("timeline").get("cpu").get("bucketMillis").asLong(), lanes.get("bucketMillis").asLong());
        long sum = 0;
        long previous = Long.MAX_VALUE;
        for (JsonNode lane : lanes.get("threads")) {
            long counted = 0;
            for (JsonNode c : lane.get("counts")) {
                counted += c.asLong();
            }
            assertEquals(lane.get("samples").asLong(), counted, "a lane's buckets add up to its samples");
            assertTrue(lane.get("samples").asLong() <= previous, "busiest first");
            assertTrue(!lane.get("name").asText().isEmpty());
            previous = lane.get("samples").asLong();
            sum += counted;
        }
        assertEquals(lanes.get("samples").asLong(), sum + lanes.get("otherSamples").asLong());

        JsonNode one = server.get("/api/recordings/" + id + "/threads?kind=cpu&limit=1").json();
        assertEquals(1, one.get("threads").size());
        assertEquals(lanes.get("threads").size() - 1 + lanes.get("otherThreads").asInt(), one.get("otherThreads").asInt());
        assertEquals(lanes.get("threads").get(0).get("id"), one.get("threads").get(0).get("id"));
        assertEquals(lanes.get("samples").asLong() - one.get("threads").get(0).get("samples").asLong(), one.get("otherSamples").asLong());
    }

    @Test
    void statesSourcesAndKindsAreCheckedAsForTheFlameGraph() throws Exception {
        assertEquals(400, server.get("/api/recordings/" + id + "/threads?kind=nativemem").status());
        assertEquals(400, server.get("/api/recordings/" + id + "/threads?kind=cpu&states=STATE_NOPE").status());
        assertEquals(400, server.get("/api/recordings/" + id + "/threads?kind=cpu&source=nope").status());
        assertEquals(400, server.get("/api/recordings/" + id + "/threads?kind=cpu&limit=0").status());
        assertEquals(404, server.get("/api/recordings/ffffffffffffffff/threads").status());
    }
}
