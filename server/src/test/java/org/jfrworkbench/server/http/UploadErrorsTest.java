package org.jfrworkbench.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad uploads get a clear 4xx and leave nothing behind; what was stored before stays. */
class UploadErrorsTest {
    static final int LIMIT = 1 << 20;

    @TempDir
    Path data;
    TestServer server;
    String keptId;

    @BeforeEach
    void start() throws Exception {
        server = new TestServer(data, LIMIT, null);
        keptId = server.upload("?name=kept", RecordingsApiTest.STACKS);
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
    }

    private void assertOnlyTheKeptRecordingRemains() throws Exception {
        var list = server.get("/api/recordings").json();
        assertEquals(1, list.get("total").asLong(), list.toString());
        assertEquals(keptId, list.get("recordings").get(0).get("id").asText());
        try (var dirs = Files.list(data.resolve("recordings"))) {
            assertEquals(1, dirs.count());
        }
        try (var tmp = Files.list(data.resolve("tmp"))) {
            assertEquals(0, tmp.filter(p -> !p.getFileName().toString().startsWith("MultiPart")).count());
        }
        assertEquals(200, server.get("/api/recordings/" + keptId + "/flame").status());
    }

    private static void assertError(int status, TestServer.Reply reply, String fragment) {
        assertEquals(status, reply.status(), reply.body());
        String message = reply.json().get("error").asText();
        assertTrue(message.contains(fragment), message);
    }

    @Test
    void binaryGarbageIsRejectedWith400() throws Exception {
        byte[] garbage = new byte[5000];
        new java.util.Random(1).nextBytes(garbage);
        garbage[0] = 1;
        assertError(400, server.post("", garbage, null), "unknown format");
        assertOnlyTheKeptRecordingRemains();
    }

    @Test
    void emptyBodyIsRejectedWith400() throws Exception {
        assertError(400, server.post("", new byte[0], null), "empty");
        assertOnlyTheKeptRecordingRemains();
    }

    @Test
    void truncatedJfrIsRejectedWith400() throws Exception {
        byte[] jfr = Files.readAllBytes(org.jfrworkbench.testkit.JfrFixture.recording("a"));
        byte[] cut = java.util.Arrays.copyOf(jfr, 40);
        assertEquals(400, server.post("", cut, null).status());
        assertOnlyTheKeptRecordingRemains();
    }

    @Test
    void oversizeUploadWithLengthIsRejectedWith413() throws Exception {
        assertError(413, server.post("", new byte[LIMIT + (2 << 20)], null), "limit");
        assertOnlyTheKeptRecordingRemains();
    }

    @Test
    void oversizeChunkedUploadIsRejectedWith413() throws Exception {
        byte[] big = "a;b 1\n".repeat(LIMIT / 6 + 1000).getBytes();
        HttpRequest req = HttpRequest.newBuilder(URI.create(server.base + "/api/recordings"))
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big))).build();
        assertError(413, server.send(req), "limit");
        assertOnlyTheKeptRecordingRemains();
    }

    @Test
    void oversizeMultipartUploadIsRejectedWith413() throws Exception {
        assertEquals(413, server.postMultipart("big.txt", "a;b 1\n".repeat(LIMIT / 6 + 1000).getBytes(), "x=y").status());
        assertOnlyTheKeptRecordingRemains();
    }

    @Test
    void gzipBombIsRejectedWith400() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(bytes)) {
            byte[] letters = new byte[1 << 20]; // text, so it passes the format sniff and meets the ratio limit
            java.util.Arrays.fill(letters, (byte) 'a');
            for (int i = 0; i < 64; i++) {
                gz.write(letters);
            }
        }
        assertError(400, server.post("", bytes.toByteArray(), null), "expands beyond");
        assertOnlyTheKeptRecordingRemains();
    }

    @Test
    void zipWithoutRecordingsIsRejectedWith400() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            zip.putNextEntry(new ZipEntry("readme.md"));
            zip.write("hello".getBytes());
        }
        assertError(400, server.post("", bytes.toByteArray(), null), "zip");
        assertOnlyTheKeptRecordingRemains();
    }

    @Test
    void multipartWithoutFileFieldIsRejectedWith400() throws Exception {
        String boundary = "b0undary";
        String body = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nx\r\n--" + boundary + "--\r\n";
        HttpRequest req = HttpRequest.newBuilder(URI.create(server.base + "/api/recordings"))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        assertError(400, server.send(req), "'file'");
        assertOnlyTheKeptRecordingRemains();
    }

    @Test
    void badLabelsAndKindAreRejectedWith400() throws Exception {
        assertError(400, server.post("?labels=novalue", "x;y 1\n"), "labels");
        assertError(400, server.post("?kind=heat", "x;y 1\n"), "unknown kind");
        assertOnlyTheKeptRecordingRemains();
    }
}
