package org.jfrworkbench.server.http;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.jfrworkbench.importer.ImportLimits;
import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.server.library.RecordingLibrary;
import org.jfrworkbench.testkit.JfrFixture;

/** A real server on a random loopback port over a data dir, and a small HTTP client for it. */
final class TestServer implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();
    final RunningServer server;
    final String base;
    final HttpClient http = HttpClient.newHttpClient();

    TestServer(Path data, long maxUpload, String token) throws IOException {
        server = RunningServer.start(RecordingLibrary.open(data, new Importer(new ImportLimits(1L << 30, 100)), maxUpload),
                token, "127.0.0.1", 0);
        base = server.baseUrl();
    }

    /** A server whose importer has the limits given (uploads up to 64 MB, no token). */
    TestServer(Path data, ImportLimits limits) throws IOException {
        server = RunningServer.start(RecordingLibrary.open(data, new Importer(limits), 64 << 20), null, "127.0.0.1", 0);
        base = server.baseUrl();
    }

    record Reply(int status, String body) {
        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON: " + body, e);
            }
        }
    }

    Reply get(String path) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET().build());
    }

    Reply delete(String path, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).DELETE();
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return send(b.build());
    }

    Reply post(String query, byte[] body, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + "/api/recordings" + query))
                .header("Content-Type", "application/octet-stream")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return send(b.build());
    }

    Reply post(String query, String body) throws Exception {
        return post(query, body.getBytes(StandardCharsets.UTF_8), null);
    }

    Reply postMultipart(String fileName, byte[] content, String labels) throws Exception {
        String boundary = "wbtest" + System.nanoTime();
        var out = new java.io.ByteArrayOutputStream();
        String head = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"labels\"\r\n\r\n" + labels + "\r\n"
                + "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + fileName + "\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n";
        out.write(head.getBytes(StandardCharsets.UTF_8));
        out.write(content);
        out.write(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        return send(HttpRequest.newBuilder(URI.create(base + "/api/recordings"))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(out.toByteArray())).build());
    }

    /**
     * Uploads a recording (its bytes) and gives its id, or fails the test: the answer must be 201, stored, or 200, the
     * same bytes stored before.
     */
    String upload(String query, byte[] body) throws Exception {
        Reply r = post(query, body, null);
        if (r.status() != 201 && r.status() != 200) {
            throw new AssertionError("upload " + query + " answered " + r.status() + ": " + r.body());
        }
        return r.json().get("id").asText();
    }

    /** Uploads collapsed stacks ({@code frame;frame;frame weight} lines) and gives their id. */
    String upload(String query, String collapsed) throws Exception {
        return upload(query, collapsed.getBytes(StandardCharsets.UTF_8));
    }

    /** Uploads the test kit's small JDK recording of that name ("a" or "b", {@link JfrFixture}) as fixture-NAME.jfr. */
    String uploadFixture(String name) throws Exception {
        return upload("?name=fixture-" + name + ".jfr", java.nio.file.Files.readAllBytes(JfrFixture.recording(name)));
    }

    /** GET path as bytes, asking for gzip or not, with the response's headers. */
    HttpResponse<byte[]> getBytes(String path, boolean gzip) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(base + path));
        if (gzip) {
            r.header("Accept-Encoding", "gzip");
        }
        return http.send(r.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    /**
     * The URL of the view the page of link names in its head, the first group of preload (a preload link's pattern),
     * as the browser asks for it.
     */
    String preloaded(String link, Pattern preload) throws Exception {
        Reply page = get(link);
        Matcher m = preload.matcher(page.body());
        if (page.status() != 200 || !m.find()) {
            throw new AssertionError(link + ": " + page.status() + " " + page.body());
        }
        return m.group(1).replace("&amp;", "&");
    }

    /** A response's Server-Timing header, "" without one. */
    static String timing(HttpResponse<?> response) {
        return response.headers().firstValue("Server-Timing").orElse("");
    }

    /** Whether a view came from its page's early build (waited for) or the cache: never a build of its request's own. */
    static boolean builtEarly(String timing) {
        return timing.startsWith("early;desc=") && timing.contains("build;dur=") || timing.equals("cache;desc=hit");
    }

    /** A response's body, decompressed where it came gzipped. */
    static byte[] body(HttpResponse<byte[]> response) throws IOException {
        boolean gzip = response.headers().firstValue("Content-Encoding").orElse("").equals("gzip");
        return gzip ? new GZIPInputStream(new ByteArrayInputStream(response.body())).readAllBytes() : response.body();
    }

    /** Uploads a file under its own name and gives its id. */
    String upload(Path file) throws Exception {
        return upload("?name=" + file.getFileName(), java.nio.file.Files.readAllBytes(file));
    }

    Reply send(HttpRequest request) throws Exception {
        HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
        return new Reply(r.statusCode(), r.body());
    }

    @Override
    public void close() {
        server.close();
    }
}
