package org.jfrworkbench.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import org.jfrworkbench.testkit.jfr.CountedLeakRecording;
import org.jfrworkbench.testkit.jfr.LeakingRecording;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The heap diff over HTTP: two GCs of one leaking recording, a leaking recording against one that does not leak. */
class HeapDiffApiTest {
    @TempDir
    static Path data;
    static TestServer server;
    static String leaking;
    static String steady;
    /** A leak no live sample holds, counted by the JVM at each chunk's full GC (GCs 1, 3 and 5). */
    static String counted;

    @BeforeAll
    static void start() throws Exception {
        server = new TestServer(data, 64 << 20, null);
        // 1 object in 4 sampled: a few hundred live samples a side, as a real recording has
        leaking = server.upload("?name=leaking.jfr", LeakingRecording.write(1L << 20, 0.25, 7));
        steady = server.upload("?name=steady.jfr", LeakingRecording.write(1L << 16, 0.25, 8));
        counted = server.upload("?name=leak-counted.jfr", CountedLeakRecording.write(true));
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    /** Two GCs the JVM counted: the counts are the classes' bytes, and an exact change is a change. */
    @Test
    void betweenTwoCountedGcsTheCountsAreTheBytesAndTheirChangeIsExact() throws Exception {
        JsonNode diff = server.get("/api/heap/diff?base=" + counted + "&baseGc=1&target=" + counted + "&targetGc=5").json();
        JsonNode first = diff.get("byClass").get(0);
        assertEquals(CountedLeakRecording.LEAK, first.get("class").asText(), diff.toString());
        assertEquals(CountedLeakRecording.leakBytes(0), first.get("baseBytes").asLong());
        assertEquals(CountedLeakRecording.leakBytes(2), first.get("targetBytes").asLong());
        assertEquals(0, first.get("baseSamples").asLong());
        assertTrue(first.get("significant").asBoolean(), first.toString());
        assertEquals(1, first.get("significance").asInt());
        assertEquals(0, first.get("pValue").asDouble(), first.toString());
        JsonNode flat = diff.get("byClass").get(1);
        assertEquals(CountedLeakRecording.FLAT, flat.get("class").asText(), diff.toString());
        assertEquals(flat.get("baseBytes").asLong(), flat.get("targetBytes").asLong(), flat.toString());
        assertEquals(false, flat.get("significant").asBoolean(), flat.toString());
        assertTrue(diff.get("test").get("name").asText().contains("JVM's count"), diff.get("test").toString());
    }

    @Test
    void anEarlyGcAgainstTheLastFlagsTheLeakAsGrownAndSignificant() throws Exception {
        JsonNode diff = server.get("/api/heap/diff?base=" + leaking + "&baseGc=4&target=" + leaking + "&targetGc=28").json();
        JsonNode first = diff.get("byClass").get(0);
        assertEquals(LeakingRecording.LEAK, first.get("class").asText(), diff.toString());
        assertTrue(first.get("significant").asBoolean(), first.toString());
        assertEquals(1, first.get("significance").asInt());
        assertTrue(first.get("delta").asLong() > 40L << 20, first.toString());
        assertTrue(first.get("pValue").asDouble() < 0.05, first.toString());
        JsonNode site = diff.get("byStack").get(0);
        assertEquals(LeakingRecording.LEAK, site.get("class").asText(), site.toString());
        assertEquals(LeakingRecording.LEAK_STACK, HeapGrowthApiTest.strings(site.get("stack")));
        assertTrue(site.get("significant").asBoolean(), site.toString());
        assertEquals("Bonferroni", diff.get("test").get("correction").asText());
        assertEquals("absolute", diff.get("mode").asText());
        for (JsonNode row : diff.get("byClass")) {
            if (!row.get("class").asText().equals(LeakingRecording.LEAK)) {
                assertEquals(false, row.get("significant").asBoolean(), "its bytes stayed: " + row);
            }
        }
    }

    @Test
    void inSharesTheFlatClassesShrinkAsTheLeakTakesTheHeap() throws Exception {
        JsonNode diff = server.get("/api/heap/diff?base=" + leaking + "&baseGc=4&target=" + leaking + "&targetGc=28&mode=relative").json();
        assertEquals("relative", diff.get("mode").asText());
        for (JsonNode row : diff.get("byClass")) {
            int expected = row.get("class").asText().equals(LeakingRecording.LEAK) ? 1 : -1;
            assertEquals(expected, row.get("significance").asInt(), row.toString());
        }
        assertTrue(diff.get("test").get("name").asText().contains("two-proportion"), diff.get("test").toString());
    }

    @Test
    void aGcAgainstItselfFlagsNothing() throws Exception {
        JsonNode diff = server.get("/api/heap/diff?base=" + leaking + "&baseGc=20&target=" + leaking + "&targetGc=20").json();
        assertTrue(diff.get("byClass").size() >= 3, diff.toString());
        for (String table : new String[] {"byClass", "byStack"}) {
            for (JsonNode row : diff.get(table)) {
                assertEquals(false, row.get("significant").asBoolean(), row.toString());
                assertEquals(0, row.get("delta").asLong(), row.toString());
            }
        }
        assertTrue(diff.get("warnings").toString().contains("both sides are GC 20"), diff.toString());
    }

    @Test
    void twoRecordingsAtTheirLastGcsFlagTheLeakOnlyInTheOneThatLeaks() throws Exception {
        JsonNode diff = server.get("/api/heap/diff?base=" + steady + "&target=" + leaking).json();
        JsonNode first = diff.get("byClass").get(0);
        assertEquals(LeakingRecording.LEAK, first.get("class").asText(), diff.toString());
        assertTrue(first.get("significant").asBoolean(), first.toString());
        assertTrue(first.get("targetBytes").asLong() > first.get("baseBytes").asLong() * 4, first.toString());
        assertEquals(28, diff.get("base").get("gc").get("index").asInt(), "each side's default GC is its last one");
        for (JsonNode row : diff.get("byClass")) {
            if (!row.get("class").asText().equals(LeakingRecording.LEAK)) {
                assertEquals(false, row.get("significant").asBoolean(), "the same flat heap in both: " + row);
            }
        }
    }

    @Test
    void badRequestsAreNamed() throws Exception {
        TestServer.Reply range = server.get("/api/heap/diff?base=" + leaking + "&baseGc=99&target=" + leaking);
        assertEquals(400, range.status(), range.body());
        assertTrue(range.body().contains("base: gc must be between 0 and 28"), range.body());
        TestServer.Reply missing = server.get("/api/heap/diff?base=" + leaking);
        assertEquals(400, missing.status(), missing.body());
        assertTrue(missing.body().contains("target"), missing.body());
        TestServer.Reply unknown = server.get("/api/heap/diff?base=" + leaking + "&target=0123456789ab");
        assertEquals(404, unknown.status(), unknown.body());
        TestServer.Reply early = server.get("/api/heap/diff?base=" + leaking + "&baseGc=0&target=" + leaking + "&targetGc=-1");
        assertEquals(400, early.status(), early.body());
        assertTrue(early.body().contains("targetGc"), early.body());
        TestServer.Reply mode = server.get("/api/heap/diff?base=" + leaking + "&target=" + leaking + "&mode=sideways");
        assertEquals(400, mode.status(), mode.body());
        assertTrue(mode.body().contains("mode must be relative or absolute"), mode.body());
    }
}
