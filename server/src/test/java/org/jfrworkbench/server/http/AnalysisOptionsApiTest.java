package org.jfrworkbench.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The query options of the analysis views over HTTP: search modes, allocation graphs that end in the allocated
 * class and their weight, half-open time ranges, bounded answers, and the diff's modes, per-side filters, test,
 * warnings and collapsed form.
 */
class AnalysisOptionsApiTest extends WithTwoFixtures {
    static String shop;

    @BeforeAll
    static void uploadShop() throws Exception {
        shop = server.upload("?name=shop", RecordingsApiTest.STACKS);
    }

    static String name(JsonNode flame, int node) {
        return flame.get("names").get(flame.get("nodes").get("name").get(node).asInt()).asText();
    }

    @Test
    void searchIsCaseInsensitiveByDefaultWithCaseAndPlainTextOptions() throws Exception {
        String flame = "/api/recordings/" + shop + "/flame?search=";
        assertEquals(30, server.get(flame + "hashmap%5C.RESIZE").json().get("search").get("matched").asLong());
        JsonNode exact = server.get(flame + "hashmap&matchCase=true").json().get("search");
        assertEquals(0, exact.get("matched").asLong());
        assertTrue(exact.get("matchCase").asBoolean());
        assertEquals(0, server.get(flame + "Hash.ap&literal=true").json().get("search").get("matched").asLong());
        JsonNode literal = server.get(flame + "SHOP.CART&literal=true").json().get("search");
        assertEquals(20, literal.get("matched").asLong());
        assertEquals(0.2, literal.get("share").asDouble(), 1e-9);
        TestServer.Reply bad = server.get(flame + "%28unclosed");
        assertEquals(400, bad.status());
        assertTrue(bad.json().get("error").asText().startsWith("search is not a valid regular expression: "), bad.body());
        assertEquals(200, server.get(flame + "%28unclosed&literal=true").status(), "plain text is never malformed");
    }

    @Test
    void allocationGraphsEndInTheAllocatedClassWeighedInBytesOrSamples() throws Exception {
        JsonNode rec = server.get("/api/recordings/" + a).json();
        JsonNode bytes = server.get("/api/recordings/" + a + "/flame?kind=alloc").json();
        JsonNode counted = server.get("/api/recordings/" + a + "/flame?kind=alloc&weight=samples").json();
        assertEquals("bytes", bytes.get("unit").asText());
        assertEquals(rec.get("kinds").get("alloc").get("weight").asLong(), bytes.get("total").asLong());
        assertEquals("samples", counted.get("unit").asText());
        assertEquals(rec.get("kinds").get("alloc").get("samples").asLong(), counted.get("total").asLong());
        Set<String> classes = new HashSet<>();
        JsonNode n = bytes.get("nodes");
        for (int i = 1; i < n.get("name").size(); i++) {
            boolean leaf = n.get("count").get(i).asInt() == 1;
            if (n.get("type").get(i).asText().equals("class")) {
                assertTrue(leaf, "a class is a leaf: " + name(bytes, i));
                classes.add(name(bytes, i));
            } else if (leaf && !name(bytes, i).equals("[no stack]")) {
                assertEquals(0, n.get("self").get(i).asLong(), "every sample with a class ends in it: " + name(bytes, i));
            }
        }
        assertTrue(classes.contains("byte[]"), classes.toString());
        TestServer.Reply badWeight = server.get("/api/recordings/" + a + "/flame?kind=alloc&weight=pounds");
        assertEquals(400, badWeight.status());
        assertTrue(badWeight.json().get("error").asText().contains("weight must be samples or bytes"), badWeight.body());
        JsonNode live = server.get("/api/recordings/" + a + "/live?weight=samples").json();
        if (live.has("flame")) {
            assertEquals(live.get("liveSamples").asLong(), live.get("flame").get("total").asLong());
        }
    }

    @Test
    void timeRangesAreHalfOpenSoAdjacentRangesAddUp() throws Exception {
        long all = server.get("/api/recordings/" + a + "/flame").json().get("samples").asLong();
        for (long cut : new long[] {100, 333, 700}) {
            long before = server.get("/api/recordings/" + a + "/flame?from=0&to=" + cut).json().get("samples").asLong();
            long after = server.get("/api/recordings/" + a + "/flame?from=" + cut).json().get("samples").asLong();
            assertEquals(all, before + after, "cut at " + cut);
        }
    }

