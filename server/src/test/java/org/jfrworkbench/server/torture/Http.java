package org.jfrworkbench.server.torture;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** A small HTTP client for one server: every answer carries its status, body and how long it took. */
final class Http {
    static final ObjectMapper JSON = new ObjectMapper();
    /** Only a hang reaches it: on a loaded machine an answer may take many times its usual time. */
    static final Duration TIMEOUT = Duration.ofSeconds(org.jfrworkbench.testkit.process.ServerProcess.STUCK_SECONDS);
    final String base;
    final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    Http(String base) {
        this.base = base;
    }

    record Reply(int status, byte[] bytes, long nanos) {
        String body() {
            return new String(bytes, StandardCharsets.UTF_8);
        }

        JsonNode json() {
            try {
                return JSON.readTree(bytes);
            } catch (IOException e) {
                throw new AssertionError("not JSON (" + status + "): " + body(), e);
            }
        }

        /** The error message of a 4xx/5xx answer, or null when the body is not {"error": "..."}. */
        String error() {
            try {
                JsonNode e = JSON.readTree(bytes).get("error");
                return e == null || e.asText().isBlank() ? null : e.asText();
            } catch (IOException e) {
                return null;
            }
        }

        double millis() {
            return nanos / 1e6;
        }
    }

    HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(base + path)).timeout(TIMEOUT);
    }

    Reply get(String path) throws IOException, InterruptedException {
        return send(request(path).GET().build());
    }

    Reply post(String pathAndQuery, byte[] body) throws IOException, InterruptedException {
        return send(request(pathAndQuery).header("Content-Type", "application/octet-stream")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build());
    }

    Reply delete(String path) throws IOException, InterruptedException {
        return send(request(path).DELETE().build());
    }

    /** A multipart upload with a file part (any file name, sent as given) and optional extra text fields. */
    Reply postMultipart(String fileName, byte[] content, String... fields) throws IOException, InterruptedException {
        return send(multipart(fileName, content, null, fields));
    }

    /** The multipart request itself, with a bearer token when token is not null. */
    HttpRequest multipart(String fileName, byte[] content, String token, String... fields) {
        String boundary = "torture" + System.nanoTime();
        var out = new java.io.ByteArrayOutputStream();
        for (int i = 0; i + 1 < fields.length; i += 2) {
            out.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + fields[i] + "\"\r\n\r\n"
                    + fields[i + 1] + "\r\n").getBytes(StandardCharsets.UTF_8));
        }
        out.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\""
                + fileName.replace("\"", "%22") + "\"\r\nContent-Type: application/octet-stream\r\n\r\n").getBytes(StandardCharsets.UTF_8));
        out.writeBytes(content);
        out.writeBytes(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        HttpRequest.Builder b = request("/api/recordings").header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(out.toByteArray()));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return b.build();
    }

    Reply send(HttpRequest request) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        HttpResponse<byte[]> r = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
        return new Reply(r.statusCode(), r.body(), System.nanoTime() - t0);
    }
}
