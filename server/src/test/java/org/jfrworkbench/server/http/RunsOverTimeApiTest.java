package org.jfrworkbench.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import org.jfrworkbench.testkit.ServiceRun;
import org.jfrworkbench.testkit.jfr.JfrWriter;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runs of a service over time: two runs labelled service=checkout 5 s apart (the second one calls audit, which the
 * first never does) and a run of another service between them, so every answer is known from the fixture.
 */
class RunsOverTimeApiTest {
    static final long T0 = JfrWriter.START_NANOS;
    static final long T0_MS = T0 / 1_000_000;
    static final String Q = "service:checkout";

    @TempDir
    Path data;
    TestServer server;
    String first;
    String second;
    String other;

    @BeforeEach
    void upload() throws Exception {
        server = new TestServer(data, 64 << 20, null);
        // 200 samples 10 ms apart: parse then render
        first = id(server.post("?name=run1&labels=service=checkout",
                ServiceRun.of(T0, 200, 10, i -> i < 100 ? "parse" : "render"), null));
        // 5 s later: parse and audit alternate
        second = id(server.post("?name=run2&labels=service=checkout",
                ServiceRun.of(T0 + 5_000_000_000L, 200, 10, i -> i % 2 == 0 ? "parse" : "audit"), null));
        other = id(server.post("?name=catalog&labels=service=catalog",
                ServiceRun.of(T0 + 1_000_000_000L, 50, 10, i -> "browse"), null));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private static String id(TestServer.Reply r) {
        assertTrue(r.status() == 201 || r.status() == 200, r.body());
        return r.json().get("id").asText();
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private JsonNode ok(String path) throws Exception {
        TestServer.Reply r = server.get(path);
        assertEquals(200, r.status(), path + ": " + r.body());
        return r.json();
    }

    /** Per frame name, the total weight of the flame graph's nodes of that name (callers summed). */
    private static Map<String, Long> byName(JsonNode graph) {
        Map<String, Long> out = new HashMap<>();
        JsonNode names = graph.get("names");
        JsonNode nodes = graph.get("nodes");
        for (int i = 0; i < nodes.get("name").size(); i++) {
            out.merge(names.get(nodes.get("name").get(i).asInt()).asText(), nodes.get("total").get(i).asLong(), Long::sum);
        }
        return out;
    }

    @Test
    void timelineBucketsAddUpToEachRunsSamplesOnOneAxis() throws Exception {
        JsonNode t = ok("/api/timeline?q=" + enc(Q) + "&buckets=70");
        assertEquals(2, t.get("runs").size(), "only the checkout runs: " + t);
        assertEquals(0, t.get("omitted").asLong());
        long bucket = t.get("bucketMillis").asLong();
        long from = t.get("from").asLong();
        assertTrue(t.get("buckets").asInt() <= 70);
        long[] total = new long[t.get("buckets").asInt()];
        for (JsonNode run : t.get("runs")) {
            JsonNode rec = ok("/api/recordings/" + run.get("id").asText());
            assertEquals(rec.get("startMillis").asLong(), run.get("startMillis").asLong());
            JsonNode counts = run.get("kinds").get("cpu").get("counts");
            long sum = 0;
            int firstBucket = -1;
            for (int b = 0; b < counts.size(); b++) {
                sum += counts.get(b).asLong();
                total[b] += counts.get(b).asLong();
                if (firstBucket < 0 && counts.get(b).asLong() > 0) {
                    firstBucket = b;
                }
            }
            assertEquals(rec.get("kinds").get("cpu").get("samples").asLong(), sum, "every sample in one bucket: " + run);
            assertEquals(200, sum);
            // on the common axis: the run's first sample lies in the bucket of its start
            assertEquals((run.get("startMillis").asLong() - from) / bucket, firstBucket);
        }
        JsonNode totals = t.get("totals").get("cpu");
        for (int b = 0; b < total.length; b++) {
            assertEquals(total[b], totals.get(b).asLong(), "bucket " + b);
        }
        assertTrue(t.get("runs").get(0).get("startMillis").asLong() < t.get("runs").get(1).get("startMillis").asLong(),
                "runs in time order");
        assertEquals("run1", t.get("runs").get(0).get("name").asText());
        assertEquals("checkout", t.get("runs").get(0).get("labels").get("service").asText());
    }

    @Test
    void theMergedFlameGraphOfARangeSumsThePerRunGraphsOfThatRange() throws Exception {
        JsonNode r1 = ok("/api/recordings/" + first);
        JsonNode r2 = ok("/api/recordings/" + second);
        long s1 = r1.get("startMillis").asLong();
        long s2 = r2.get("startMillis").asLong();
        // from the middle of the first run to the middle of the second
        long from = s1 + 1_000;
        long to = s2 + 1_000;
        JsonNode merged = ok("/api/merged/flame?q=" + enc(Q) + "&kind=cpu&from=" + from + "&to=" + to);
        JsonNode p1 = ok("/api/recordings/" + first + "/flame?kind=cpu&from=" + (from - s1) + "&to=" + (to - s1));
        JsonNode p2 = ok("/api/recordings/" + second + "/flame?kind=cpu&from=" + Math.max(0, from - s2) + "&to=" + (to - s2));
        assertEquals(p1.get("total").asLong() + p2.get("total").asLong(), merged.get("total").asLong());
        assertEquals(200, merged.get("total").asLong(), "the second half of each run");
        Map<String, Long> names = byName(merged);
        Map<String, Long> a = byName(p1);
        Map<String, Long> b = byName(p2);
        for (String frame : List.of("app.Main.main", "app.Service.handle", "app.Service.parse", "app.Service.render",
                "app.Service.audit")) {
            assertEquals(a.getOrDefault(frame, 0L) + b.getOrDefault(frame, 0L), names.getOrDefault(frame, 0L), frame);
        }
        assertEquals(100, names.get("app.Service.render"), "the first run's second half");
        assertEquals(50, names.get("app.Service.audit"));
        assertFalse(names.containsKey("app.Service.browse"), "another service's run is not merged");
        List<String> runs = new ArrayList<>();
        merged.get("runs").forEach(r -> runs.add(r.get("id").asText()));
        assertEquals(List.of(first, second), runs);

        // a range that covers the first run only: audit is not in it
        JsonNode early = ok("/api/merged/flame?q=" + enc(Q) + "&from=" + s1 + "&to=" + (s1 + 2_000));
        assertFalse(byName(early).containsKey("app.Service.audit"));
        assertEquals(1, early.get("runs").size());
        assertEquals(200, early.get("total").asLong());

        // searched, inverted and counted in samples, the binary form too
        JsonNode inverted = ok("/api/merged/flame?q=" + enc(Q) + "&from=" + from + "&to=" + to
                + "&invert=true&weight=samples&search=audit");
        assertEquals(200, inverted.get("total").asLong());
        assertEquals(50, inverted.get("search").get("matched").asLong());
        assertEquals(50, byName(inverted).get("app.Service.audit"), "a leaf at the root of the inverted graph");
        TestServer.Reply binary = server.get("/api/merged/flame?q=" + enc(Q) + "&from=" + from + "&to=" + to
                + "&format=binary");
        assertEquals(200, binary.status());
        assertTrue(binary.body().startsWith("JFWF"));
    }

    @Test
    void aMergedDiffOfTwoRangesFindsWhatTheSecondRunAdded() throws Exception {
        long s1 = ok("/api/recordings/" + first).get("startMillis").asLong();
        long s2 = ok("/api/recordings/" + second).get("startMillis").asLong();
        JsonNode diff = ok("/api/merged/diff?q=" + enc(Q) + "&kind=cpu&baseFrom=" + s1 + "&baseTo=" + (s1 + 2_000)
                + "&targetFrom=" + s2 + "&targetTo=" + (s2 + 2_000));
        assertEquals(200, diff.get("baseTotal").asLong());
        assertEquals(200, diff.get("targetTotal").asLong());
        assertEquals(first, diff.get("baseRuns").get(0).get("id").asText());
        assertEquals(second, diff.get("targetRuns").get(0).get("id").asText());
        Map<String, JsonNode> changes = new HashMap<>();
        diff.get("changes").forEach(c -> changes.put(c.get("method").asText(), c));
        JsonNode audit = changes.get("app.Service.audit");
        assertEquals(0, audit.get("baseSamples").asLong());
        assertEquals(100, audit.get("targetSamples").asLong());
        assertTrue(audit.get("significant").asBoolean(), audit.toString());
        JsonNode render = changes.get("app.Service.render");
        assertEquals(100, render.get("baseSamples").asLong());
        assertEquals(0, render.get("targetSamples").asLong());
        assertTrue(render.get("significant").asBoolean());
        // parse: half of each side, no change (a row without change may be left out)
        JsonNode parse = changes.get("app.Service.parse");
        assertTrue(parse == null || !parse.get("significant").asBoolean(), String.valueOf(parse));
        // the same shape as /api/diff: the per-run diff of the two whole runs agrees
        JsonNode plain = ok("/api/diff?base=" + first + "&target=" + second + "&kind=cpu");
        assertEquals(plain.get("names").size(), diff.get("names").size());
        assertEquals(plain.get("nodes").get("base").size(), diff.get("nodes").get("base").size());
        TestServer.Reply binary = server.get("/api/merged/diff?q=" + enc(Q) + "&baseFrom=" + s1 + "&baseTo=" + (s1 + 2_000)
                + "&targetFrom=" + s2 + "&targetTo=" + (s2 + 2_000) + "&format=binary");
        assertEquals(200, binary.status());
        assertTrue(binary.body().startsWith("JFWD"));
        // targetQ: another query's runs on the target side
        JsonNode across = ok("/api/merged/diff?q=" + enc(Q) + "&targetQ=" + enc("service:catalog") + "&baseFrom=" + s1
                + "&baseTo=" + (s1 + 2_000) + "&targetFrom=" + s1 + "&targetTo=" + (s2 + 2_000));
        assertEquals(other, across.get("targetRuns").get(0).get("id").asText());
        assertEquals(50, across.get("targetTotal").asLong());
    }

    @Test
    void aRecordingDiffedAgainstItselfAtTwoRanges() throws Exception {
        // the first run: parse in its first second, render in its second
        JsonNode diff = ok("/api/diff?base=" + first + "&target=" + first + "&kind=cpu&baseFrom=0&baseTo=1000"
                + "&targetFrom=1000&targetTo=2000");
        assertEquals(100, diff.get("baseTotal").asLong());
        assertEquals(100, diff.get("targetTotal").asLong());
        Map<String, JsonNode> changes = new HashMap<>();
        diff.get("changes").forEach(c -> changes.put(c.get("method").asText(), c));
        assertEquals(100, changes.get("app.Service.parse").get("baseSamples").asLong());
        assertEquals(0, changes.get("app.Service.parse").get("targetSamples").asLong());
        assertEquals(100, changes.get("app.Service.render").get("targetSamples").asLong());
        assertTrue(changes.get("app.Service.render").get("significant").asBoolean());
    }

    @Test
    void aMergedViewIsCachedUntilAnotherRunJoinsTheRangeOrARunInItGrows() throws Exception {
        long s1 = ok("/api/recordings/" + first).get("startMillis").asLong();
        String path = "/api/merged/flame?q=" + enc(Q) + "&from=" + s1 + "&to=" + (s1 + 20_000);
        java.net.http.HttpRequest request = java.net.http.HttpRequest.newBuilder(java.net.URI.create(server.base + path)).build();
        var once = server.http.send(request, java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(400, TestServer.JSON.readTree(once.body()).get("total").asLong());
        assertTrue(once.headers().firstValue("Server-Timing").orElse("").startsWith("build"));
        var again = server.http.send(request, java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals("cache;desc=hit", again.headers().firstValue("Server-Timing").orElse(""));
        assertEquals(once.body(), again.body());
        // a third run in the range: a new answer, not the cached one
        String third = id(server.post("?name=run3&labels=service=checkout",
                ServiceRun.of(T0 + 10_000_000_000L, 30, 10, i -> "audit"), null));
        JsonNode now = ok(path);
        assertEquals(430, now.get("total").asLong());
        assertEquals(third, now.get("runs").get(2).get("id").asText());
        // and gone again once deleted
        assertEquals(204, server.delete("/api/recordings/" + third, null).status());
        assertEquals(400, ok(path).get("total").asLong());
        // a run that grows by a part in the range after its view was cached: a new answer, with the part's samples
        String growing = id(server.post("?name=growing&labels=service=checkout&run=growing&chunk=0",
                ServiceRun.of(T0 + 10_000_000_000L, 30, 10, i -> "audit"), null));
        assertEquals(430, ok(path).get("total").asLong());
        assertEquals(growing, id(server.post("?run=growing&chunk=1",
                ServiceRun.of(T0 + 10_400_000_000L, 20, 10, i -> "audit"), null)));
        assertEquals(450, ok(path).get("total").asLong());
    }

    @Test
    void badParametersAreNamedAndNoMatchIsAnEmptyAnswer() throws Exception {
        for (String[] c : new String[][] {
            {"/api/merged/flame?q=" + enc(Q) + "&to=5", "'from' is required"},
            {"/api/merged/flame?q=" + enc(Q) + "&from=9&to=5", "from (9) must be before to (5)"},
            {"/api/merged/flame?q=" + enc(Q) + "&from=x&to=5", "from must be epoch milliseconds"},
            {"/api/merged/flame?q=" + enc(Q) + "&from=1&to=5&kind=bogus", "kind"},
            {"/api/merged/flame?q=" + enc(Q) + "&from=1&to=5&maxNodes=1", "maxNodes"},
            {"/api/merged/diff?q=" + enc(Q) + "&baseFrom=1&baseTo=5&targetFrom=1", "'targetTo' is required"},
            {"/api/merged/diff?q=" + enc(Q) + "&baseFrom=1&baseTo=5&targetFrom=1&targetTo=2&mode=odd", "mode"},
            {"/api/timeline?q=" + enc(Q) + "&buckets=0", "buckets must be between"},
            {"/api/timeline?q=" + enc(Q) + "&from=10&to=5", "from (10) must be before to (5)"},
            {"/api/timeline?q=" + enc("name:(unclosed"), "cannot parse query"},
        }) {
            TestServer.Reply r = server.get(c[0]);
            assertEquals(400, r.status(), c[0] + ": " + r.body());
            assertTrue(r.json().get("error").asText().contains(c[1]), c[0] + ": " + r.body());
        }
        JsonNode none = ok("/api/merged/flame?q=" + enc("service:nothing") + "&from=1&to=" + (T0_MS + 100_000));
        assertEquals(0, none.get("total").asLong());
        assertEquals(0, none.get("runs").size());
        JsonNode empty = ok("/api/timeline?q=" + enc("service:nothing"));
        assertEquals(0, empty.get("runs").size());
    }
}