    @Test
    void maxNodesBoundsTheAnswerAndOtherKeepsTheWeight() throws Exception {
        for (String invert : new String[] {"false", "true"}) {
            JsonNode full = server.get("/api/recordings/" + a + "/flame?invert=" + invert).json();
            JsonNode cut = server.get("/api/recordings/" + a + "/flame?maxNodes=20&invert=" + invert).json();
            int size = cut.get("nodes").get("name").size();
            assertTrue(size <= 20 && full.get("nodes").get("name").size() > 20, invert + ": " + size);
            assertEquals(full.get("total"), cut.get("total"));
            assertTrue(cut.get("names").toString().contains("[other]"), cut.get("names").toString());
        }
        assertEquals(400, server.get("/api/recordings/" + a + "/flame?maxNodes=1").status());
    }

    @Test
    void aDiffNamesItsTestAndAbsoluteModeComparesRates() throws Exception {
        JsonNode rel = server.get("/api/diff?base=" + a + "&target=" + b + "&kind=cpu").json();
        assertEquals("relative", rel.get("mode").asText());
        assertTrue(rel.get("test").get("name").asText().contains("two-proportion z-test"), rel.get("test").toString());
        assertEquals("Bonferroni", rel.get("test").get("correction").asText());
        JsonNode abs = server.get("/api/diff?base=" + a + "&target=" + b + "&kind=cpu&mode=absolute").json();
        assertEquals("absolute", abs.get("mode").asText());
        assertTrue(abs.get("test").get("name").asText().contains("Poisson"));
        JsonNode top = abs.get("changes").get(0);
        assertEquals(top.get("targetPerSecond").asDouble() - top.get("basePerSecond").asDouble(),
                top.get("perSecondDelta").asDouble(), 1e-6);
        assertEquals(400, server.get("/api/diff?base=" + a + "&target=" + b + "&mode=sideways").status());
    }

    @Test
    void aDiffWithItselfListsNoChangeAndColoursNoNode() throws Exception {
        JsonNode d = server.get("/api/diff?base=" + a + "&target=" + a + "&kind=cpu").json();
        assertEquals(0, d.get("changes").size());
        for (JsonNode s : d.get("nodes").get("significance")) {
            assertEquals(0, s.asInt());
        }
    }

    @Test
    void eachSideHasItsOwnFiltersAndDifferencesAreWarnedAbout() throws Exception {
        JsonNode rec = server.get("/api/recordings/" + a).json();
        long half = rec.get("durationMillis").asLong() / 2;
        JsonNode d = server.get("/api/diff?base=" + a + "&target=" + a + "&kind=cpu&baseTo=" + half + "&targetFrom=" + half).json();
        long before = server.get("/api/recordings/" + a + "/flame?to=" + half).json().get("samples").asLong();
        long after = server.get("/api/recordings/" + a + "/flame?from=" + half).json().get("samples").asLong();
        assertEquals(before, d.get("baseSamples").asLong());
        assertEquals(after, d.get("targetSamples").asLong());
        JsonNode kinds = server.get("/api/diff?base=" + a + "&target=" + a + "&baseKind=cpu&targetKind=alloc").json();
        assertEquals("alloc", kinds.get("targetKind").asText());
        assertTrue(kinds.get("warnings").toString().contains("different kinds"), kinds.get("warnings").toString());
        JsonNode shortBase = server.get("/api/diff?base=" + a + "&target=" + a + "&baseTo=100").json();
        assertTrue(shortBase.get("warnings").toString().contains("different durations"), shortBase.get("warnings").toString());
        assertEquals(400, server.get("/api/diff?base=" + a + "&target=" + b + "&targetThreads=99999").status());
    }

    @Test
    void theCollapsedDiffWritesBothSidesOfEveryStack() throws Exception {
        String base = server.post("?name=d-base", "main;work;parse 5\nmain;work;sort 3\nmain;idle 2\n").json().get("id").asText();
        String target = server.post("?name=d-target", "main;work;parse 9\nmain;idle 1\n").json().get("id").asText();
        TestServer.Reply r = server.get("/api/diff/collapsed?base=" + base + "&target=" + target);
        assertEquals(200, r.status());
        assertEquals("main;idle 2 1\nmain;work;parse 5 9\nmain;work;sort 3 0\n", r.body());
        assertFalse(server.get("/api/diff/collapsed?base=" + base).status() == 200);
    }
}
