package org.jfrworkbench.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.jfrworkbench.server.library.Runs;
import org.jfrworkbench.testkit.Recordings;
import org.jfrworkbench.testkit.jfr.JfrChunks;
import org.jfrworkbench.testkit.jfr.RunChunks;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A part is read alone into its run as the parts before left it, and the run's views are those of its parts' chunks
 * uploaded as one file: flame graphs of every kind, timeline, GCs, the live heap at each GC and native leaks.
 */
class RunPartByPartApiTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    java.nio.file.Path data;
    TestServer server;

    @BeforeEach
    void start() throws Exception {
        server = new TestServer(data, 64 << 20, null);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    /** Posts a part; answers its reply and the steps its Server-Timing names. */
    private JsonNode part(String run, int chunk, byte[] bytes, List<String> steps) throws Exception {
        HttpResponse<String> r = server.http.send(HttpRequest.newBuilder(URI.create(server.base + "/api/recordings?run="
                        + run + "&chunk=" + chunk)).header("Content-Type", "application/octet-stream")
                .POST(HttpRequest.BodyPublishers.ofByteArray(bytes)).build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(r.statusCode() == 201 || r.statusCode() == 200 && chunk > 0, r.statusCode() + ": " + r.body());
        steps.clear();
        for (String step : r.headers().firstValue("Server-Timing").orElse("").split(", ")) {
            steps.add(step.substring(0, step.indexOf(';')));
        }
        return JSON.readTree(r.body());
    }

    private static byte[] concatenation(List<byte[]> chunks) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        chunks.forEach(all::writeBytes);
        return all.toByteArray();
    }

    @Test
    void aRunAppendedPartByPartEqualsItsChunksUploadedAsOneFile() throws Exception {
        List<byte[]> chunks = RunChunks.write(40);
        List<String> steps = new ArrayList<>();
        for (int i = 0; i < chunks.size(); i++) {
            JsonNode rec = part("synthetic", i, chunks.get(i), steps);
            assertEquals(i + 1, rec.get("parts").asInt());
            if (i > 0) {
                // read alone into the kept run: no check of its own, no reading of the parts before
                assertTrue(steps.contains("resume") && !steps.contains("check"), steps.toString());
            }
        }
        String whole = server.upload("?name=whole", concatenation(chunks));
        JsonNode run = server.get("/api/recordings/" + Runs.id("synthetic")).json();
        for (String kind : List.of("cpu", "alloc", "live", "nativemem", "leak")) {
            assertTrue(run.get("kinds").has(kind), kind + " in " + run.get("kinds"));
        }
        assertSameViews(whole, Runs.id("synthetic"));
        JsonNode heap = server.get("/api/recordings/" + whole + "/heap").json();
        assertEquals(40, heap.get("gcs").size(), "every GC, the 20 split over two chunks joined: " + heap.get("gcs"));
    }

    @Test
    void realAgentChunksAppendedPartByPartEqualTheirFile() throws Exception {
        for (String name : List.of("retaining-cache.jfr", "checkout-before.jfr")) {
            List<byte[]> chunks = JfrChunks.split(RunsApiTest.SAMPLES.resolve(name));
            List<String> steps = new ArrayList<>();
            for (int i = 0; i < chunks.size(); i++) {
                part(name, i, chunks.get(i), steps);
            }
            String whole = server.upload("?name=" + name, concatenation(chunks));
            assertSameViews(whole, Runs.id(name));
        }
    }

    @Test
    void asyncProfilerRecordingsOfEveryKindBackToBackAppendedPartByPartEqualTheirConcatenation() throws Exception {
        // cpu, alloc, live and lock, then wall and native memory (every malloc and free), twice, then the first again:
        // the same metadata with other meanings of the same constant ids from one part to the next
        List<byte[]> chunks = new ArrayList<>();
        for (java.nio.file.Path recording : Recordings.sameMetadataParts()) {
            chunks.addAll(JfrChunks.split(recording));
        }
        List<String> steps = new ArrayList<>();
        for (int i = 0; i < chunks.size(); i++) {
            part("ap", i, chunks.get(i), steps);
        }
        String whole = server.upload("?name=whole", concatenation(chunks));
        JsonNode run = server.get("/api/recordings/" + Runs.id("ap")).json();
        for (String kind : List.of("cpu", "alloc", "live", "lock", "wall", "nativemem", "leak")) {
            assertTrue(run.get("kinds").has(kind), kind + " in " + run.get("kinds"));
        }
        assertSameViews(whole, Runs.id("ap"));
    }

    @Test
    void aPartBeforeTheRunsLastReadsTheRunAgainAndTheNextPartGoesOnFromThere() throws Exception {
        List<byte[]> chunks = RunChunks.write(12);
        List<String> steps = new ArrayList<>();
        int[] order = {0, 1, 2, 3, 5, 4, 6, 7, 8, 9, 10, 11};
        for (int i = 0; i < order.length; i++) {
            part("swapped", order[i], chunks.get(order[i]), steps);
            if (order[i] == 4) {
                assertTrue(steps.contains("check") && !steps.contains("resume"), "read again: " + steps);
            } else if (i > 0) {
                assertTrue(steps.contains("resume"), steps.toString());
            }
        }
        String whole = server.upload("?name=whole", concatenation(chunks));
        assertSameViews(whole, Runs.id("swapped"));
    }

    @Test
    void afterARestartTheNextPartGoesOnFromTheKeptState() throws Exception {
        List<byte[]> chunks = RunChunks.write(10);
        List<String> steps = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            part("restarted", i, chunks.get(i), steps);
        }
        server.close();
        server = new TestServer(data, 64 << 20, null);
        for (int i = 6; i < chunks.size(); i++) {
            part("restarted", i, chunks.get(i), steps);
            assertTrue(steps.contains("resume") && !steps.contains("check"), steps.toString());
        }
        String whole = server.upload("?name=whole", concatenation(chunks));
        assertSameViews(whole, Runs.id("restarted"));
    }

    @Test
    void twoHundredSmallPartsStayOneRecording() throws Exception {
        List<byte[]> chunks = RunChunks.write(200);
        List<String> steps = new ArrayList<>();
        for (int i = 0; i < chunks.size(); i++) {
            JsonNode rec = part("long", i, chunks.get(i), steps);
            assertEquals(Runs.id("long"), rec.get("id").asText());
        }
        JsonNode run = server.get("/api/recordings/" + Runs.id("long")).json();
        assertEquals(200, run.get("parts").asInt());
        assertEquals(200, run.get("chunks").asInt());
        assertEquals(1, server.get("/api/recordings").json().get("total").asLong());
        String whole = server.upload("?name=whole", concatenation(chunks));
        assertEquals(server.get("/api/recordings/" + whole).json().get("kinds"), run.get("kinds"));
    }

    @Test
    void aRunThatOutgrowsTheSamplesTheServerHoldsIsRefusedNamingItAndGoesOnAsAContinuationRun() throws Exception {
        server.close();
        // a server that holds 2,000 samples in one recording (tables take room by pages, the first of 256 samples for
        // each of the five kinds): the run outgrows it when its cpu samples (five a part) need a larger page
        server = new TestServer(data, new org.jfrworkbench.importer.ImportLimits(1L << 30, 100, 2000, 1024, null));
        List<byte[]> chunks = RunChunks.write(100);
        List<String> steps = new ArrayList<>();
        JsonNode last = null;
        int refused = -1;
        for (int i = 0; i < chunks.size() && refused < 0; i++) {
            TestServer.Reply r = server.post("?run=capped&chunk=" + i, chunks.get(i), null);
            if (r.status() == 413) {
                assertTrue(r.body().contains("run capped") && r.body().contains("2000 samples"), r.body());
                refused = i;
            } else {
                assertEquals(i == 0 ? 201 : 200, r.status(), r.body());
                last = r.json();
            }
        }
        assertTrue(refused > 0, "refused at part " + refused);
        JsonNode run = server.get("/api/recordings/" + Runs.id("capped")).json();
        assertEquals(refused, run.get("parts").asInt(), "the run is as its last part left it");
        assertEquals(last.get("kinds"), run.get("kinds"));
        // the agent goes on in the run KEY.2, with the same part numbers
        JsonNode next = part("capped.2", refused, chunks.get(refused), steps);
        assertEquals(1, next.get("parts").asInt());
        assertEquals(refused, next.get("partNumbers").get(0).asInt());
        // and the first run took no part of the refused one: its next part is read alone again
        TestServer.Reply again = server.post("?run=capped&chunk=" + refused, chunks.get(refused), null);
        assertEquals(413, again.status(), again.body());
    }

    /** The run's views equal the file's: metadata, every kind's collapsed stacks, the heap and the live heap per GC. */
    private void assertSameViews(String fileId, String runId) throws Exception {
        JsonNode file = server.get("/api/recordings/" + fileId).json();
        JsonNode run = server.get("/api/recordings/" + runId).json();
        for (String field : List.of("startMillis", "durationMillis", "chunks", "kinds", "timeline", "jvm", "heap", "threads")) {
            assertEquals(file.get(field), run.get(field), field);
        }
        for (var kind : file.get("kinds").properties()) {
            String q = "/collapsed?kind=" + kind.getKey();
            assertEquals(server.get("/api/recordings/" + fileId + q).body(), server.get("/api/recordings/" + runId + q).body(),
                    kind.getKey());
        }
        String heap = server.get("/api/recordings/" + fileId + "/heap").body();
        assertEquals(heap, server.get("/api/recordings/" + runId + "/heap").body());
        int gcs = JSON.readTree(heap).get("gcs").size();
        for (int gc = 0; gc < gcs; gc++) {
            TestServer.Reply a = server.get("/api/recordings/" + fileId + "/live?gc=" + gc);
            TestServer.Reply b = server.get("/api/recordings/" + runId + "/live?gc=" + gc);
            assertEquals(a.status(), b.status());
            assertEquals(a.body(), b.body(), "live heap at GC " + gc);
        }
        assertFalse(file.get("kinds").isEmpty());
    }
}
