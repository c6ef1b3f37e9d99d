package org.jfrworkbench.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import org.jfrworkbench.model.StableNames;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The diff's merged tree over HTTP against one computed here from the uploaded stacks: every path of stable names
 * with both sides' weights, children in name order. The stacks mix plain frames with generated names that group
 * (two lambdas of one class in one run) and that sort otherwise once their numbers are taken out, so both ways the
 * merge meets children (in tree order, and sorted) are checked; bounded, every node's weight still adds up.
 */
class DiffMergeApiTest {
    @TempDir
    static Path data;
    static TestServer server;
    static String base;
    static String target;
    static String baseStacks;
    static String targetStacks;

    private static final String[] FRAMES = {"app.Main.run", "app.Orders.load", "app.Orders.price", "app.Cache.get",
        "app.Db.query", "java.util.HashMap.get", "app.Task$$Lambda$10.0x01.run", "app.Task$$Lambda$9.0x02.apply",
        "app.Task$$Lambda$3.0x03.call", "app.Task$$Lambda$4.0x04.call", "jdk.proxy2.$Proxy12.invoke", "app.Json.write"};

    @BeforeAll
    static void start() throws Exception {
        server = new TestServer(data, 64 << 20, null);
        baseStacks = stacks(new Random(7), 600);
        targetStacks = stacks(new Random(8), 700);
        base = upload("base", baseStacks);
        target = upload("target", targetStacks);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    private static String upload(String name, String stacks) throws Exception {
        TestServer.Reply r = server.post("?name=" + name, stacks);
        assertEquals(201, r.status(), r.body());
        return r.json().get("id").asText();
    }

    /** Collapsed stacks 1 to 7 frames deep, each with a weight of 1 to 20. */
    private static String stacks(Random r, int count) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < count; i++) {
            int depth = 1 + r.nextInt(7);
            for (int d = 0; d < depth; d++) {
                out.append(d == 0 ? "" : ";").append(FRAMES[r.nextInt(d == 0 ? 3 : FRAMES.length)]);
            }
            out.append(' ').append(1 + r.nextInt(20)).append('\n');
        }
        return out.toString();
    }

    /** Per path of stable names (frames joined by ';', "" for the root), its total on each side: {base, target}. */
    private static Map<String, long[]> expected() {
        Map<String, long[]> out = new HashMap<>();
        add(out, baseStacks, 0);
        add(out, targetStacks, 1);
        return out;
    }

    private static void add(Map<String, long[]> out, String stacks, int side) {
        for (String line : stacks.split("\n")) {
            int space = line.lastIndexOf(' ');
            long weight = Long.parseLong(line.substring(space + 1));
            String path = "";
            out.computeIfAbsent(path, k -> new long[2])[side] += weight;
            for (String frame : line.substring(0, space).split(";")) {
                path = path + ";" + StableNames.of(frame);
                out.computeIfAbsent(path, k -> new long[2])[side] += weight;
            }
        }
    }

    /** The answer's nodes: per node its path, name, parent and both sides' totals and self weights. */
    private record Node(String path, String name, int parent, long base, long target, long baseSelf, long targetSelf) {
    }

    private static List<Node> nodes(JsonNode diff) {
        List<String> names = new ArrayList<>();
        diff.get("names").forEach(n -> names.add(n.asText()));
        JsonNode n = diff.get("nodes");
        List<Node> out = new ArrayList<>();
        for (int i = 0; i < n.get("name").size(); i++) {
            int parent = n.get("parent").get(i).asInt();
            String name = names.get(n.get("name").get(i).asInt());
            String path = parent < 0 ? "" : out.get(parent).path() + ";" + name;
            out.add(new Node(path, name, parent, n.get("base").get(i).asLong(), n.get("target").get(i).asLong(),
                    n.get("baseSelf").get(i).asLong(), n.get("targetSelf").get(i).asLong()));
        }
        return out;
    }

    @Test
    void theMergedTreeHoldsEveryPathOfStableNamesWithBothSidesTotalsInNameOrder() throws Exception {
        TestServer.Reply r = server.get("/api/diff?base=" + base + "&target=" + target + "&kind=cpu");
        assertEquals(200, r.status(), r.body());
        List<Node> nodes = nodes(r.json());
        Map<String, long[]> expected = expected();
        assertEquals(expected.size(), nodes.size(), "one node per path of stable names");
        Map<Integer, String> lastChild = new HashMap<>();
        for (int i = 0; i < nodes.size(); i++) {
            Node node = nodes.get(i);
            long[] totals = expected.get(node.path());
            assertTrue(totals != null, "no such path: " + node.path());
            assertEquals(totals[0], node.base(), node.path());
            assertEquals(totals[1], node.target(), node.path());
            if (node.parent() >= 0) {
                String previous = lastChild.put(node.parent(), node.name());
                assertTrue(previous == null || previous.compareTo(node.name()) < 0,
                        "children in order of their stable names: " + previous + " before " + node.path());
            }
        }
        assertTrue(expected.containsKey(";app.Main.run;app.Task$$Lambda.call"), "two lambdas of one run are one frame");
    }

    @Test
    void aBoundedMergedTreeKeepsExactTotalsAndPutsTheRestInOther() throws Exception {
        TestServer.Reply r = server.get("/api/diff?base=" + base + "&target=" + target + "&kind=cpu&maxNodes=40");
        assertEquals(200, r.status(), r.body());
        List<Node> nodes = nodes(r.json());
        assertTrue(nodes.size() <= 40 + 1, "about the bound: " + nodes.size());
        Map<String, long[]> expected = expected();
        Map<Integer, long[]> childSums = new TreeMap<>();
        int others = 0;
        for (int i = 0; i < nodes.size(); i++) {
            Node node = nodes.get(i);
            if (node.name().equals("[other]")) {
                others++;
                assertEquals(node.base(), node.baseSelf());
                assertEquals(node.target(), node.targetSelf());
            } else {
                long[] totals = expected.get(node.path());
                assertEquals(totals[0], node.base(), node.path());
                assertEquals(totals[1], node.target(), node.path());
            }
            if (node.parent() >= 0) {
                long[] sum = childSums.computeIfAbsent(node.parent(), k -> new long[2]);
                sum[0] += node.base();
                sum[1] += node.target();
            }
        }
        assertTrue(others > 0, "a bound this small leaves children out");
        for (int i = 0; i < nodes.size(); i++) {
            Node node = nodes.get(i);
            long[] sum = childSums.getOrDefault(i, new long[2]);
            assertEquals(node.base(), node.baseSelf() + sum[0], "base adds up at " + node.path());
            assertEquals(node.target(), node.targetSelf() + sum[1], "target adds up at " + node.path());
        }
    }
}
