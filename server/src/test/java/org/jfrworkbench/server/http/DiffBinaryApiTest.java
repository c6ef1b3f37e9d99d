package org.jfrworkbench.server.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPInputStream;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** The binary diff (/api/diff?format=binary) over HTTP: same tree and changes as the JSON form, gzip, the cache. */
class DiffBinaryApiTest extends WithTwoFixtures {
    /** The decoded binary form: header plus columns. */
    record Binary(JsonNode header, double[] base, double[] target, int[] count, int[] name, byte[] type,
                  byte[] significance) {
        static Binary decode(byte[] bytes) throws Exception {
            ByteBuffer buf = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            assertEquals("JFWD", new String(bytes, 0, 4, StandardCharsets.US_ASCII));
            assertEquals(1, buf.getInt(4));
            int headerLength = buf.getInt(8);
            assertEquals(0, headerLength % 8, "columns start 8-byte aligned");
            JsonNode header = TestServer.JSON.readTree(new String(bytes, 16, headerLength, StandardCharsets.UTF_8));
            int n = header.get("nodes").asInt();
            buf.position(16 + headerLength);
            boolean weight32 = header.get("columns").get("weight").asText().equals("u32");
            boolean name16 = header.get("columns").get("name").asText().equals("u16");
            double[] base = weights(buf, n, weight32);
            double[] target = weights(buf, n, weight32);
            int[] count = new int[n];
            buf.asIntBuffer().get(count);
            buf.position(buf.position() + n * 4);
            int[] name = new int[n];
            for (int i = 0; i < n; i++) {
                name[i] = name16 ? Short.toUnsignedInt(buf.getShort()) : buf.getInt();
            }
            byte[] type = new byte[n];
            buf.get(type);
            assertEquals("i8", header.get("columns").get("significance").asText());
            byte[] significance = new byte[n];
            buf.get(significance);
            assertEquals(bytes.length, buf.position(), "nothing after the significance column");
            return new Binary(header, base, target, count, name, type, significance);
        }

        private static double[] weights(ByteBuffer buf, int n, boolean narrow) {
            double[] out = new double[n];
            for (int i = 0; i < n; i++) {
                out[i] = narrow ? Integer.toUnsignedLong(buf.getInt()) : buf.getDouble();
            }
            return out;
        }
    }

    private static HttpResponse<byte[]> fetch(String path, boolean gzip) throws Exception {
        return server.getBytes(path, gzip);
    }

    @Test
    void binaryFormHoldsTheSameTreeAndChangesAsTheJsonForm() throws Exception {
        String query = "/api/diff?base=" + a + "&target=" + b + "&kind=cpu";
        JsonNode json = server.get(query).json();
        HttpResponse<byte[]> response = fetch(query + "&format=binary", false);
        assertEquals(200, response.statusCode());
        assertEquals("application/octet-stream", response.headers().firstValue("Content-Type").orElse(""));
        Binary bin = Binary.decode(response.body());
        JsonNode header = bin.header();

        assertEquals("u32", header.get("columns").get("weight").asText(), "sample counts fit 32 bits");
        assertEquals("u16", header.get("columns").get("name").asText());
        JsonNode nodes = json.get("nodes");
        int n = nodes.get("name").size();
        assertTrue(n > 50, "a real tree: " + n);
        assertEquals(n, header.get("nodes").asInt());
        assertEquals(json.get("names"), header.get("names"));
        for (String field : new String[] {"kind", "targetKind", "unit", "mode", "baseTotal", "targetTotal", "baseSamples",
            "targetSamples", "baseSeconds", "targetSeconds", "test", "warnings"}) {
            assertEquals(json.get(field), header.get(field), field);
        }
        assertEquals(json.get("changes"), header.get("changes"), "the same ranked changes");
        assertTrue(header.get("changes").size() > 0);
        boolean grows = false;
        boolean shrinks = false;
        for (int i = 0; i < n; i++) {
            assertEquals(nodes.get("name").get(i).asInt(), bin.name()[i], "name of node " + i);
            assertEquals(nodes.get("count").get(i).asInt(), bin.count()[i], "count of node " + i);
            assertEquals(nodes.get("base").get(i).asLong(), (long) bin.base()[i], "base of node " + i);
            assertEquals(nodes.get("target").get(i).asLong(), (long) bin.target()[i], "target of node " + i);
            assertEquals(nodes.get("type").get(i).asText(), header.get("types").get(bin.type()[i]).asText(), "type of node " + i);
            assertEquals(nodes.get("significance").get(i).asInt(), bin.significance()[i], "significance of node " + i);
            grows |= bin.base()[i] == 0 && bin.target()[i] > 0;
            shrinks |= bin.base()[i] > 0 && bin.target()[i] == 0;
        }
        assertTrue(grows && shrinks, "frames only one side has are in the merged tree");
        assertEquals(json.get("baseTotal").asLong(), (long) bin.base()[0]);
        assertEquals(json.get("targetTotal").asLong(), (long) bin.target()[0]);
    }

