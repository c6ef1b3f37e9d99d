package org.jfrworkbench.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.server.http.RunningServer;
import org.jfrworkbench.server.library.RecordingLibrary;
import org.jfrworkbench.testkit.jfr.JfrChunks;

/**
 * A run's part latency against the part's number: POSTs the parts of one run (the chunks of a multi-chunk recording,
 * repeated until {@code -Dbench.parts=N} parts, 300 by default) one after the other and times each answer. With
 * {@code -Dbench.url=URL[,URL...]} it times servers that run elsewhere (other versions), part k to each in turn, so
 * noise on the machine falls on all alike; without it, the server in process. Prints, per tenth of the run, the mean
 * time of a part on each server and, at the end, the last tenth's mean over the first's (1 where a part's work does
 * not grow with the run), and whether the run's views (every kind's stacks, the heap) are equal on all servers.
 * Input: the file given, else {@code sample-recordings/checkout-before.jfr} (async-profiler, 4 chunks of 170-290 kB).
 * Run on demand: {@code benchmarks/run.sh RunAppendBench [FILE]}.
 */
public final class RunAppendBench {
    private static final int PARTS = Integer.getInteger("bench.parts", 300);

    private RunAppendBench() {
    }

    /** The paths of the run's views to compare: every kind's collapsed stacks and the heap timeline. */
    private static List<String> views(HttpClient http, String server, String run) throws Exception {
        String id = org.jfrworkbench.server.library.Runs.id(run);
        com.fasterxml.jackson.databind.JsonNode info = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(get(http, server + "/api/recordings/" + id));
        List<String> views = new ArrayList<>();
        info.get("kinds").fieldNames().forEachRemaining(k -> views.add("/api/recordings/" + id + "/collapsed?kind=" + k));
        views.add("/api/recordings/" + id + "/heap");
        return views;
    }

    private static String get(HttpClient http, String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    public static void main(String[] args) throws Exception {
        Path input = args.length > 0 ? Path.of(args[0]) : Path.of("sample-recordings", "checkout-before.jfr");
        List<byte[]> chunks = JfrChunks.split(input);
        HttpClient http = HttpClient.newHttpClient();
        String urls = System.getProperty("bench.url");
        Path work = Files.createTempDirectory("run-append-bench");
        try (RunningServer local = urls != null ? null : RunningServer.start(RecordingLibrary.open(work.resolve("data"),
                new Importer(), 4L << 30), null, "127.0.0.1", 0)) {
            List<String> servers = urls != null ? List.of(urls.split(",")) : List.of(local.baseUrl());
            String run = "bench-" + System.currentTimeMillis();
            double[][] millis = new double[servers.size()][PARTS];
            long bytes = 0;
            for (int part = 0; part < PARTS; part++) {
                byte[] chunk = chunks.get(part % chunks.size());
                bytes += chunk.length;
                for (int s = 0; s < servers.size(); s++) {
                    long started = System.nanoTime();
                    HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(servers.get(s)
                                    + "/api/recordings?run=" + run + "&chunk=" + part))
                            .POST(HttpRequest.BodyPublishers.ofByteArray(chunk)).build(), HttpResponse.BodyHandlers.ofString());
                    millis[s][part] = (System.nanoTime() - started) / 1e6;
                    if (answer.statusCode() / 100 != 2) {
                        throw new IllegalStateException(servers.get(s) + " answered part " + part + " with "
                                + answer.statusCode() + ": " + answer.body());
                    }
                }
            }
            System.out.printf(Locale.ROOT, "RunAppendBench: %d parts of %s (%d chunks repeated), %.1f MB in all%n", PARTS,
                    input.getFileName(), chunks.size(), bytes / 1e6);
            StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%-12s", "parts"));
            for (String s : servers) {
                head.append(String.format(Locale.ROOT, " %28s", s));
            }
            System.out.println(head + "   (mean ms per part)");
            int tenth = Math.max(1, PARTS / 10);
            List<double[]> means = new ArrayList<>();
            for (int from = 0; from < PARTS; from += tenth) {
                int to = Math.min(PARTS, from + tenth);
                StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%-12s", (from + 1) + "-" + to));
                double[] m = new double[servers.size()];
                for (int s = 0; s < servers.size(); s++) {
                    for (int p = from; p < to; p++) {
                        m[s] += millis[s][p] / (to - from);
                    }
                    row.append(String.format(Locale.ROOT, " %28.1f", m[s]));
                }
                means.add(m);
                System.out.println(row);
            }
            for (int s = 0; s < servers.size(); s++) {
                System.out.printf(Locale.ROOT, "%s: last tenth / first tenth = %.1f%n", servers.get(s),
                        means.get(means.size() - 1)[s] / means.get(0)[s]);
            }
            // the run made part by part must be the same recording on every server: its stacks of every kind, its heap
            for (int s = 1; s < servers.size(); s++) {
                for (String view : views(http, servers.get(0), run)) {
                    boolean same = get(http, servers.get(0) + view).equals(get(http, servers.get(s) + view));
                    System.out.printf(Locale.ROOT, "%s on %s: %s%n", view.substring(view.lastIndexOf('/') + 1),
                            servers.get(s), same ? "equal" : "DIFFERS from " + servers.get(0));
                }
            }
        }
    }
}
