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
import one.convert.FlameGraph;
import one.convert.JfrToFlame;
import org.jfrworkbench.bench.inputs.BenchInputs;
import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.server.http.RunningServer;
import org.jfrworkbench.server.library.RecordingLibrary;
import org.jfrworkbench.testkit.SyntheticProfile;

/**
 * Upload latency: POSTs one recording to the real server in process (a data directory of its own on the real disk)
 * and times its answer (201) and its first view (the default flame graph, the request the page makes first), with
 * the server's own steps from the answer's Server-Timing header. Each round deletes the recording again; 3 warm-up
 * rounds, then 10 timed. Peer, timed in the same rounds: async-profiler's converter turning the same file into its
 * HTML flame graph, what one runs to see a recording without a server.
 * Input: the file given, or the benchmark input {@code ap-cpualloc-38mb} (async-profiler cpu and alloc, one chunk,
 * about 38 MB: what issue-sized uploads look like; see {@link BenchInputs}), or the input named by {@code input:NAME};
 * {@code synthetic:N} uploads a collapsed-stack profile of N distinct stacks over tens of thousands of methods
 * ({@code SyntheticProfile}), which weighs on the method index.
 * Run on demand: {@code benchmarks/run.sh UploadBench [FILE]} (with {@code JAVA_OPTS=-Xmx2g} or more);
 * {@code -Dbench.url=http://host:port} times a server that runs elsewhere instead (another version, say);
 * {@code -Dbench.pid=PID} names its process for the CPU figures; {@code -Dbench.rounds=N} sets the timed rounds;
 * {@code -Dbench.peer=false} leaves the peer out; {@code -Dbench.settle=true} lets the server finish a round's work
 * after the answer (the index entry, the inverted part) before the next round, which otherwise shares the processors
 * with it: the upload on an idle server.
 */
public final class UploadBench {
    private static final int WARMUP = 3;
    private static final int ROUNDS = Integer.getInteger("bench.rounds", 10);
    private static final boolean PEER = Boolean.parseBoolean(System.getProperty("bench.peer", "true"));
    private static final boolean SETTLE = Boolean.getBoolean("bench.settle");
    private static final ObjectMapper JSON = new ObjectMapper();

    private UploadBench() {
    }

