package org.jfrworkbench.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

import com.fasterxml.jackson.databind.JsonNode;
import org.jfrworkbench.analysis.ProfileData;
import org.jfrworkbench.bench.inputs.BenchInputs;
import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.server.http.RunningServer;
import org.jfrworkbench.server.library.RecordingLibrary;
import org.jfrworkbench.server.store.ProfileCodec;

/**
 * Query speed of the server on recordings it was not tuned for (run on demand:
 * {@code JAVA_OPTS=-Xmx6g benchmarks/run.sh ServerBenchmark [STACKSxSAMPLES | input:NAME | file:PATH[,PATH] ...]}): for
 * each size, two generated deep recordings ({@link DeepStacksRecording}: a base and another run with one path grown,
 * cached beside the benchmark inputs, {@link BenchInputs#dir}), or a recorded benchmark input and its other run
 * ({@code input:javac-cpu-140mb}: {@link BenchInputs}), or any recording and optionally another to diff it against
 * ({@code file:a.jfr,b.jfr}); {@code STACKSxSAMPLES:wide} makes the generated ones shallow and wide (1,024 threads,
 * stacks 4 to 16 frames deep), imported into a real
 * server, then views of its cpu samples (a recording without any: its wall-clock samples, else its first kind) it
 * has not answered before, over HTTP, with random time ranges, thread sets, thread-state sets
 * (of the kind with the most states), searches, inverted, sandwich and diff queries (an input without another run has
 * no diff); per kind of view the p50 and p99 of the server's own time (Server-Timing
 * build + encode, binary form) and of the request thread's CPU time (what the work costs on a loaded machine), side
 * by side with async-profiler's converter making the same view from the same
 * file ({@link ConverterPeer}, in a JVM of its own started once for all sizes), their runs interleaved so that both
 * see the same machine; and the bytes the benchmark's JVM (server and client) allocates per view. A second table
 * says where the server's time goes beyond the analysis: per kind of view the p50s of the build and encode steps, of
 * the time the request thread did not run while it built (waiting for a processor, a helper, a collection), of the
 * client's round trip beyond those steps and of the same answer's round trip from the server's cache (each view is
 * asked for twice), and the collections' pauses within the views. Options:
 * {@code -Dbench.rounds=N} views per kind, {@code -Dbench.peerRuns=N} converter runs per kind (0: none),
 * {@code -Dbench.views=diff,...} only those kinds of view, {@code -Dbench.peerJvm="OPTIONS"} the converter's JVM.
 */
public final class ServerBenchmark {
    private static final int ROUNDS = Integer.getInteger("bench.rounds", 100);
    private static final int PEER_RUNS = Integer.getInteger("bench.peerRuns", 5);
    private static final int WARMUP = 15;
    static final String[] SEARCHES = {"OrderService", "m1[0-9]\\.cache", "resolve|merge", "HashMap", "Ledger.*encode2"};
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final List<String> ALL_VIEWS = List.of("range", "threads", "states", "search", "inverted", "sandwich", "diff");
    /** -Dbench.views=diff,range: only those kinds of view (default all), e.g. to compare two builds on one. */
    private static final List<String> VIEWS = views(System.getProperty("bench.views"));

