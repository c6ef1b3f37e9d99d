package org.jfrworkbench.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** GET /api/recordings/{id}/sandwich over HTTP: totals checked against collapsed stacks computed here. */
class SandwichApiTest {
    @TempDir
    static Path data;
    static TestServer server;
    static String collapsedId;
    static String jfrId;
    /** The uploaded stacks, root first, with their weights (summed per distinct stack). */
    static final Map<String, Long> STACKS = new TreeMap<>();

    @BeforeAll
    static void start() throws Exception {
        server = new TestServer(data, 64 << 20, null);
        Random r = new Random(3);
        String[] frames = {"app.Web.get", "app.Cart.load", "app.Price.compute", "app.Json.parse", "java.util.HashMap.resize"};
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 400; i++) {
            StringBuilder stack = new StringBuilder("java.lang.Thread.run");
            for (int d = 0, depth = 1 + r.nextInt(6); d < depth; d++) {
                stack.append(';').append(frames[r.nextInt(frames.length)]);
            }
            long weight = 1 + r.nextInt(9);
            STACKS.merge(stack.toString(), weight, Long::sum);
            text.append(stack).append(' ').append(weight).append('\n');
        }
        collapsedId = server.upload("?name=sandwich", text.toString());
        jfrId = server.uploadFixture("a");
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    static String q(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** Each node's self weight under its path from the tree's root (the method), joined by ';'. */
    static Map<String, Long> stacks(JsonNode flame) {
        JsonNode n = flame.get("nodes");
        String[] path = new String[n.get("name").size()];
        Map<String, Long> out = new TreeMap<>();
        for (int i = 0; i < path.length; i++) {
            String name = flame.get("names").get(n.get("name").get(i).asInt()).asText();
            int p = n.get("parent").get(i).asInt();
            path[i] = p < 0 ? "" : path[p].isEmpty() ? name : path[p] + ";" + name;
            long self = n.get("self").get(i).asLong();
            if (self != 0) {
                out.merge(path[i], self, Long::sum);
            }
        }
        return out;
    }

    @Test
    void totalsAndBothTreesAgreeWithTheCollapsedStacks() throws Exception {
        for (String method : List.of("app.Web.get", "app.Json.parse", "java.util.HashMap.resize", "java.lang.Thread.run")) {
            JsonNode s = server.get("/api/recordings/" + collapsedId + "/sandwich?kind=cpu&method=" + q(method)).json();
            long total = 0;
            long self = 0;
            Map<String, Long> callers = new TreeMap<>();
            Map<String, Long> callees = new TreeMap<>();
            for (Map.Entry<String, Long> e : STACKS.entrySet()) {
                List<String> f = Arrays.asList(e.getKey().split(";"));
                int at = f.indexOf(method); // the outermost occurrence
                if (at < 0) {
                    continue;
                }
                total += e.getValue();
                self += f.get(f.size() - 1).equals(method) ? e.getValue() : 0;
                List<String> up = new ArrayList<>(f.subList(0, at));
                Collections.reverse(up);
                callers.merge(String.join(";", up), e.getValue(), Long::sum);
                callees.merge(String.join(";", f.subList(at + 1, f.size())), e.getValue(), Long::sum);
            }
            assertEquals(method, s.get("method").asText());
            assertEquals(total, s.get("total").asLong(), method);
            assertEquals(self, s.get("self").asLong(), method);
            assertEquals(total, s.get("callers").get("total").asLong(), method + ": the callers' root");
            assertEquals(total, s.get("callees").get("total").asLong(), method + ": the callees' root");
            assertEquals(method, s.get("callers").get("names").get(0).asText());
            assertEquals(callers, stacks(s.get("callers")), method + " callers");
            assertEquals(callees, stacks(s.get("callees")), method + " callees");
        }
    }

    @Test
    void theBinaryFormCarriesBothTreesInTheFlameGraphsBinaryForm() throws Exception {
        String query = "/api/recordings/" + collapsedId + "/sandwich?method=" + q("app.Json.parse");
        JsonNode json = server.get(query).json();
        HttpResponse<byte[]> r = server.http.send(HttpRequest.newBuilder(URI.create(server.base + query + "&format=binary")).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode());
        byte[] b = r.body();
        ByteBuffer buf = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals("JFWS", new String(b, 0, 4, StandardCharsets.US_ASCII));
        int h = buf.getInt(8);
        JsonNode header = TestServer.JSON.readTree(new String(b, 16, h, StandardCharsets.UTF_8));
        assertEquals(json.get("total"), header.get("total"));
        assertEquals(json.get("self"), header.get("self"));
        for (String side : List.of("callers", "callees")) {
            int at = 16 + h + header.get(side).get("offset").asInt();
            assertEquals(0, at % 8, side + " starts 8-aligned");
            byte[] flame = Arrays.copyOfRange(b, at, at + header.get(side).get("length").asInt());
            assertEquals("JFWF", new String(flame, 0, 4, StandardCharsets.US_ASCII));
            int fh = ByteBuffer.wrap(flame).order(ByteOrder.LITTLE_ENDIAN).getInt(8);
            JsonNode fheader = TestServer.JSON.readTree(new String(flame, 16, fh, StandardCharsets.UTF_8));
            assertEquals(json.get(side).get("nodes").get("name").size(), fheader.get("nodes").asInt(), side);
            assertEquals(json.get(side).get("total"), fheader.get("total"), side);
        }
    }

    @Test
    void theSelectionParametersOfFlameApply() throws Exception {
        JsonNode rec = server.get("/api/recordings/" + jfrId).json();
        long half = rec.get("durationMillis").asLong() / 2;
        JsonNode flame = server.get("/api/recordings/" + jfrId + "/flame?kind=cpu&from=0&to=" + half).json();
        String root = flame.get("names").get(flame.get("nodes").get("name").get(1).asInt()).asText();
        JsonNode s = server.get("/api/recordings/" + jfrId + "/sandwich?kind=cpu&from=0&to=" + half + "&method=" + q(root)).json();
        assertEquals(outermostTotal(flame, root), s.get("total").asLong(), root);
        int thread = rec.get("threads").get(0).get("id").asInt();
        JsonNode one = server.get("/api/recordings/" + jfrId + "/sandwich?kind=cpu&threads=" + thread + "&method=" + q(root)).json();
        assertTrue(one.get("total").asLong() <= rec.get("threads").get(0).get("kinds").get("cpu").asLong());
    }

    /** The weight of a flame graph's samples with the method on their stack: its outermost nodes' totals. */
    static long outermostTotal(JsonNode flame, String method) {
        JsonNode n = flame.get("nodes");
        int size = n.get("name").size();
        boolean[] inside = new boolean[size];
        long total = 0;
        for (int i = 1; i < size; i++) {
            boolean named = flame.get("names").get(n.get("name").get(i).asInt()).asText().equals(method);
            boolean above = inside[n.get("parent").get(i).asInt()];
            if (named && !above) {
                total += n.get("total").get(i).asLong();
            }
            inside[i] = named || above;
        }
        return total;
    }

    @Test
    void anUnknownMethodIs404AndBadParametersAre400() throws Exception {
        TestServer.Reply unknown = server.get("/api/recordings/" + collapsedId + "/sandwich?method=app.Nope.nope");
        assertEquals(404, unknown.status());
        assertTrue(unknown.json().get("error").asText().contains("no frame named 'app.Nope.nope'"), unknown.body());
        TestServer.Reply noMethod = server.get("/api/recordings/" + collapsedId + "/sandwich");
        assertEquals(400, noMethod.status());
        assertTrue(noMethod.json().get("error").asText().contains("'method' is required"), noMethod.body());
        assertEquals(400, server.get("/api/recordings/" + collapsedId + "/sandwich?kind=lock&method=app.Web.get").status());
        assertEquals(400, server.get("/api/recordings/" + collapsedId + "/sandwich?kind=heat&method=app.Web.get").status());
        assertEquals(404, server.get("/api/recordings/000000000000dead/sandwich?method=x").status());
    }
}