    @Test
    void selfWeightsOfTheJsonFormFollowFromTheBinaryColumns() throws Exception {
        String query = "/api/diff?base=" + a + "&target=" + b + "&kind=cpu";
        JsonNode nodes = server.get(query).json().get("nodes");
        Binary bin = Binary.decode(fetch(query + "&format=binary", false).body());
        int n = bin.count().length;
        for (int i = 0; i < n; i++) {
            long baseSelf = (long) bin.base()[i];
            long targetSelf = (long) bin.target()[i];
            for (int c = i + 1; c < i + bin.count()[i]; c += bin.count()[c]) {
                baseSelf -= (long) bin.base()[c];
                targetSelf -= (long) bin.target()[c];
            }
            assertEquals(nodes.get("baseSelf").get(i).asLong(), baseSelf, "base self of node " + i);
            assertEquals(nodes.get("targetSelf").get(i).asLong(), targetSelf, "target self of node " + i);
        }
    }

    @Test
    void gzipIsServedWhenAcceptedAndUnpacksToTheSameBytes() throws Exception {
        String query = "/api/diff?base=" + a + "&target=" + b + "&format=binary";
        byte[] plain = fetch(query, false).body();
        HttpResponse<byte[]> zipped = fetch(query, true);
        assertEquals("gzip", zipped.headers().firstValue("Content-Encoding").orElse(""));
        assertTrue(zipped.body().length < plain.length, zipped.body().length + " vs " + plain.length);
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(zipped.body()))) {
            assertArrayEquals(plain, in.readAllBytes());
        }
    }

    @Test
    void aRepeatedDiffComesFromTheCacheUntilEitherRecordingIsDeleted() throws Exception {
        String base = server.upload("?name=diff-base", "main;work;parse 5\nmain;work;sort 3\nmain;idle 2\n");
        String target = server.upload("?name=diff-target", "main;work;parse 9\nmain;idle 1\n");
        for (boolean binary : new boolean[] {true, false}) {
            String query = "/api/diff?base=" + base + "&target=" + target + (binary ? "&format=binary" : "");
            HttpResponse<byte[]> first = fetch(query, false);
            assertTrue(first.headers().firstValue("Server-Timing").orElse("").contains("build;dur="));
            HttpResponse<byte[]> second = fetch(query, false);
            assertEquals("cache;desc=hit", second.headers().firstValue("Server-Timing").orElse(""));
            assertArrayEquals(first.body(), second.body());
        }
        // the other order is another diff
        String swapped = "/api/diff?base=" + target + "&target=" + base + "&format=binary";
        Binary bin = Binary.decode(fetch(swapped, false).body());
        assertTrue(fetch(swapped, false).headers().firstValue("Server-Timing").orElse("").startsWith("cache"));
        assertEquals(10, (long) bin.base()[0]);
        assertEquals(10, (long) bin.target()[0]);

        assertEquals(204, server.delete("/api/recordings/" + target, null).status());
        HttpResponse<byte[]> gone = fetch("/api/diff?base=" + base + "&target=" + target + "&format=binary", false);
        assertEquals(404, gone.statusCode());
        assertTrue(new String(gone.body(), StandardCharsets.UTF_8).contains("\"error\""));
        assertEquals(404, fetch(swapped, false).statusCode());
    }

    @Test
    void weightsPast32BitsTravelAsDoubles() throws Exception {
        String heavy = server.upload("?name=heavy&kind=alloc", "main;alloc;big 5000000000\nmain;alloc;small 7\n");
        String light = server.upload("?name=light&kind=alloc", "main;alloc;big 5\n");
        Binary bin = Binary.decode(fetch("/api/diff?base=" + light + "&target=" + heavy + "&kind=alloc&format=binary", false).body());
        assertEquals("f64", bin.header().get("columns").get("weight").asText());
        assertEquals(5_000_000_007L, (long) bin.target()[0]);
        assertEquals(5, (long) bin.base()[0]);
    }

    @Test
    void badFormatAndMissingKindAre400sNamingTheProblem() throws Exception {
        TestServer.Reply format = server.get("/api/diff?base=" + a + "&target=" + b + "&format=protobuf");
        assertEquals(400, format.status());
        assertTrue(format.json().get("error").asText().contains("format must be json or binary"), format.body());
        TestServer.Reply kind = server.get("/api/diff?base=" + a + "&target=" + b + "&kind=nativemem&format=binary");
        assertEquals(400, kind.status());
        assertTrue(kind.json().get("error").asText().contains("has no 'nativemem' samples"), kind.body());
    }
}
