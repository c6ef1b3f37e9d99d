package org.jfrworkbench.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Asks the real server for views it has not answered before and keeps what it says it spent on each
 * ({@code Server-Timing: build;dur=…, encode;dur=…, cpu;dur=…}): the server-side time of a first open, without the
 * network and without gzip (no Accept-Encoding is sent), and the request thread's CPU time for it. A cached answer is a mistake of the benchmark and stops it.
 */
final class QueryTimer {
    private static final Pattern TIMING = Pattern.compile("build;dur=([0-9.]+), encode;dur=([0-9.]+), cpu;dur=([0-9.]+)");
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();
    private final String base;

    QueryTimer(String base) {
        this.base = base;
    }

    /**
     * What one answer cost (wall and the request thread's CPU time) and how large it was (nodes, bytes); its build and
     * encode steps apart, and the whole round trip as this client saw it.
     */
    record Answer(double millis, double cpuMillis, int nodes, int bytes, double buildMillis, double encodeMillis,
                  double clientMillis) {
    }

    Answer time(String path) throws IOException, InterruptedException {
        long sent = System.nanoTime();
        HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create(base + path)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        if (r.statusCode() != 200) {
            throw new IllegalStateException(path + ": " + r.statusCode() + " " + new String(r.body(), StandardCharsets.UTF_8));
        }
        String timing = r.headers().firstValue("Server-Timing").orElse("");
        Matcher m = TIMING.matcher(timing);
        if (!m.find()) {
            throw new IllegalStateException(path + " was not built for this request: " + timing);
        }
        double clientMillis = (System.nanoTime() - sent) / 1e6;
        double build = Double.parseDouble(m.group(1));
        double encode = Double.parseDouble(m.group(2));
        return new Answer(build + encode, Double.parseDouble(m.group(3)), nodes(r.body()), r.body().length, build, encode,
                clientMillis);
    }

    /** The round trip of an answer the server has cached (Server-Timing cache;desc=hit), in milliseconds. */
    double cachedRoundTrip(String path) throws IOException, InterruptedException {
        long sent = System.nanoTime();
        HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create(base + path)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        double millis = (System.nanoTime() - sent) / 1e6;
        if (r.statusCode() != 200 || !r.headers().firstValue("Server-Timing").orElse("").contains("cache;desc=hit")) {
            throw new IllegalStateException(path + " was not answered from the cache");
        }
        return millis;
    }

    JsonNode json(String path) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(r.body());
    }

    /** The node count in a binary answer's header (flame graph, diff; a sandwich's callees). */
    private static int nodes(byte[] body) throws IOException {
        ByteBuffer buf = ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN);
        JsonNode header = JSON.readTree(new String(body, 16, buf.getInt(8), StandardCharsets.UTF_8));
        if (header.has("nodes")) {
            return header.get("nodes").asInt();
        }
        int at = 16 + buf.getInt(8) + header.get("callees").get("offset").asInt();
        return nodes(Arrays.copyOfRange(body, at, at + header.get("callees").get("length").asInt()));
    }

    /** {p50, p99} of the wall times, then of the CPU times, in milliseconds. */
    static double[] percentiles(List<Answer> answers) {
        double[] ms = answers.stream().mapToDouble(Answer::millis).sorted().toArray();
        double[] cpu = answers.stream().mapToDouble(Answer::cpuMillis).sorted().toArray();
        int p99 = Math.min(ms.length - 1, (int) Math.ceil(ms.length * 0.99) - 1);
        return new double[] {ms[ms.length / 2], ms[p99], cpu[cpu.length / 2], cpu[p99]};
    }

    /** The median node count. */
    static int medianNodes(List<Answer> answers) {
        int[] n = answers.stream().mapToInt(Answer::nodes).sorted().toArray();
        return n[n.length / 2];
    }
}
