package org.jfrworkbench.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import org.jfrworkbench.testkit.JfrFixture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Flame, collapsed, diff, search, heap and live routes over HTTP on real JFR and collapsed uploads. */
class QueriesApiTest {
    @TempDir
    static Path data;
    static TestServer server;
    static String jfrId;
    static String jfrBId;
    static String collapsedId;

    @BeforeAll
    static void start() throws Exception {
        server = new TestServer(data, 64 << 20, null);
        jfrId = server.upload("?name=fixture-a.jfr&labels=service=shop", Files.readAllBytes(JfrFixture.recording("a")));
        TestServer.Reply b = server.postMultipart("fixture-b.jfr", Files.readAllBytes(JfrFixture.recording("b")), "service=shop,build=2");
        assertEquals(201, b.status(), b.body());
        jfrBId = b.json().get("id").asText();
        collapsedId = server.upload("?name=collapsed", RecordingsApiTest.STACKS);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    static String name(JsonNode flame, int node) {
        return flame.get("names").get(flame.get("nodes").get("name").get(node).asInt()).asText();
    }

    @Test
    void jfrRecordingHasKindsThreadsAndTimeline() throws Exception {
        JsonNode rec = server.get("/api/recordings/" + jfrId).json();
        assertTrue(rec.get("kinds").get("cpu").get("samples").asLong() > 10, rec.toString());
        assertTrue(rec.get("durationMillis").asLong() >= 1000);
        assertTrue(rec.get("threads").size() >= 1);
        assertTrue(rec.get("heap").get("gcs").asInt() >= 1);
        assertTrue(rec.get("timeline").get("cpu").get("counts").size() > 1);
    }

    @Test
    void flameTreeIsPreOrderWithConsistentTotals() throws Exception {
        JsonNode f = server.get("/api/recordings/" + jfrId + "/flame?kind=cpu").json();
        JsonNode n = f.get("nodes");
        int size = n.get("name").size();
        assertEquals(size, n.get("count").get(0).asInt());
        assertEquals(f.get("total").asLong(), n.get("total").get(0).asLong());
        long[] childSum = new long[size];
        for (int i = 1; i < size; i++) {
            int p = n.get("parent").get(i).asInt();
            assertTrue(p < i, "parent precedes child in pre-order");
            assertTrue(i < p + n.get("count").get(p).asInt(), "child lies inside its parent's subtree range");
            childSum[p] += n.get("total").get(i).asLong();
        }
        for (int i = 0; i < size; i++) {
            assertEquals(n.get("total").get(i).asLong(), childSum[i] + n.get("self").get(i).asLong());
        }
        assertEquals("all", name(f, 0));
    }

    @Test
    void searchReportsMatchedWeightShareAndNodes() throws Exception {
        JsonNode f = server.get("/api/recordings/" + collapsedId + "/flame?search=HashMap%5C.resize").json();
        JsonNode s = f.get("search");
        assertEquals(30, s.get("matched").asLong());
        assertEquals(0.3, s.get("share").asDouble(), 1e-9);
        assertEquals(1, s.get("nodes").size());
        assertEquals("java.util.HashMap.resize", name(f, s.get("nodes").get(0).asInt()));
    }

    @Test
    void invertedTreeStartsFromTheLeaves() throws Exception {
        JsonNode f = server.get("/api/recordings/" + collapsedId + "/flame?invert=true").json();
        // root children are the leaves: Cart.load 20, Checkout.price 50, HashMap.resize 30
        assertEquals("com.shop.Cart.load", name(f, 1));
        assertEquals(20, f.get("nodes").get("total").get(1).asLong());
        assertEquals("java.lang.Thread.run", name(f, 2));
    }

    @Test
    void timeRangeAndThreadFilterNarrowTheSamples() throws Exception {
        JsonNode rec = server.get("/api/recordings/" + jfrId).json();
        long all = server.get("/api/recordings/" + jfrId + "/flame").json().get("samples").asLong();
        long half = server.get("/api/recordings/" + jfrId + "/flame?from=0&to=" + rec.get("durationMillis").asLong() / 2)
                .json().get("samples").asLong();
        assertTrue(half > 0 && half < all, half + " of " + all);
        JsonNode thread = rec.get("threads").get(0);
        long one = server.get("/api/recordings/" + jfrId + "/flame?threads=" + thread.get("id").asInt()).json().get("samples").asLong();
        assertEquals(thread.get("kinds").get("cpu").asLong(), one);
    }

    @Test
    void collapsedExportRoundTrips() throws Exception {
        TestServer.Reply r = server.get("/api/recordings/" + collapsedId + "/collapsed?kind=cpu");
        assertEquals(200, r.status());
        assertTrue(r.body().contains("java.lang.Thread.run;com.shop.Checkout.handle;java.util.HashMap.resize 30\n"), r.body());
    }

    @Test
    void badQueryParametersAre400AndUnknownIdsAre404() throws Exception {
        assertEquals(400, server.get("/api/recordings/" + jfrId + "/flame?kind=heat").status());
        assertEquals(400, server.get("/api/recordings/" + collapsedId + "/flame?kind=lock").status());
        assertEquals(400, server.get("/api/recordings/" + jfrId + "/flame?from=abc").status());
        assertEquals(400, server.get("/api/recordings/" + jfrId + "/flame?from=50&to=10").status());
        assertEquals(400, server.get("/api/recordings/" + jfrId + "/flame?search=(unclosed").status());
        assertEquals(400, server.get("/api/recordings/" + jfrId + "/flame?threads=x").status());
        assertEquals(400, server.get("/api/recordings?q=name:(").status());
        assertEquals(400, server.get("/api/diff?base=" + jfrId).status());
        assertEquals(400, server.get("/api/search").status());
        assertEquals(404, server.get("/api/recordings/000000000000dead").status());
        assertEquals(404, server.get("/api/recordings/000000000000dead/flame").status());
        assertEquals(404, server.get("/api/diff?base=" + jfrId + "&target=nope").status());
        TestServer.Reply route = server.get("/api/no-such-route");
        assertEquals(404, route.status());
        assertTrue(route.json().has("error"));
    }

    @Test
    void diffOfARecordingWithItselfHasNoSignificantChange() throws Exception {
        JsonNode d = server.get("/api/diff?base=" + jfrId + "&target=" + jfrId + "&kind=cpu").json();
        for (JsonNode c : d.get("changes")) {
            assertFalse(c.get("significant").asBoolean(), c.toString());
        }
        JsonNode n = d.get("nodes");
        assertEquals(n.get("base").get(0).asLong(), n.get("target").get(0).asLong());
    }

    @Test
    void diffFindsTheMethodOnlyTheTargetRuns() throws Exception {
        JsonNode d = server.get("/api/diff?base=" + jfrId + "&target=" + jfrBId + "&kind=cpu").json();
        JsonNode top = d.get("changes").get(0);
        assertTrue(top.get("significant").asBoolean(), top.toString());
        boolean fib = false;
        for (JsonNode c : d.get("changes")) {
            if (c.get("method").asText().endsWith("JfrFixture.fibonacci")) {
                fib = c.get("significant").asBoolean() && c.get("delta").asDouble() > 0;
            }
        }
        assertTrue(fib, "fibonacci runs only in b and must show as a significant increase");
    }

    @Test
    void searchFindsMethodsByClassMethodAndQualifiedName() throws Exception {
        for (String q : new String[] {"HashMap.resize", "resize", "java.util.HashMap.resize", "HashMap", "Map", "Hash*"}) {
            JsonNode s = server.get("/api/search?q=" + q + "&kind=cpu").json();
            boolean found = false;
            for (JsonNode h : s.get("hits")) {
                if (h.get("recording").get("id").asText().equals(collapsedId) && h.get("method").asText().equals("java.util.HashMap.resize")) {
                    found = true;
                    assertEquals(30, h.get("total").asLong());
                    assertEquals(0.3, h.get("totalShare").asDouble(), 1e-9);
                    assertEquals(30, h.get("self").asLong());
                }
            }
            assertTrue(found, q + " -> " + s);
        }
        JsonNode none = server.get("/api/search?q=HashMap.price").json();
        assertEquals(0, none.get("total").asLong());
    }

    @Test
    void listingFiltersByLabelNameAndMethodWithFacets() throws Exception {
        JsonNode all = server.get("/api/recordings").json();
        assertEquals(3, all.get("total").asLong());
        assertEquals(2, all.get("facets").get("labels").get("service=shop").asLong());
        assertEquals(collapsedId, all.get("recordings").get(0).get("id").asText(), "newest first");
        assertEquals(2, server.get("/api/recordings?q=service:shop").json().get("total").asLong());
        assertEquals(1, server.get("/api/recordings?q=label:build%3D2").json().get("total").asLong());
        assertEquals(1, server.get("/api/recordings?q=method:%22Cart.load%22").json().get("total").asLong());
        for (String q : new String[] {"fixture-a", "fixture-a.jfr", "fixture", "name:fixture-a.jfr"}) {
            JsonNode found = server.get("/api/recordings?q=" + q).json();
            assertTrue(found.get("total").asLong() >= 1 && found.toString().contains("fixture-a.jfr"), q + " finds fixture-a.jfr");
        }
        assertEquals(1, server.get("/api/recordings?q=fixture-b").json().get("total").asLong(), "a name's words stay in order");
        assertEquals(0, server.get("/api/recordings?limit=0").json().get("recordings").size());
        JsonNode page = server.get("/api/recordings?limit=1&offset=1").json();
        assertEquals(1, page.get("recordings").size());
        assertEquals(3, page.get("total").asLong());
    }

    @Test
    void heapTimelineAndLiveHeapAreScaledToTheChosenGc() throws Exception {
        JsonNode heap = server.get("/api/recordings/" + jfrId + "/heap").json();
        assertTrue(heap.get("gcs").size() >= 1, heap.toString());
        JsonNode rec = server.get("/api/recordings/" + jfrId).json();
        if (!rec.get("heap").get("hasLive").asBoolean()) {
            assertEquals(400, server.get("/api/recordings/" + jfrId + "/live").status());
            return;
        }
        JsonNode live = server.get("/api/recordings/" + jfrId + "/live").json();
        long usedAfter = live.get("usedAfter").asLong();
        long sum = 0;
        for (JsonNode c : live.get("byClass")) {
            sum += c.get("bytes").asLong();
            assertTrue(c.get("samples").asLong() > 0);
            assertEquals(1 / Math.sqrt(c.get("samples").asLong()), c.get("error").asDouble(), 1e-9, "error = 1/sqrt(samples): " + c);
        }
        assertEquals(usedAfter, sum, Math.max(10, usedAfter / 1000.0));
        assertEquals(usedAfter, live.get("flame").get("total").asLong(), Math.max(10, usedAfter / 1000.0));
        assertEquals(400, server.get("/api/recordings/" + jfrId + "/live?gc=100000").status());
    }
}