    private ServerBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        List<String> sizes = args.length > 0 ? List.of(args) : List.of("100000x1000000", "250000x2500000");
        Path inputs = Files.createDirectories(BenchInputs.dir());
        try (ConverterPeer peer = PEER_RUNS > 0 ? ConverterPeer.start(peerJvmOptions()) : null) {
            for (String size : sizes) {
                if (size.startsWith("input:")) {
                    // a recorded benchmark input against its other run; searches made of its own class names
                    // (an input without another run, e.g. input:ap-cpuwall-50mb for its thread states, has no diff)
                    String name = size.substring("input:".length());
                    run(BenchInputs.get(name), BenchInputs.hasPartner(name) ? BenchInputs.get(name + "-b") : null, peer, false);
                    continue;
                }
                if (size.startsWith("file:")) {
                    // a recording of a workload none of the inputs come from; searches made of its class names too
                    String[] files = size.substring("file:".length()).split(",", 2);
                    run(existing(files[0]), files.length > 1 ? existing(files[1]) : null, peer, false);
                    continue;
                }
                DeepStacksRecording.Shape shape = size.endsWith(":wide") ? DeepStacksRecording.Shape.WIDE
                        : DeepStacksRecording.Shape.DEEP;
                String counts = size.endsWith(":wide") ? size.substring(0, size.length() - ":wide".length()) : size;
                int stacks = Integer.parseInt(counts.substring(0, counts.indexOf('x')));
                int samples = Integer.parseInt(counts.substring(counts.indexOf('x') + 1));
                Path base = input(inputs, stacks, samples, 0, shape);
                Path target = input(inputs, stacks, samples, 1, shape);
                run(base, target, peer, true);
            }
        }
    }

    private static List<String> views(String given) {
        if (given == null || given.isBlank()) {
            return ALL_VIEWS;
        }
        List<String> out = List.of(given.trim().split("\\s*,\\s*"));
        for (String v : out) {
            if (!ALL_VIEWS.contains(v)) {
                throw new IllegalArgumentException("-Dbench.views: no view '" + v + "', only " + ALL_VIEWS);
            }
        }
        return out;
    }

    /** -Dbench.peerJvm="OPTIONS" (split at spaces), else this JVM's heap options, so that the converter has as much. */
    private static List<String> peerJvmOptions() {
        String given = System.getProperty("bench.peerJvm");
        if (given != null) {
            return List.of(given.trim().split("\\s+"));
        }
        return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("-Xmx") || a.startsWith("-Xms")).toList();
    }

    private static Path existing(String name) {
        Path file = Path.of(name);
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("file:" + name + ": no such recording");
        }
        return file;
    }

    private static Path input(Path dir, int stacks, int samples, int variant, DeepStacksRecording.Shape shape) throws IOException {
        Path file = dir.resolve(shape.name() + "-" + stacks + "-" + samples + "-" + variant + ".jfr");
        if (!Files.exists(file)) {
            long t = System.nanoTime();
            DeepStacksRecording.Made made = DeepStacksRecording.write(file, stacks, samples, variant, shape);
            System.out.printf(Locale.ROOT, "generated %s: %d stacks (mean depth %.1f), %d cpu and %d alloc samples, %.1f MB, %.0f s%n",
                    file.getFileName(), made.stacks(), made.meanDepth(), made.samples(), made.allocations(),
                    made.bytes() / 1e6, (System.nanoTime() - t) / 1e9);
        }
        return file;
    }

    private static void run(Path base, Path target, ConverterPeer peer, boolean generated) throws Exception {
        System.out.printf(Locale.ROOT, "%n== %s (%.1f MB), load average %s%n", base.getFileName(), Files.size(base) / 1e6, load());
        Path data = Files.createTempDirectory("workbench-bench");
        try (RunningServer server = RunningServer.start(
                RecordingLibrary.open(data, new Importer(), 512L << 20), null, "127.0.0.1", 0)) {
            long t0 = System.nanoTime();
            String a = server.library().importFile(base, "base", Map.of(), Kind.CPU).info().id();
            double importMs = (System.nanoTime() - t0) / 1e6;
            String b = target == null ? null : server.library().importFile(target, "target", Map.of(), Kind.CPU).info().id();
            ProfileData pa = server.library().load(a);
            System.out.printf(Locale.ROOT, "import (parse, call tree, profile file, fsync, index): %.0f ms; %d distinct stacks, "
                    + "%d call tree nodes (%.1f MB of tree columns)%n", importMs, pa.profile().stacks().size(), pa.tree().size(),
                    (13.0 * pa.tree().size() + 4.0 * pa.profile().stacks().size()) / 1e6);
            loadTimes(data.resolve("recordings").resolve(a).resolve("profile.wbp"), a);

            QueryTimer timer = new QueryTimer(server.baseUrl());
            JsonNode rec = timer.json("/api/recordings/" + a);
            long duration = rec.get("durationMillis").asLong();
            List<Integer> threads = new ArrayList<>();
            rec.get("threads").forEach(t -> threads.add(t.get("id").asInt()));
            List<String> methods = methods(timer.json("/api/recordings/" + a + "/flame?maxNodes=400&kind=" + mainKind(rec)));
            List<String> searches = generated ? List.of(SEARCHES) : searches(methods);
            System.out.println("searches: " + searches);
            StateChoice states = StateChoice.of(rec);
            String kind = mainKind(rec);
            if (!kind.equals("cpu")) {
                System.out.println("no cpu samples: views of the " + kind + " samples");
            }
            Views views = new Views(a, b, kind, duration, threads, methods, searches, states);
            List<String> kinds = new ArrayList<>(VIEWS);
            if (b == null) {
                kinds.remove("diff");
            }
            if (states == null) {
                kinds.remove("states");
            }
            System.out.println(states == null ? "thread states: no kind has two or more, no states view"
                    : "thread states (" + states.kind() + "): " + states.states());

            Random random = new Random(42);
            for (int i = 0; i < WARMUP; i++) {
                for (String view : kinds) {
                    timer.time(views.query(view, random).path());
                }
            }
            Map<String, List<QueryTimer.Answer>> ours = new LinkedHashMap<>();
            Map<String, List<Double>> peerMs = new LinkedHashMap<>();
            Map<String, List<Long>> allocated = new LinkedHashMap<>();
            Map<String, List<Long>> helped = new LinkedHashMap<>();
            Map<String, List<Long>> paused = new LinkedHashMap<>();
            Map<String, List<Double>> hits = new LinkedHashMap<>();
            // -Dbench.peerRuns=0: ours alone (the converter is never run)
            for (int round = 0; round < ROUNDS; round++) {
                for (String view : kinds) {
                    Views.Query q = views.query(view, random);
                    long gcBefore = gcPauseMillis();
                    long helpers = helperCpu();
                    long before = THREADS.getTotalThreadAllocatedBytes();
                    ours.computeIfAbsent(view, k -> new ArrayList<>()).add(timer.time(q.path()));
                    allocated.computeIfAbsent(view, k -> new ArrayList<>()).add(THREADS.getTotalThreadAllocatedBytes() - before);
                    helped.computeIfAbsent(view, k -> new ArrayList<>()).add(helperCpu() - helpers);
                    paused.computeIfAbsent(view, k -> new ArrayList<>()).add(gcPauseMillis() - gcBefore);
                    // the same answer again from the server's cache: what a view's HTTP costs without its build
                    hits.computeIfAbsent(view, k -> new ArrayList<>()).add(timer.cachedRoundTrip(q.path()));
                    if (peer != null && peerRound(round) && q.peerArgs() != null) {
                        double ms = peer.time(base, q.peerArgs());
                        if (view.equals("diff")) {
                            ms += peer.time(target, q.peerArgs());
                        }
                        peerMs.computeIfAbsent(view, k -> new ArrayList<>()).add(ms);
                    }
                }
            }
            report(ours, peerMs, allocated, helped);
            steps(ours, paused, hits);
            System.out.printf("load average after: %s%n", load());
        } finally {
            try (java.util.stream.Stream<Path> files = Files.walk(data)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    /** Reading a stored recording: the profile, then its stored tree or, instead, building the tree. */
    private static void loadTimes(Path profileFile, String id) throws IOException {
        double[] read = new double[3];
        double[] stored = new double[3];
        double[] built = new double[3];
        for (int i = 0; i < 3; i++) {
            long t0 = System.nanoTime();
            ProfileCodec.Decoded d = ProfileCodec.read(profileFile);
            long t1 = System.nanoTime();
            new ProfileData(id, d.profile(), d.tree());
            long t2 = System.nanoTime();
            new ProfileData(id, d.profile());
            long t3 = System.nanoTime();
            read[i] = (t1 - t0) / 1e6;
            stored[i] = (t2 - t1) / 1e6;
            built[i] = (t3 - t2) / 1e6;
        }
        java.util.Arrays.sort(read);
        java.util.Arrays.sort(stored);
        java.util.Arrays.sort(built);
        System.out.printf(Locale.ROOT, "load from disk (median of 3): profile %.0f ms + stored call tree %.0f ms; "
                + "building the tree instead %.0f ms%n", read[1], stored[1], built[1]);
    }

    /** Whether the converter runs in this round: PEER_RUNS rounds spread evenly (every round if there are fewer). */
    private static boolean peerRound(int round) {
        return PEER_RUNS >= ROUNDS || (long) round * PEER_RUNS % ROUNDS < PEER_RUNS;
    }

    /**
     * The CPU time the query helpers' threads ({@code Parallel}'s) have used so far, in nanoseconds: a view whose halves
     * ran at once (a diff's sides, a long range's pass) adds to it, one whose halves ran in turn on the request thread
     * does not, so the request thread's CPU time alone does not tell the two apart.
     */
    private static long helperCpu() {
        long sum = 0;
        for (java.lang.management.ThreadInfo t : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (t != null && t.getThreadName().equals("query-helper")) {
                sum += Math.max(0, THREADS.getThreadCpuTime(t.getThreadId()));
            }
        }
        return sum;
    }

    /** The collectors' pauses so far (G1's concurrent cycle counts its remark and cleanup pauses), in milliseconds. */
    private static long gcPauseMillis() {
        long sum = 0;
        for (java.lang.management.GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            sum += Math.max(0, gc.getCollectionTime());
        }
        return sum;
    }

    /**
     * Where a view's server time goes beyond the request thread's CPU: the p50s of its build and encode steps, of the
     * time the request thread did not run while it built (wall less CPU: waiting for a processor, for a helper, for a
     * collection), of the client's round trip beyond the server's steps (HTTP, the gate, reading the answer) and of the
     * same answer's round trip from the cache (HTTP alone: where the two match, what lies outside Server-Timing is the
     * answer's sending), and the collections' pauses within the views.
     */
    private static void steps(Map<String, List<QueryTimer.Answer>> ours, Map<String, List<Long>> paused,
                              Map<String, List<Double>> hits) {
        System.out.printf("%-9s %10s %10s %10s %16s %12s %12s %18s%n", "view", "build p50", "encode p50", "cpu p50",
                "not run p50/p90", "round trip+", "cached trip", "gc pauses");
        for (Map.Entry<String, List<QueryTimer.Answer>> e : ours.entrySet()) {
            List<QueryTimer.Answer> a = e.getValue();
            long[] gc = paused.get(e.getKey()).stream().mapToLong(Long::longValue).toArray();
            long withGc = java.util.Arrays.stream(gc).filter(ms -> ms > 0).count();
            double[] notRun = a.stream().mapToDouble(x -> x.millis() - x.cpuMillis()).sorted().toArray();
            double[] hit = hits.get(e.getKey()).stream().mapToDouble(Double::doubleValue).sorted().toArray();
            System.out.printf(Locale.ROOT, "%-9s %10.1f %10.1f %10.1f %10.1f/%5.1f %12.1f %12.1f %18s%n", e.getKey(),
                    median(a, QueryTimer.Answer::buildMillis), median(a, QueryTimer.Answer::encodeMillis),
                    median(a, QueryTimer.Answer::cpuMillis), notRun[notRun.length / 2], notRun[notRun.length * 9 / 10],
                    median(a, x -> x.clientMillis() - x.millis()), hit[hit.length / 2],
                    String.format(Locale.ROOT, "%d views, %d ms", withGc, java.util.Arrays.stream(gc).sum()));
        }
    }

    private static double median(List<QueryTimer.Answer> answers, java.util.function.ToDoubleFunction<QueryTimer.Answer> f) {
        double[] v = answers.stream().mapToDouble(f).sorted().toArray();
        return v[v.length / 2];
    }

    private static void report(Map<String, List<QueryTimer.Answer>> ours, Map<String, List<Double>> peer,
                               Map<String, List<Long>> allocated, Map<String, List<Long>> helped) {
        System.out.printf("%-9s %8s %10s %10s %12s %12s %14s %22s %10s %12s %16s%n", "view", "nodes", "p50 ms", "p99 ms", "cpu p50 ms",
                "cpu p99 ms", "peer p50 ms", "peer min-max ms (runs)", "peer/ours", "MB/query", "helped");
        for (Map.Entry<String, List<QueryTimer.Answer>> e : ours.entrySet()) {
            double[] p = QueryTimer.percentiles(e.getValue());
            List<Double> peerMs = peer.get(e.getKey());
            String peerText = "n/a";
            String peerRange = "";
            String ratio = "";
            if (peerMs != null) {
                double[] sorted = peerMs.stream().mapToDouble(Double::doubleValue).sorted().toArray();
                // of an even count, the mean of the middle two
                double median = OverheadBenchmark.median(sorted);
                peerText = String.format(Locale.ROOT, "%.0f", median);
                peerRange = String.format(Locale.ROOT, "%.0f-%.0f (%d)", sorted[0], sorted[sorted.length - 1], sorted.length);
                ratio = String.format(Locale.ROOT, "%.0fx", median / p[0]);
            }
            long[] bytes = allocated.get(e.getKey()).stream().mapToLong(Long::longValue).sorted().toArray();
            // views whose helpers worked a millisecond or more: their halves (or part of them) ran at once
            long[] helpers = helped.get(e.getKey()).stream().mapToLong(Long::longValue).filter(ns -> ns >= 1_000_000).sorted()
                    .toArray();
            System.out.printf(Locale.ROOT, "%-9s %8d %10.1f %10.1f %12.1f %12.1f %14s %22s %10s %12.1f %16s%n", e.getKey(),
                    QueryTimer.medianNodes(e.getValue()), p[0], p[1], p[2], p[3], peerText, peerRange, ratio, bytes[bytes.length / 2] / 1e6,
                    helpers.length + "/" + e.getValue().size() + (helpers.length > 0 ? String.format(Locale.ROOT, ", %.1f ms",
                            helpers[helpers.length / 2] / 1e6) : ""));
        }
        System.out.printf("(%d queries per view, each a view the server had not answered; peer: %d runs per view, in its "
                + "own JVM, their median (of an even count, the mean of the middle two); MB/query: the median of the bytes "
                + "this JVM allocated per query, server and client; helped: the views whose query helpers worked 1 ms or more, "
                + "their halves at once, and the median of the helpers' CPU time in those)%n", ROUNDS, Math.min(PEER_RUNS, ROUNDS));
    }

    /**
     * The kind the views show: cpu where the recording has cpu samples, else wall (a wall-clock-only recording),
     * else its first kind.
     */
    private static String mainKind(JsonNode rec) {
        JsonNode kinds = rec.path("kinds");
        return kinds.has("cpu") ? "cpu" : kinds.has("wall") ? "wall" : kinds.fieldNames().next();
    }

    /** Frame names of a small graph of the recording, for sandwich queries (the root, "[other]" and no-stack left out). */
    private static List<String> methods(JsonNode flame) {
        List<String> out = new ArrayList<>();
        flame.get("names").forEach(n -> {
            String s = n.asText();
            if (!s.startsWith("[") && !s.equals("all")) {
                out.add(s);
            }
        });
        return out;
    }

    /**
     * Searches for a recording the patterns were not written for: class names of its own frames (those of a small
     * graph, so each matches), alone, two as alternatives, and one with the start of a method name.
     */
    static List<String> searches(List<String> methods) {
        List<String> classes = new ArrayList<>();
        for (String m : methods) {
            int dot = m.lastIndexOf('.');
            String cls = dot > 0 ? m.substring(m.lastIndexOf('.', dot - 1) + 1, dot) : "";
            if (cls.matches("[A-Za-z][A-Za-z0-9_]{2,}") && !classes.contains(cls)) {
                classes.add(cls);
            }
        }
        Random r = new Random(7);
        java.util.Collections.shuffle(classes, r);
        if (classes.size() < 5) {
            throw new IllegalStateException("too few class names to search for: " + classes);
        }
        String withMethod = methods.stream().filter(m -> m.contains("." + classes.get(4) + ".")).findFirst()
                .map(m -> classes.get(4) + "\\." + m.substring(m.lastIndexOf('.') + 1, Math.min(m.length(),
                        m.lastIndexOf('.') + 4)).replaceAll("[^A-Za-z0-9_]", "") + ".*").orElse(classes.get(4));
        return List.of(classes.get(0), classes.get(1), classes.get(2) + "|" + classes.get(3), withMethod, "HashMap");
    }

    private static String load() {
        return String.format(Locale.ROOT, "%.2f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    static String q(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /**
     * The kind whose samples have the most thread states (wall before cpu on a tie: a wall-clock recording's states
     * are what users filter by), and those states; null when no kind has two.
     */
    private record StateChoice(String kind, List<String> states) {
        static StateChoice of(JsonNode rec) {
            StateChoice best = null;
            for (String kind : List.of("wall", "cpu")) {
                JsonNode k = rec.path("kinds").path(kind).path("states");
                List<String> names = new ArrayList<>();
                k.fieldNames().forEachRemaining(names::add);
                if (names.size() >= 2 && (best == null || names.size() > best.states().size())) {
                    best = new StateChoice(kind, names);
                }
            }
            return best;
        }

        /** A random non-empty subset of the states, not all of them. */
        List<String> pick(Random r) {
            List<String> out = new ArrayList<>();
            while (out.isEmpty() || out.size() == states.size()) {
                out.clear();
                for (String s : states) {
                    if (r.nextBoolean()) {
                        out.add(s);
                    }
                }
            }
            return out;
        }
    }

    /** Random views of the two recordings (b null: no diff; states null: no states view). */
    private record Views(String a, String b, String kind, long duration, List<Integer> threads, List<String> methods,
                         List<String> searches, StateChoice states) {
        record Query(String path, String[] peerArgs) {
        }

        /** The converter's arguments for the range and the views' kind (its default is cpu). */
        String[] peer(long from, long to, String... more) {
            List<String> args = new ArrayList<>(List.of(more));
            if (!kind.equals("cpu")) {
                args.add("--" + kind);
            }
            return ConverterPeer.range(from, to, args.toArray(String[]::new));
        }

        Query query(String view, Random r) {
            long length = 1000 + (long) (r.nextDouble() * (duration - 1000));
            long from = (long) (r.nextDouble() * (duration - length));
            long to = from + length;
            String flame = "/api/recordings/" + a + "/flame?kind=" + kind + "&format=binary&from=" + from + "&to=" + to;
            return switch (view) {
                case "range" -> new Query(flame, peer(from, to));
                case "threads" -> {
                    StringBuilder ids = new StringBuilder();
                    for (int i = 0, n = 1 + r.nextInt(8); i < n; i++) {
                        ids.append(i == 0 ? "" : ",").append(threads.get(r.nextInt(threads.size())));
                    }
                    // the converter has no thread filter: its graph of the range stands in
                    yield new Query(flame + "&threads=" + ids, peer(from, to));
                }
                case "states" -> {
                    List<String> picked = states.pick(r);
                    // the converter takes the names without their STATE_ prefix and filters its samples alike
                    String peerStates = String.join(",", picked.stream().map(x -> x.startsWith("STATE_") ? x.substring(6) : x).toList());
                    yield new Query("/api/recordings/" + a + "/flame?kind=" + states.kind() + "&format=binary&from=" + from
                            + "&to=" + to + "&states=" + q(String.join(",", picked)),
                            ConverterPeer.range(from, to, "--" + states.kind(), "--state", peerStates));
                }
                case "search" -> {
                    String s = searches.get(r.nextInt(searches.size()));
                    yield new Query(flame + "&search=" + q(s), peer(from, to, "--include", ".*(" + s + ").*"));
                }
                case "inverted" -> new Query(flame + "&invert=true", peer(from, to, "--reverse"));
                case "sandwich" -> new Query("/api/recordings/" + a + "/sandwich?kind=" + kind + "&format=binary&from=" + from + "&to=" + to
                        + "&method=" + q(methods.get(r.nextInt(methods.size()))), null);
                case "diff" -> new Query("/api/diff?kind=" + kind + "&format=binary&base=" + a + "&target=" + b + "&baseFrom=" + from
                        + "&baseTo=" + to + "&targetFrom=" + from + "&targetTo=" + to, peer(from, to));
                default -> throw new IllegalArgumentException(view);
            };
        }
    }
}
