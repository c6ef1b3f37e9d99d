package org.jfrworkbench.server.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The samples a flame graph, an inverted graph and a diff count, for random time ranges, thread sets and weights of
 * a real recording (samples out of time order, a kind of equal weights and one of unequal weights): they agree with
 * the frame-states route, which tests each sample on its own, and a bounded graph keeps exactly the nodes of the
 * unbounded graph at or above one weight. An inverted graph is the flame graph's stacks, reversed and merged one by
 * one.
 */
class SelectedSamplesApiTest {
    static final Path CHECKOUT = Path.of(System.getProperty("samples.dir", "../sample-recordings"), "checkout-before.jfr");
    static final Path AFTER = Path.of(System.getProperty("samples.dir", "../sample-recordings"), "checkout-after.jfr");
    @TempDir
    static Path data;
    static TestServer server;
    static String id;
    static String otherId;
    static long duration;
    static List<Integer> threads = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        server = new TestServer(data, 256 << 20, null);
        id = server.upload(CHECKOUT);
        otherId = server.upload(AFTER);
        JsonNode rec = server.get("/api/recordings/" + id).json();
        duration = rec.get("durationMillis").asLong();
        rec.get("threads").forEach(t -> threads.add(t.get("id").asInt()));
        assertTrue(rec.get("kinds").has("cpu") && rec.get("kinds").has("alloc"), rec.get("kinds").toString());
        assertTrue(threads.size() >= 3, "threads: " + threads);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    /** Random selections: a range of 1 ms up to the whole recording, or none; a few threads or all; either weight. */
    static List<String> selections(String kind, long seed, int count) {
        Random r = new Random(seed);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            StringBuilder q = new StringBuilder("kind=" + kind);
            if (r.nextInt(4) != 0) {
                long length = 1 + (long) (r.nextDouble() * duration);
                long from = (long) (r.nextDouble() * (duration - length + 1));
                q.append("&from=").append(from).append("&to=").append(from + length);
            }
            if (r.nextInt(3) == 0) {
                q.append("&threads=");
                for (int t = 0, n = 1 + r.nextInt(3); t < n; t++) {
                    q.append(t == 0 ? "" : ",").append(threads.get(r.nextInt(threads.size())));
                }
            }
            if (r.nextBoolean()) {
                q.append("&weight=samples");
            }
            out.add(q.toString());
        }
        return out;
    }

    @Test
    void graphsCountTheSamplesThatFrameStatesCountOneByOne() throws Exception {
        for (String kind : List.of("cpu", "alloc")) {
            for (String q : selections(kind, 11, 12)) {
                JsonNode states = get("/frame-states?" + q);
                for (String shape : List.of("", "&invert=true")) {
                    JsonNode graph = get("/flame?" + q + shape);
                    assertEquals(states.get("samples").asLong(), graph.get("samples").asLong(), q + shape);
                    assertEquals(states.get("weight").asLong(), graph.get("total").asLong(), q + shape);
                }
            }
        }
    }

    @Test
    void boundedGraphsKeepTheNodesAtOrAboveOneWeight() throws Exception {
        for (String kind : List.of("cpu", "alloc")) {
            for (String q : selections(kind, 12, 8)) {
                Map<String, Long> all = totalsByPath(get("/flame?" + q));
                for (int maxNodes : new int[] {2, 40, 300}) {
                    JsonNode bounded = get("/flame?" + q + "&maxNodes=" + maxNodes);
                    JsonNode nodes = bounded.get("nodes");
                    int size = nodes.get("name").size();
                    assertTrue(size <= maxNodes, q + ": " + size + " nodes for maxNodes=" + maxNodes);
                    Map<String, Long> kept = totalsByPath(bounded);
                    long lightestKept = Long.MAX_VALUE;
                    for (Map.Entry<String, Long> e : kept.entrySet()) {
                        if (e.getKey().endsWith(";[other]")) {
                            continue;
                        }
                        assertEquals(all.get(e.getKey()), e.getValue(), q + " at " + e.getKey());
                        if (!e.getKey().equals("all")) {
                            lightestKept = Math.min(lightestKept, e.getValue());
                        }
                    }
                    for (Map.Entry<String, Long> e : all.entrySet()) {
                        if (!kept.containsKey(e.getKey())) {
                            assertTrue(e.getValue() < lightestKept, q + ", maxNodes=" + maxNodes + ": " + e.getKey()
                                    + " (" + e.getValue() + ") left out, lighter nodes kept (" + lightestKept + ")");
                        }
                    }
                }
            }
        }
    }

    @Test
    void invertedGraphsAreTheFlameGraphsStacksReversed() throws Exception {
        for (String kind : List.of("cpu", "alloc")) {
            for (String q : selections(kind, 14, 10)) {
                Map<String, long[]> expected = new HashMap<>();
                Map<String, String> types = new HashMap<>();
                reversedStacks(get("/flame?" + q + "&maxNodes=16777216"), expected, types);
                JsonNode inverted = get("/flame?" + q + "&invert=true&maxNodes=16777216");
                Map<String, long[]> actual = columnsByPath(inverted);
                assertEquals(expected.keySet(), actual.keySet(), q);
                for (Map.Entry<String, long[]> e : expected.entrySet()) {
                    assertArrayEquals(e.getValue(), actual.get(e.getKey()), q + " at " + e.getKey());
                }
                JsonNode names = inverted.get("names");
                JsonNode nodes = inverted.get("nodes");
                String[] path = paths(inverted);
                for (int i = 1; i < path.length; i++) {
                    assertEquals(types.get(path[i]), nodes.get("type").get(i).asText(), q + " at " + path[i]);
                    int p = nodes.get("parent").get(i).asInt();
                    if (i > 1 && nodes.get("parent").get(i - 1).asInt() == p) {
                        // siblings by name, as in the forward graph
                        assertTrue(names.get(nodes.get("name").get(i - 1).asInt()).asText()
                                .compareTo(names.get(nodes.get("name").get(i).asInt()).asText()) < 0, q + " at " + path[i]);
                    }
                }
                for (int maxNodes : new int[] {2, 40, 300}) {
                    JsonNode bounded = get("/flame?" + q + "&invert=true&maxNodes=" + maxNodes);
                    Map<String, long[]> kept = columnsByPath(bounded);
                    assertTrue(kept.size() <= maxNodes, q + ": " + kept.size() + " nodes for maxNodes=" + maxNodes);
                    long lightestKept = Long.MAX_VALUE;
                    for (Map.Entry<String, long[]> e : kept.entrySet()) {
                        if (e.getKey().endsWith(";[other]")) {
                            continue;
                        }
                        assertEquals(expected.get(e.getKey())[0], e.getValue()[0], q + " at " + e.getKey());
                        if (!e.getKey().equals("all")) {
                            lightestKept = Math.min(lightestKept, e.getValue()[0]);
                        }
                    }
                    // heaviest first to within a factor of two
                    for (Map.Entry<String, long[]> e : expected.entrySet()) {
                        if (!kept.containsKey(e.getKey())) {
                            assertTrue(e.getValue()[0] / 2 < lightestKept, q + ", maxNodes=" + maxNodes + ": "
                                    + e.getKey() + " (" + e.getValue()[0] + ") left out, kept down to " + lightestKept);
                        }
                    }
                }
            }
        }
    }

    /**
     * The inverted graph made from a flame graph's stacks one by one: each stack's self weight and samples on every
     * prefix of its reversed path, and each path's type that of the frame on the first such stack in the graph's
     * order.
     */
    static void reversedStacks(JsonNode graph, Map<String, long[]> out, Map<String, String> types) {
        JsonNode nodes = graph.get("nodes");
        JsonNode names = graph.get("names");
        int size = nodes.get("name").size();
        long rootSamples = nodes.get("samples").get(0).asLong();
        out.put("all", new long[] {nodes.get("total").get(0).asLong(), 0, rootSamples});
        long[] childSamples = new long[size];
        for (int i = 1; i < size; i++) {
            childSamples[nodes.get("parent").get(i).asInt()] += nodes.get("samples").get(i).asLong();
        }
        for (int i = 1; i < size; i++) {
            long selfSamples = nodes.get("samples").get(i).asLong() - childSamples[i];
            if (selfSamples == 0) {
                continue;
            }
            long self = nodes.get("self").get(i).asLong();
            StringBuilder path = new StringBuilder("all");
            for (int f = i; f > 0; f = nodes.get("parent").get(f).asInt()) {
                path.append(';').append(names.get(nodes.get("name").get(f).asInt()).asText());
                String key = path.toString();
                long[] c = out.computeIfAbsent(key, k -> new long[3]);
                c[0] += self;
                c[2] += selfSamples;
                types.putIfAbsent(key, nodes.get("type").get(f).asText());
                if (nodes.get("parent").get(f).asInt() == 0) {
                    c[1] += self;
                }
            }
        }
    }

    /** Each node's total, self and samples by its path of names from the root. */
    static Map<String, long[]> columnsByPath(JsonNode graph) {
        JsonNode nodes = graph.get("nodes");
        String[] path = paths(graph);
        Map<String, long[]> out = new HashMap<>();
        for (int i = 0; i < path.length; i++) {
            out.put(path[i], new long[] {nodes.get("total").get(i).asLong(), nodes.get("self").get(i).asLong(),
                    nodes.get("samples").get(i).asLong()});
        }
        return out;
    }

    static String[] paths(JsonNode graph) {
        JsonNode nodes = graph.get("nodes");
        JsonNode names = graph.get("names");
        String[] path = new String[nodes.get("name").size()];
        for (int i = 0; i < path.length; i++) {
            int p = nodes.get("parent").get(i).asInt();
            String name = names.get(nodes.get("name").get(i).asInt()).asText();
            path[i] = p < 0 ? name : path[p] + ";" + name;
        }
        return path;
    }

    @Test
    void eachSideOfADiffCountsWhatItsFlameGraphCounts() throws Exception {
        for (String kind : List.of("cpu", "alloc")) {
            for (String q : selections(kind, 13, 6)) {
                JsonNode base = get("/flame?" + q);
                JsonNode target = server.get("/api/recordings/" + otherId + "/flame?" + q).json();
                TestServer.Reply r = server.get("/api/diff?base=" + id + "&target=" + otherId + "&" + q);
                assertEquals(200, r.status(), r.body());
                JsonNode diff = r.json();
                assertEquals(base.get("total").asLong(), diff.get("baseTotal").asLong(), q);
                assertEquals(target.get("total").asLong(), diff.get("targetTotal").asLong(), q);
                assertEquals(base.get("samples").asLong(), diff.get("baseSamples").asLong(), q);
                assertEquals(target.get("samples").asLong(), diff.get("targetSamples").asLong(), q);
            }
        }
    }

    static JsonNode get(String route) throws Exception {
        TestServer.Reply r = server.get("/api/recordings/" + id + route);
        assertEquals(200, r.status(), r.body());
        return r.json();
    }

    /** Each node's total by its path of names from the root ("all;a;b"). */
    static Map<String, Long> totalsByPath(JsonNode graph) {
        JsonNode nodes = graph.get("nodes");
        JsonNode names = graph.get("names");
        int size = nodes.get("name").size();
        String[] path = new String[size];
        Map<String, Long> out = new HashMap<>();
        for (int i = 0; i < size; i++) {
            int p = nodes.get("parent").get(i).asInt();
            String name = names.get(nodes.get("name").get(i).asInt()).asText();
            path[i] = p < 0 ? name : path[p] + ";" + name;
            out.put(path[i], nodes.get("total").get(i).asLong());
        }
        return out;
    }
}
