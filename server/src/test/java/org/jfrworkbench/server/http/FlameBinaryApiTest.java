package org.jfrworkbench.server.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The binary flame graph (format=binary) over HTTP: same tree as the JSON form, gzip, errors, the response cache. */
class FlameBinaryApiTest {
    @TempDir
    static Path data;
    static TestServer server;
    static String jfrId;

    @BeforeAll
    static void start() throws Exception {
        server = new TestServer(data, 64 << 20, null);
        jfrId = server.uploadFixture("a");
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    /** The decoded binary form: header plus columns. */
    record Binary(JsonNode header, double[] total, int[] name, int[] count, int[] hits, byte[] type) {
        static Binary decode(byte[] bytes) throws Exception {
            ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            assertEquals("JFWF", new String(bytes, 0, 4, StandardCharsets.US_ASCII));
            assertEquals(1, b.getInt(4));
            int headerLength = b.getInt(8);
            assertEquals(0, headerLength % 8, "columns start 8-byte aligned");
            JsonNode header = TestServer.JSON.readTree(new String(bytes, 16, headerLength, StandardCharsets.UTF_8));
            int n = header.get("nodes").asInt();
            int m = header.has("search") ? header.get("search").get("nodes").asInt() : 0;
            b.position(16 + headerLength);
            boolean total32 = header.get("columns").get("total").asText().equals("u32");
            boolean name16 = header.get("columns").get("name").asText().equals("u16");
            double[] total = new double[n];
            for (int i = 0; i < n; i++) {
                total[i] = total32 ? Integer.toUnsignedLong(b.getInt()) : b.getDouble();
            }
            int[] count = new int[n];
            int[] hits = new int[m];
            b.asIntBuffer().get(count).get(hits);
            b.position(b.position() + (n + m) * 4);
            int[] name = new int[n];
            for (int i = 0; i < n; i++) {
                name[i] = name16 ? Short.toUnsignedInt(b.getShort()) : b.getInt();
            }
            byte[] type = new byte[n];
            b.get(type);
            assertEquals(bytes.length, b.position(), "nothing after the type column");
            return new Binary(header, total, name, count, hits, type);
        }
    }

    private static HttpResponse<byte[]> fetch(String path, boolean gzip) throws Exception {
        return server.getBytes(path, gzip);
    }

    @Test
    void binaryFormHoldsTheSameTreeAsTheJsonForm() throws Exception {
        String query = "/api/recordings/" + jfrId + "/flame?kind=cpu&from=100&search=Thread";
        JsonNode json = server.get(query).json();
        HttpResponse<byte[]> response = fetch(query + "&format=binary", false);
        assertEquals(200, response.statusCode());
        assertEquals("application/octet-stream", response.headers().firstValue("Content-Type").orElse(""));
        Binary bin = Binary.decode(response.body());

        assertEquals("u32", bin.header().get("columns").get("total").asText(), "sample counts fit 32 bits");
        assertEquals("u16", bin.header().get("columns").get("name").asText());
        JsonNode nodes = json.get("nodes");
        int n = nodes.get("name").size();
        assertTrue(n > 50, "a real tree: " + n);
        assertEquals(n, bin.header().get("nodes").asInt());
        assertEquals(json.get("names"), bin.header().get("names"));
        assertEquals(json.get("total").asLong(), bin.header().get("total").asLong());
        assertEquals(json.get("samples").asLong(), bin.header().get("samples").asLong());
        for (int i = 0; i < n; i++) {
            assertEquals(nodes.get("name").get(i).asInt(), bin.name()[i], "name of node " + i);
            assertEquals(nodes.get("count").get(i).asInt(), bin.count()[i], "count of node " + i);
            assertEquals(nodes.get("total").get(i).asLong(), (long) bin.total()[i], "total of node " + i);
            assertEquals(nodes.get("type").get(i).asText(), bin.header().get("types").get(bin.type()[i]).asText(), "type of node " + i);
        }
        JsonNode search = json.get("search");
        assertEquals(search.get("matched").asLong(), bin.header().get("search").get("matched").asLong());
        assertEquals(search.get("nodes").size(), bin.hits().length);
        assertTrue(bin.hits().length > 0, "the search matched frames");
        for (int i = 0; i < bin.hits().length; i++) {
            assertEquals(search.get("nodes").get(i).asInt(), bin.hits()[i]);
        }
        // the header's bytes are the same from one server process to the next: keys in a fixed order
        assertEquals(List.of("pattern", "matchCase", "literal", "matched", "share", "nodes"),
                fieldNames(bin.header().get("search")));
        assertEquals(List.of("total", "name"), fieldNames(bin.header().get("columns")));
    }

    private static List<String> fieldNames(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void gzipIsServedWhenAcceptedAndUnpacksToTheSameBytes() throws Exception {
        String query = "/api/recordings/" + jfrId + "/flame?kind=cpu&format=binary";
        byte[] plain = fetch(query, false).body();
        HttpResponse<byte[]> zipped = fetch(query, true);
        assertEquals("gzip", zipped.headers().firstValue("Content-Encoding").orElse(""));
        assertTrue(zipped.body().length < plain.length, zipped.body().length + " vs " + plain.length);
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(zipped.body()))) {
            assertArrayEquals(plain, in.readAllBytes());
        }
    }