    public static void main(String[] args) throws Exception {
        Path work = Files.createTempDirectory("upload-bench");
        Path input;
        if (args.length > 0 && args[0].startsWith("synthetic:")) {
            int stacks = Integer.parseInt(args[0].substring("synthetic:".length()));
            input = Files.writeString(work.resolve("synthetic-" + stacks + ".txt"), SyntheticProfile.collapsed(stacks, 7));
        } else {
            input = args.length == 0 ? BenchInputs.get("ap-cpualloc-38mb")
                    : args[0].startsWith("input:") ? BenchInputs.get(args[0].substring("input:".length())) : Path.of(args[0]);
        }
        HttpClient http = HttpClient.newHttpClient();
        Map<String, List<Double>> times = new LinkedHashMap<>();
        JsonNode info = null;
        String url = System.getProperty("bench.url");
        try (RunningServer server = url != null ? null : RunningServer.start(RecordingLibrary.open(work.resolve("data"),
                new Importer(), 4L << 30), null, "127.0.0.1", 0)) {
            String base = url != null ? url : server.baseUrl();
            for (int round = 0; round < WARMUP + ROUNDS; round++) {
                long cpuStarted = serverCpuNanos();
                long started = System.nanoTime();
                HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(base + "/api/recordings?name=bench"))
                        .POST(HttpRequest.BodyPublishers.ofFile(input)).build(), HttpResponse.BodyHandlers.ofString());
                long answered = System.nanoTime();
                long cpuAnswered = serverCpuNanos();
                if (answer.statusCode() != 201) {
                    throw new IllegalStateException("upload answered " + answer.statusCode() + ": " + answer.body());
                }
                info = JSON.readTree(answer.body());
                String id = info.get("id").asText();
                String kind = info.get("kinds").fieldNames().next();
                HttpResponse<byte[]> view = http.send(HttpRequest.newBuilder(URI.create(base + "/api/recordings/" + id
                        + "/flame?kind=" + kind + "&format=binary")).build(), HttpResponse.BodyHandlers.ofByteArray());
                long viewed = System.nanoTime();
                long cpuViewed = serverCpuNanos();
                if (view.statusCode() != 200) {
                    throw new IllegalStateException("first view answered " + view.statusCode());
                }
                http.send(HttpRequest.newBuilder(URI.create(base + "/api/recordings/" + id)).DELETE().build(),
                        HttpResponse.BodyHandlers.discarding());
                if (SETTLE) {
                    settle(http, base);
                }
                long peerStarted = System.nanoTime();
                if (PEER) {
                    peer(input, work.resolve("peer.html"));
                }
                long peerDone = System.nanoTime();
                if (round < WARMUP) {
                    continue;
                }
                add(times, "answer (201)", answered - started);
                add(times, "first view", viewed - started);
                add(times, "server CPU to answer", cpuAnswered - cpuStarted);
                add(times, "server CPU to first view", cpuViewed - cpuStarted);
                for (String step : answer.headers().firstValue("Server-Timing").orElse("").split(",\\s*")) {
                    String[] parts = step.split(";dur=");
                    if (parts.length == 2) {
                        add(times, "  " + parts[0], (long) (Double.parseDouble(parts[1]) * 1e6));
                    }
                }
                if (PEER) {
                    add(times, "peer: converter to HTML", peerDone - peerStarted);
                }
            }
        }
        System.out.printf("input: %s, %.1f MB, %s%n", input.getFileName(), Files.size(input) / 1048576.0, info.get("kinds"));
        System.out.printf("%-26s %9s %9s %9s   (%d rounds after %d warm-up)%n", "ms", "median", "min", "max", ROUNDS, WARMUP);
        times.forEach((name, values) -> {
            List<Double> sorted = values.stream().sorted().toList();
            System.out.printf("%-26s %9.1f %9.1f %9.1f%n", name, median(sorted), sorted.get(0), sorted.get(sorted.size() - 1));
        });
        if (PEER) {
            System.out.printf("first view vs peer: %.2fx faster (median of per-round ratios)%n", medianRatio(
                    times.get("peer: converter to HTML"), times.get("first view")));
        }
    }

    /**
     * Waits until the server is idle: the list answers once every acknowledged recording's index entry is made, then
     * the server's CPU over a 200 ms window must fall under a tenth of a core (the inverted part, the per-thread lists,
     * the compiler), at most 60 s.
     */
    private static void settle(HttpClient http, String base) throws Exception {
        http.send(HttpRequest.newBuilder(URI.create(base + "/api/recordings?limit=1")).build(),
                HttpResponse.BodyHandlers.discarding());
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline) {
            long cpu = serverCpuNanos();
            long started = System.nanoTime();
            Thread.sleep(200); // the window the CPU is measured over
            if (serverCpuNanos() - cpu < (System.nanoTime() - started) / 10) {
                return;
            }
        }
    }

    /** async-profiler's converter: JFR (JfrToFlame) or collapsed stacks (FlameGraph) to its HTML flame graph. */
    private static void peer(Path input, Path html) throws Exception {
        if (!input.getFileName().toString().endsWith(".txt")) {
            JfrToFlame.convert(input.toString(), html.toString(), new Arguments("--title", "bench"));
            return;
        }
        FlameGraph graph = new FlameGraph(new Arguments("--title", "bench"));
        try (java.io.Reader in = Files.newBufferedReader(input)) {
            graph.parseCollapsed(in);
        }
        try (java.io.PrintStream out = new java.io.PrintStream(Files.newOutputStream(html), false, "UTF-8")) {
            graph.dump(out);
        }
    }

    /**
     * CPU time the server's process has used: this JVM's (the client's part is small beside the import), or, with
     * {@code -Dbench.pid}, that process's from /proc (in clock ticks of 10 ms). On a loaded machine the wall times
     * above grow with the load; this does not.
     */
    private static long serverCpuNanos() throws java.io.IOException {
        String pid = System.getProperty("bench.pid");
        if (pid == null) {
            return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                    .getOperatingSystemMXBean()).getProcessCpuTime();
        }
        String stat = Files.readString(Path.of("/proc", pid, "stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10_000_000L; // utime + stime
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
