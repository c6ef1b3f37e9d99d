package org.jfrworkbench.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import one.convert.Arguments;
import one.convert.JfrToFlame;
import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.server.http.RunningServer;
import org.jfrworkbench.server.library.RecordingLibrary;
import org.jfrworkbench.testkit.Recordings;

/**
 * Upload latency: POSTs one recording to the real server in process (a data directory of its own on the real disk)
 * and times its answer (201) and its first view (the default flame graph, the request the page makes first), with
 * the server's own steps from the answer's Server-Timing header. Each round deletes the recording again; 3 warm-up
 * rounds, then 10 timed. Peer, timed in the same rounds: async-profiler's converter turning the same file into its
 * HTML flame graph ({@code JfrToFlame}), what one runs to see a recording without a server.
 * Input: the file given, or (made on first run) 30 s of {@code VariedWorkload} under async-profiler in one chunk.
 * Run on demand: {@code benchmarks/run.sh UploadBench [FILE]} (with {@code JAVA_OPTS=-Xmx2g} or more);
 * {@code -Dbench.url=http://host:port} times a server that runs elsewhere instead (another version, say);
 * {@code -Dbench.rounds=N} sets the timed rounds.
 */
public final class UploadBench {
    private static final int WARMUP = 3;
    private static final int ROUNDS = Integer.getInteger("bench.rounds", 10);
    private static final ObjectMapper JSON = new ObjectMapper();

    private UploadBench() {
    }

    public static void main(String[] args) throws Exception {
        Path input = args.length > 0 ? Path.of(args[0]) : Recordings.variedOneChunk(30_000);
        Path work = Files.createTempDirectory("upload-bench");
        HttpClient http = HttpClient.newHttpClient();
        Map<String, List<Double>> times = new LinkedHashMap<>();
        JsonNode info = null;
        String url = System.getProperty("bench.url");
        try (RunningServer server = url != null ? null : RunningServer.start(RecordingLibrary.open(work.resolve("data"),
                new Importer(), 4L << 30), null, "127.0.0.1", 0)) {
            String base = url != null ? url : server.baseUrl();
            for (int round = 0; round < WARMUP + ROUNDS; round++) {
                long started = System.nanoTime();
                HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(base + "/api/recordings?name=bench"))
                        .POST(HttpRequest.BodyPublishers.ofFile(input)).build(), HttpResponse.BodyHandlers.ofString());
                long answered = System.nanoTime();
                if (answer.statusCode() != 201) {
                    throw new IllegalStateException("upload answered " + answer.statusCode() + ": " + answer.body());
                }
                info = JSON.readTree(answer.body());
                String id = info.get("id").asText();
                String kind = info.get("kinds").fieldNames().next();
                HttpResponse<byte[]> view = http.send(HttpRequest.newBuilder(URI.create(base + "/api/recordings/" + id
                        + "/flame?kind=" + kind + "&format=binary")).build(), HttpResponse.BodyHandlers.ofByteArray());
                long viewed = System.nanoTime();
                if (view.statusCode() != 200) {
                    throw new IllegalStateException("first view answered " + view.statusCode());
                }
                http.send(HttpRequest.newBuilder(URI.create(base + "/api/recordings/" + id)).DELETE().build(),
                        HttpResponse.BodyHandlers.discarding());
                long peerStarted = System.nanoTime();
                JfrToFlame.convert(input.toString(), work.resolve("peer.html").toString(), new Arguments("--title", "bench"));
                long peerDone = System.nanoTime();
                if (round < WARMUP) {
                    continue;
                }
                add(times, "answer (201)", answered - started);
                add(times, "first view", viewed - started);
                for (String step : answer.headers().firstValue("Server-Timing").orElse("").split(",\\s*")) {
                    String[] parts = step.split(";dur=");
                    if (parts.length == 2) {
                        add(times, "  " + parts[0], (long) (Double.parseDouble(parts[1]) * 1e6));
                    }
                }
                add(times, "peer: JfrToFlame to HTML", peerDone - peerStarted);
            }
        }
        System.out.printf("input: %s, %.1f MB, %s%n", input.getFileName(), Files.size(input) / 1048576.0, info.get("kinds"));
        System.out.printf("%-26s %9s %9s %9s   (%d rounds after %d warm-up)%n", "ms", "median", "min", "max", ROUNDS, WARMUP);
        times.forEach((name, values) -> {
            List<Double> sorted = values.stream().sorted().toList();
            System.out.printf("%-26s %9.1f %9.1f %9.1f%n", name, median(sorted), sorted.get(0), sorted.get(sorted.size() - 1));
        });
        System.out.printf("first view vs peer: %.2fx faster (median of per-round ratios)%n", medianRatio(
                times.get("peer: JfrToFlame to HTML"), times.get("first view")));
    }

    private static void add(Map<String, List<Double>> times, String name, long nanos) {
        times.computeIfAbsent(name, k -> new ArrayList<>()).add(nanos / 1e6);
    }

    private static double median(List<Double> sorted) {
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static double medianRatio(List<Double> peer, List<Double> ours) {
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < peer.size(); i++) {
            ratios.add(peer.get(i) / ours.get(i));
        }
        return median(ratios.stream().sorted().toList());
    }
}