    @Test
    void aRepeatedViewComesFromTheCacheUntilTheRecordingIsDeleted() throws Exception {
        TestServer.Reply up = server.post("?name=to-delete", "main;work;parse 5\nmain;work;sort 3\nmain;idle 2\n");
        String id = up.json().get("id").asText();
        String query = "/api/recordings/" + id + "/flame?format=binary&invert=true";
        HttpResponse<byte[]> first = fetch(query, false);
        assertTrue(first.headers().firstValue("Server-Timing").orElse("").contains("build;dur="));
        HttpResponse<byte[]> second = fetch(query, false);
        assertEquals("cache;desc=hit", second.headers().firstValue("Server-Timing").orElse(""));
        assertArrayEquals(first.body(), second.body());
        Binary bin = Binary.decode(second.body());
        assertEquals(10, (long) bin.total()[0]);

        assertEquals(204, server.delete("/api/recordings/" + id, null).status());
        HttpResponse<byte[]> gone = fetch(query, false);
        assertEquals(404, gone.statusCode());
        assertTrue(new String(gone.body(), StandardCharsets.UTF_8).contains("\"error\""));
    }

    @Test
    void aNewRecordingsFirstViewIsPreparedRightAfterItsUpload(@TempDir Path ownData) throws Exception {
        // a server of its own: the warmer rests after each build, and the shared server's uploads may have just run it
        try (TestServer fresh = new TestServer(ownData, 1 << 20, null)) {
            // only allocation samples: the view the UI opens first is the alloc kind over the whole recording
            TestServer.Reply up = fresh.post("?name=prepared&kind=alloc", "main;alloc;a 300\nmain;alloc;b 100\nmain;c 5\n");
            assertEquals(201, up.status(), up.body());
            String flame = fresh.base + "/api/recordings/" + up.json().get("id").asText() + "/flame?kind=alloc";
            HttpResponse<byte[]> first = fetchUrl(fresh, flame + "&format=binary");
            assertEquals(200, first.statusCode());
            assertEquals("cache;desc=hit", first.headers().firstValue("Server-Timing").orElse(""),
                    "the first request finds the view built and encoded");
            Binary bin = Binary.decode(first.body());
            assertEquals(405, (long) bin.total()[0]);
            assertEquals("alloc", bin.header().get("kind").asText());
            // other views (and the JSON form) are still built for their request
            assertTrue(fetchUrl(fresh, flame + "&format=binary&invert=true").headers().firstValue("Server-Timing").orElse("")
                    .contains("build;dur="));
            assertTrue(fetchUrl(fresh, flame).headers().firstValue("Server-Timing").orElse("").contains("build;dur="));
        }
    }

    private static HttpResponse<byte[]> fetchUrl(TestServer on, String url) throws Exception {
        return on.http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    @Test
    void weightsPast32BitsTravelAsDoubles() throws Exception {
        TestServer.Reply up = server.post("?name=heavy&kind=alloc", "main;alloc;big 5000000000\nmain;alloc;small 7\n");
        assertEquals(201, up.status(), up.body());
        Binary bin = Binary.decode(fetch("/api/recordings/" + up.json().get("id").asText()
                + "/flame?kind=alloc&format=binary", false).body());
        assertEquals("f64", bin.header().get("columns").get("total").asText());
        assertEquals(5_000_000_007L, (long) bin.total()[0]);
    }

    @Test
    void liveHeapBinaryCarriesTheSameFlameGraphAndFiguresAsTheJsonForm() throws Exception {
        // recorded by our agent with live=true: GCs and live-object samples
        TestServer.Reply up = server.post("?name=retaining-cache.jfr",
                Files.readAllBytes(Path.of("../sample-recordings/retaining-cache.jfr")), null);
        assertTrue(up.status() == 201 || up.status() == 200, up.body());
        String id = up.json().get("id").asText();
        JsonNode json = server.get("/api/recordings/" + id + "/live").json();
        HttpResponse<byte[]> response = fetch("/api/recordings/" + id + "/live?format=binary", false);
        assertEquals(200, response.statusCode());
        Binary bin = Binary.decode(response.body());
        JsonNode live = bin.header().get("live");
        assertTrue(json.get("liveSamples").asLong() > 0, "the recording has live samples");
        for (String field : new String[] {"gc", "usedAfter", "liveSamples", "sampledWeight", "byClass"}) {
            assertEquals(json.get(field), live.get(field), field);
        }
        JsonNode flame = json.get("flame");
        assertEquals(flame.get("names"), bin.header().get("names"));
        assertEquals(flame.get("total").asLong(), bin.header().get("total").asLong());
        int n = flame.get("nodes").get("name").size();
        assertEquals(n, bin.count().length);
        for (int i = 0; i < n; i++) {
            assertEquals(flame.get("nodes").get("total").get(i).asLong(), (long) bin.total()[i], "total of node " + i);
            assertEquals(flame.get("nodes").get("count").get(i).asInt(), bin.count()[i], "count of node " + i);
        }
        String gc = "/api/recordings/" + id + "/live?gc=" + live.get("gc").get("index").asInt() + "&format=binary";
        assertTrue(fetch(gc, false).headers().firstValue("Server-Timing").orElse("").contains("build;dur="),
                "gc=N is its own cache entry");
        assertEquals("cache;desc=hit", fetch(gc, false).headers().firstValue("Server-Timing").orElse(""));
    }

    @Test
    void anUnknownFormatIsA400NamingTheParameter() throws Exception {
        TestServer.Reply r = server.get("/api/recordings/" + jfrId + "/flame?format=protobuf");
        assertEquals(400, r.status());
        assertTrue(r.json().get("error").asText().contains("format must be json or binary"), r.body());
    }
}
