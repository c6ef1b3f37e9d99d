package org.jfrworkbench.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import org.jfrworkbench.server.library.Runs;
import org.jfrworkbench.testkit.jfr.JfrChunks;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The parts of a run, posted with run= and chunk=, are one recording that grows (docs/http-api.md, Runs). */
class RunsApiTest {
    static final Path SAMPLES = Path.of(System.getProperty("samples.dir", "../sample-recordings"));
    static final Path CHECKOUT = SAMPLES.resolve("checkout-before.jfr");
    static final Path RETAINING = SAMPLES.resolve("retaining-cache.jfr");

    @TempDir
    Path data;
    TestServer server;

    @BeforeEach
    void start() throws Exception {
        server = new TestServer(data, 64 << 20, null);
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
    }

    private TestServer.Reply part(String run, int chunk, byte[] bytes, String more) throws Exception {
        return server.post("?run=" + run + "&chunk=" + chunk + more, bytes, null);
    }

    @Test
    void partsOutOfOrderAreOneRecordingEqualToImportingTheConcatenatedFile() throws Exception {
        List<byte[]> chunks = JfrChunks.split(CHECKOUT);
        assertEquals(4, chunks.size());
        String id = Runs.id("host-1-42");
        int[] order = {2, 0, 3, 1};
        for (int i = 0; i < order.length; i++) {
            TestServer.Reply r = part("host-1-42", order[i], chunks.get(order[i]), "&name=checkout-run");
            assertEquals(i == 0 ? 201 : 200, r.status(), r.body());
            JsonNode rec = r.json();
            assertEquals(id, rec.get("id").asText());
            assertEquals("host-1-42", rec.get("run").asText());
            assertEquals(i + 1, rec.get("parts").asInt());
            assertEquals(i + 1, rec.get("chunks").asInt());
            assertFalse(rec.get("ended").asBoolean());
            assertEquals("checkout-run", rec.get("name").asText());
        }
        TestServer.Reply whole = server.post("?name=whole", Files.readAllBytes(CHECKOUT), null);
        assertEquals(201, whole.status(), whole.body());
        JsonNode plain = whole.json();
        assertTrue(plain.get("run").isNull());
        assertEquals(0, plain.get("parts").asInt());

        JsonNode run = server.get("/api/recordings/" + id).json();
        assertEquals(plain.get("startMillis").asLong(), run.get("startMillis").asLong());
        assertEquals(plain.get("durationMillis").asLong(), run.get("durationMillis").asLong());
        assertEquals(plain.get("chunks").asInt(), run.get("chunks").asInt());
        assertEquals(plain.get("kinds"), run.get("kinds"));
        assertEquals(server.get("/api/recordings/" + plain.get("id").asText()).json().get("timeline"), run.get("timeline"));
        for (var kind : plain.get("kinds").properties()) {
            String q = "/collapsed?kind=" + kind.getKey();
            assertEquals(server.get("/api/recordings/" + plain.get("id").asText() + q).body(),
                    server.get("/api/recordings/" + id + q).body(), kind.getKey());
        }
        assertEquals(server.get("/api/recordings/" + plain.get("id").asText() + "/heap").body(),
                server.get("/api/recordings/" + id + "/heap").body());
        // its original is its parts in order: the file itself
        byte[] original = server.http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(server.base + "/api/recordings/"
                + id + "/original")).build(), java.net.http.HttpResponse.BodyHandlers.ofByteArray()).body();
        assertTrue(java.util.Arrays.equals(Files.readAllBytes(CHECKOUT), original));
    }

    @Test
    void aPartPostedAgainIsStoredOnceAndOtherBytesUnderItsNumberAreAConflict() throws Exception {
        List<byte[]> chunks = JfrChunks.split(CHECKOUT);
        assertEquals(201, part("r1", 0, chunks.get(0), "").status());
        JsonNode once = server.get("/api/recordings/" + Runs.id("r1")).json();
        TestServer.Reply again = part("r1", 0, chunks.get(0), "");
        assertEquals(200, again.status(), again.body());
        assertEquals(1, again.json().get("parts").asInt());
        assertEquals(once.get("sizeBytes"), again.json().get("sizeBytes"));
        assertEquals(once.get("kinds"), again.json().get("kinds"));

        TestServer.Reply conflict = part("r1", 0, chunks.get(1), "");
        assertEquals(409, conflict.status(), conflict.body());
        assertTrue(conflict.body().contains("part 0"), conflict.body());
        assertEquals(once.get("kinds"), server.get("/api/recordings/" + Runs.id("r1")).json().get("kinds"));
    }

    @Test
    void badRunParametersAreRefusedNamingThem() throws Exception {
        byte[] chunk = JfrChunks.split(CHECKOUT).get(0);
        TestServer.Reply badKey = server.post("?run=a%20b&chunk=0", chunk, null);
        assertEquals(400, badKey.status());
        assertTrue(badKey.body().contains("run"), badKey.body());
        TestServer.Reply longKey = server.post("?run=" + "k".repeat(129) + "&chunk=0", chunk, null);
        assertEquals(400, longKey.status());
        TestServer.Reply noChunk = server.post("?run=r2", chunk, null);
        assertEquals(400, noChunk.status());
        assertTrue(noChunk.body().contains("chunk"), noChunk.body());
        TestServer.Reply bigChunk = server.post("?run=r2&chunk=1000001", chunk, null);
        assertEquals(400, bigChunk.status());
        assertTrue(bigChunk.body().contains("chunk"), bigChunk.body());
        TestServer.Reply chunkAlone = server.post("?chunk=1", chunk, null);
        assertEquals(400, chunkAlone.status());
        assertTrue(chunkAlone.body().contains("run"), chunkAlone.body());
        TestServer.Reply text = server.post("?run=r2&chunk=0", RecordingsApiTest.STACKS.getBytes(), null);
        assertEquals(400, text.status());
        assertTrue(text.body().contains("JFR"), text.body());
        TestServer.Reply truncated = server.post("?run=r2&chunk=0", java.util.Arrays.copyOf(chunk, 5000), null);
        assertEquals(400, truncated.status(), truncated.body());
        assertEquals(0, server.get("/api/recordings").json().get("total").asLong());
        assertEquals(404, server.get("/api/recordings/" + Runs.id("r2")).status());
    }

    @Test
    void listSearchAndFacetsCountTheRunOnceAndFollowItAsItGrows() throws Exception {
        byte[] first = JfrChunks.split(CHECKOUT).get(1);
        byte[] second = JfrChunks.split(RETAINING).get(2);
        String id = Runs.id("svc-run");
        assertEquals(201, part("svc-run", 0, first, "&labels=service=shop").status());
        JsonNode list = server.get("/api/recordings").json();
        assertEquals(1, list.get("total").asLong());
        assertEquals(1, list.get("facets").get("labels").get("service=shop").asLong());
        java.util.Set<String> framesBefore = frames(id);

        TestServer.Reply grown = part("svc-run", 1, second, "&labels=version=2");
        assertEquals(200, grown.status(), grown.body());
        assertEquals("shop", grown.json().get("labels").get("service").asText());
        assertEquals("2", grown.json().get("labels").get("version").asText());
        list = server.get("/api/recordings").json();
        assertEquals(1, list.get("total").asLong());
        assertEquals(2, list.get("recordings").get(0).get("parts").asInt());
        assertEquals(1, list.get("facets").get("labels").get("service=shop").asLong());
        assertEquals(1, list.get("facets").get("labels").get("version=2").asLong());
        // a method of the workload only the second part recorded
        java.util.Set<String> framesAfter = frames(id);
        assertTrue(framesAfter.containsAll(framesBefore));
        String method = framesAfter.stream().filter(f -> !framesBefore.contains(f) && f.matches("(org|java)\\.[\\w.$]+\\.\\w+"))
                .sorted().findFirst().orElseThrow();
        JsonNode found = server.get("/api/recordings?q=" + enc("method:\"" + method + "\"")).json();
        assertEquals(1, found.get("total").asLong(), method);
        assertEquals(id, found.get("recordings").get(0).get("id").asText());
        JsonNode hits = server.get("/api/search?q=" + enc("\"" + method + "\"")).json();
        assertTrue(hits.get("total").asLong() > 0, hits.toString());
        for (JsonNode hit : hits.get("hits")) {
            assertEquals(id, hit.get("recording").get("id").asText());
        }
    }

    /** Every frame name in the run's samples, of every kind. */
    private java.util.Set<String> frames(String id) throws Exception {
        java.util.Set<String> names = new java.util.HashSet<>();
        for (var kind : server.get("/api/recordings/" + id).json().get("kinds").properties()) {
            for (String line : server.get("/api/recordings/" + id + "/collapsed?kind=" + kind.getKey()).body().split("\n")) {
                int space = line.lastIndexOf(' ');
                if (space > 0) {
                    names.addAll(List.of(line.substring(0, space).split(";")));
                }
            }
        }
        return names;
    }

    @Test
    void viewsOfAGrowingRunAreNeverServedFromItsOlderVersion() throws Exception {
        List<byte[]> chunks = JfrChunks.split(CHECKOUT);
        String id = Runs.id("cache-run");
        part("cache-run", 0, chunks.get(1), ""); // chunks 0 and 2 of this file hold no cpu samples
        JsonNode before = server.get("/api/recordings/" + id + "/flame?kind=cpu").json();
        String binaryBefore = server.get("/api/recordings/" + id + "/flame?kind=cpu&format=binary").body();
        String collapsedBefore = server.get("/api/recordings/" + id + "/collapsed?kind=cpu").body();
        part("cache-run", 1, chunks.get(3), "");
        JsonNode after = server.get("/api/recordings/" + id + "/flame?kind=cpu").json();
        assertTrue(after.get("total").asLong() > before.get("total").asLong(), before.get("total") + " -> " + after.get("total"));
        assertNotEquals(binaryBefore, server.get("/api/recordings/" + id + "/flame?kind=cpu&format=binary").body());
        assertNotEquals(collapsedBefore, server.get("/api/recordings/" + id + "/collapsed?kind=cpu").body());
        JsonNode info = server.get("/api/recordings/" + id).json();
        assertEquals(after.get("total").asLong(), info.get("kinds").get("cpu").get("weight").asLong());
    }

    @Test
    void aPinnedRunStartKeepsTimeRangesMeaningTheSameAsTheRunGrows() throws Exception {
        List<byte[]> chunks = JfrChunks.split(CHECKOUT);
        long start = server.post("", Files.readAllBytes(CHECKOUT), null).json().get("startMillis").asLong();
        long lastStart = server.post("", chunks.get(3), null).json().get("startMillis").asLong();
        String id = Runs.id("pinned");
        long runStart = start - 1000;
        // the last part first: without the pinned start, the run's time would begin at that part
        part("pinned", 3, chunks.get(3), "&runStart=" + runStart);
        assertEquals(runStart, server.get("/api/recordings/" + id).json().get("startMillis").asLong());
        String lastPartOnly = "/flame?kind=cpu&from=" + (lastStart - runStart) + "&to=" + 1_000_000_000;
        JsonNode before = server.get("/api/recordings/" + id + lastPartOnly).json();
        long allBefore = server.get("/api/recordings/" + id + "/flame?kind=cpu").json().get("total").asLong();
        part("pinned", 1, chunks.get(1), "&runStart=" + (start - 5000));
        JsonNode grown = server.get("/api/recordings/" + id).json();
        assertEquals(runStart, grown.get("startMillis").asLong(), "the first runStart given stays");
        assertTrue(server.get("/api/recordings/" + id + "/flame?kind=cpu").json().get("total").asLong() > allBefore);
        JsonNode after = server.get("/api/recordings/" + id + lastPartOnly).json();
        assertEquals(before.get("total"), after.get("total"), "the same range, the same samples");
        assertEquals(before.get("nodes").get("name").size(), after.get("nodes").get("name").size());
        assertEquals(0, server.get("/api/recordings/" + id + "/flame?kind=cpu&from=0&to=1000").json().get("total").asLong());
        TestServer.Reply badStart = server.post("?run=pinned&chunk=2&runStart=12", chunks.get(2), null);
        assertEquals(400, badStart.status());
        assertTrue(badStart.body().contains("runStart"), badStart.body());
    }

    @Test
    void lastMarksTheRunEndedAndALaterPartOpensItAgain() throws Exception {
        List<byte[]> chunks = JfrChunks.split(CHECKOUT);
        String id = Runs.id("ending");
        part("ending", 0, chunks.get(0), "");
        TestServer.Reply last = part("ending", 1, chunks.get(1), "&last=true");
        assertTrue(last.json().get("ended").asBoolean(), last.body());
        TestServer.Reply more = part("ending", 2, chunks.get(2), "");
        assertFalse(more.json().get("ended").asBoolean(), more.body());
        TestServer.Reply end = server.post("?run=ending&last=true", new byte[0], null);
        assertEquals(200, end.status(), end.body());
        assertTrue(end.json().get("ended").asBoolean());
        assertEquals(3, end.json().get("parts").asInt());
        assertTrue(server.get("/api/recordings/" + id).json().get("ended").asBoolean());
        TestServer.Reply unknown = server.post("?run=never-seen&last=true", new byte[0], null);
        assertEquals(404, unknown.status(), unknown.body());
        TestServer.Reply bodyNoChunk = server.post("?run=ending&last=true", chunks.get(3), null);
        assertEquals(400, bodyNoChunk.status());
        assertTrue(bodyNoChunk.body().contains("chunk"), bodyNoChunk.body());
    }

    @Test
    void aRunWhoseIndexEntryFailsIsAnsweredAsStoredAndFoundOnceTheRetrySucceeds() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        List<CountDownLatch> stateSeen = List.of(new CountDownLatch(1), new CountDownLatch(1));
        // the hook each attempt at an entry runs first: the part's first attempt and the end's first fail as a full
        // disk would; each retry waits until the test has seen the run's state
        server.server.library().beforeIndexing(info -> {
            int n = attempts.incrementAndGet();
            if (n == 1 || n == 3) {
                throw new UncheckedIOException(new IOException("no space left on device"));
            }
            try {
                stateSeen.get(n / 2 - 1).await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        String id = Runs.id("retried-run");
        TestServer.Reply first = part("retried-run", 0, JfrChunks.split(CHECKOUT).get(0), "");
        assertEquals(201, first.status(), first.body());
        assertRetrying(id, 1);
        assertEquals(0, server.get("/api/recordings?q=id:" + id).json().get("total").asLong());
        stateSeen.get(0).countDown();
        JsonNode found = awaitFound(id, false);
        assertEquals(1, found.get("parts").asInt());
        assertEquals(2, attempts.get());

        // the run's end: its entry (which the list shows) fails the same way, and the run stays found meanwhile
        TestServer.Reply end = server.post("?run=retried-run&last=true", new byte[0], null);
        assertEquals(200, end.status(), end.body());
        assertTrue(end.json().get("ended").asBoolean());
        assertRetrying(id, 1);
        stateSeen.get(1).countDown();
        awaitFound(id, true);
        assertEquals(4, attempts.get());
        assertEquals("indexed", server.get("/api/recordings/" + id).json().get("index").get("state").asText());
    }

    private void assertRetrying(String id, int attempts) throws Exception {
        JsonNode index = server.get("/api/recordings/" + id).json().get("index");
        assertEquals("retrying", index.get("state").asText(), index.toString());
        assertEquals(attempts, index.get("attempts").asInt());
        assertEquals("UncheckedIOException", index.get("error").asText());
        assertTrue(index.get("nextAttemptMillis").asLong() > 0);
    }

    /** The run as the list finds it, once it is found with ended as given. */
    private JsonNode awaitFound(String id, boolean ended) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            JsonNode list = server.get("/api/recordings?q=id:" + id).json();
            if (list.get("total").asLong() == 1 && list.get("recordings").get(0).get("ended").asBoolean() == ended) {
                return list.get("recordings").get(0);
            }
            assertTrue(System.nanoTime() < deadline, "the retried entry never became searchable: " + list);
            Thread.sleep(20); // between polls of the condition
        }
    }

    @Test
    void aRunSurvivesARestartAndAPartArrivingAfterItLandsInIt() throws Exception {
        List<byte[]> chunks = JfrChunks.split(CHECKOUT);
        String id = Runs.id("restart");
        part("restart", 0, chunks.get(0), "");
        part("restart", 1, chunks.get(1), "");
        server.close();
        server = new TestServer(data, 64 << 20, null);
        JsonNode rec = server.get("/api/recordings/" + id).json();
        assertEquals(2, rec.get("parts").asInt());
        assertEquals(200, part("restart", 1, chunks.get(1), "").status());
        TestServer.Reply r = part("restart", 2, chunks.get(2), "");
        assertEquals(200, r.status(), r.body());
        assertEquals(3, r.json().get("parts").asInt());
        assertEquals(1, server.get("/api/recordings").json().get("total").asLong());
    }

    @Test
    void aRunGrowsUpToTheRunLimitAndAPartBeyondItIsRefusedNamingTheRun() throws Exception {
        server.close();
        server = new TestServer(data, 600 << 10, null);
        List<byte[]> chunks = JfrChunks.split(CHECKOUT); // 293, 235, 266 and 174 kB
        assertEquals(201, part("capped", 0, chunks.get(1), "").status());
        JsonNode two = part("capped", 1, chunks.get(2), "").json();
        TestServer.Reply over = part("capped", 2, chunks.get(3), "");
        assertEquals(413, over.status(), over.body());
        assertTrue(over.body().contains("capped") && over.body().contains("run limit"), over.body());
        JsonNode run = server.get("/api/recordings/" + Runs.id("capped")).json();
        assertEquals(2, run.get("parts").asInt());
        assertEquals(two.get("kinds"), run.get("kinds"));
        assertEquals(two.get("sizeBytes"), run.get("sizeBytes"));
    }

    private static String enc(String s) {
        return java.net.URLEncoder.encode(s, java.nio.charset.StandardCharsets.UTF_8);
    }
}
