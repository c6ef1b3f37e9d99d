package org.jfrworkbench.bench;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;

import com.fasterxml.jackson.databind.ObjectMapper;
import one.convert.Arguments;
import one.convert.FlameGraph;
import org.jfrworkbench.analysis.DiffQuery;
import org.jfrworkbench.analysis.FlameGraphQuery;
import org.jfrworkbench.analysis.ProfileData;
import org.jfrworkbench.analysis.SampleFilter;
import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.model.FrameNaming;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.server.library.RecordingLibrary;

/**
 * Server speed on a 1 M-sample recording (run on demand, not a test:
 * {@code JAVA_OPTS=-Xmx4g benchmarks/run.sh ServerBenchmark [samples] [recordings]}): import time, warm flame-graph
 * query p50/p99 (query + JSON), diff p50, and method search over 200+ recordings.
 * Peer: async-profiler's converter turning the same collapsed stacks into its HTML flame graph
 * ({@code one.convert.FlameGraph}), which is what one does per view without a server.
 */
public final class ServerBenchmark {
    private static final ObjectMapper JSON = new ObjectMapper();

    public static void main(String[] args) throws Exception {
        int samples = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int recordings = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        Path work = Files.createTempDirectory("workbench-bench");
        Path a = work.resolve("a.collapsed");
        Path b = work.resolve("b.collapsed");
        generate(a, samples, 1, 0.0);
        generate(b, samples, 1, 0.05);
        System.out.printf("input: %d samples per recording, %.1f MB collapsed text%n", samples, Files.size(a) / 1e6);

        long tp = System.nanoTime();
        int parsed = new Importer().read(a).samples(Kind.CPU).size();
        System.out.printf("importer alone (collapsed text -> model, %d samples): %.0f ms%n", parsed, (System.nanoTime() - tp) / 1e6);
        try (RecordingLibrary library = RecordingLibrary.open(work.resolve("data"), new Importer(), Long.MAX_VALUE)) {
            long t0 = System.nanoTime();
            String idA = library.importFile(a, "a", Map.of(), Kind.CPU).info().id();
            double importMs = (System.nanoTime() - t0) / 1e6;
            String idB = library.importFile(b, "b", Map.of(), Kind.CPU).info().id();
            System.out.printf("import (parse + profile file + fsync + index + commit): %.0f ms%n", importMs);

            ProfileData pa = library.load(idA);
            ProfileData pb = library.load(idB);
            FlameGraphQuery flame = new FlameGraphQuery(Kind.CPU);
            double[] flameMs = time(60, 200, () -> JSON.writeValueAsBytes(flame.run(pa)).length);
            int bytes = JSON.writeValueAsBytes(flame.run(pa)).length;
            System.out.printf("flame query + JSON (%d nodes, %.1f MB): p50 %.1f ms, p99 %.1f ms%n",
                    flame.run(pa).nodes().name().length, bytes / 1e6, flameMs[0], flameMs[1]);
            FlameGraphQuery filtered = new FlameGraphQuery(Kind.CPU, SampleFilter.ALL, "Leaf1[0-9]\\.", true,
                    FrameNaming.DEFAULT, 1.0);
            double[] searchFlameMs = time(30, 100, () -> JSON.writeValueAsBytes(filtered.run(pa)).length);
            System.out.printf("inverted flame with regex search: p50 %.1f ms, p99 %.1f ms%n", searchFlameMs[0], searchFlameMs[1]);
            DiffQuery diff = new DiffQuery(Kind.CPU, FrameNaming.DEFAULT);
            double[] diffMs = time(20, 100, () -> JSON.writeValueAsBytes(diff.run(pa, pb)).length);
            System.out.printf("diff + JSON: p50 %.1f ms, p99 %.1f ms%n", diffMs[0], diffMs[1]);

            double[] peerMs = time(3, 10, () -> {
                FlameGraph fg = new FlameGraph(new Arguments());
                try (Reader r = Files.newBufferedReader(a, StandardCharsets.UTF_8)) {
                    fg.parseCollapsed(r);
                }
                fg.dump(new PrintStream(OutputStream.nullOutputStream()));
                return 1;
            });
            System.out.printf("peer async-profiler FlameGraph (collapsed -> HTML): p50 %.0f ms -> ours is %.1fx faster per view%n",
                    peerMs[0], peerMs[0] / flameMs[0]);

            Path small = work.resolve("small.collapsed");
            long importNanos = 0;
            for (int i = 0; i < recordings; i++) {
                generate(small, 5_000, 100 + i, 0.0);
                long t1 = System.nanoTime();
                library.importFile(small, "r" + i, Map.of("batch", String.valueOf(i % 10)), Kind.CPU);
                importNanos += System.nanoTime() - t1;
            }
            System.out.printf("imported %d more recordings of 5k samples: %.0f ms each%n", recordings,
                    importNanos / 1e6 / recordings);
            String[] queries = {"HashMap.resize", "resize", "com.bench.pkg3.Service12.handle", "Leaf7", "Service*"};
            double[] searchMs = time(50, 300, () -> library.searchMethods(
                    queries[(int) (System.nanoTime() % queries.length)], "cpu", 50).total());
            long hits = library.searchMethods("HashMap.resize", "cpu", 50).total();
            double[] listMs = time(50, 300, () -> library.list("batch:3", 0, 50).total());
            System.out.printf("method search over %d recordings (%d hits for HashMap.resize): p50 %.2f ms, p99 %.2f ms%n",
                    library.size(), hits, searchMs[0], searchMs[1]);
            System.out.printf("recording list with facets (q=batch:3): p50 %.2f ms, p99 %.2f ms%n", listMs[0], listMs[1]);
        }
    }

    /**
     * Collapsed stacks over a synthetic code base shaped like a real one: 20,000 distinct call paths, each extending
     * a prefix of an earlier path (so paths share their callers), drawn from 3,000 methods, skewed to a hot set.
     */
    static void generate(Path file, int samples, long seed, double extraResize) throws IOException {
        Random shape = new Random(7);
        String[] methods = new String[3000];
        for (int m = 0; m < methods.length; m++) {
            methods[m] = "com.bench.pkg" + (m % 20) + ".Service" + (m % 150) + (m % 3 == 0 ? ".handle" : m % 3 == 1 ? ".compute" : ".load") + m;
        }
        int paths = 20_000;
        int[][] frames = new int[paths][];
        frames[0] = new int[] {0, 1};
        for (int p = 1; p < paths; p++) {
            int[] parent = frames[shape.nextInt(p)];
            int keep = Math.max(2, Math.min(parent.length, 2 + shape.nextInt(parent.length)));
            int add = 1 + shape.nextInt(4);
            if (keep + add > 64) {
                keep = 64 - add;
            }
            int[] f = Arrays.copyOf(parent, keep + add);
            for (int i = keep; i < f.length; i++) {
                f[i] = 2 + shape.nextInt(methods.length - 2);
            }
            frames[p] = f;
        }
        String[] stacks = new String[paths];
        for (int p = 0; p < paths; p++) {
            StringBuilder sb = new StringBuilder("java.lang.Thread.run;java.util.concurrent.ThreadPoolExecutor.runWorker");
            for (int m : frames[p]) {
                sb.append(';').append(methods[m]);
            }
            sb.append(p % 9 == 0 ? ";java.util.HashMap.resize" : ";com.bench.Leaf" + (p % 400) + ".spin");
            stacks[p] = sb.toString();
        }
        Random r = new Random(seed);
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (int i = 0; i < samples; i++) {
                // skewed towards a hot set of paths, like real profiles
                int p = (int) Math.min(paths - 1, Math.abs(r.nextGaussian()) * paths / 4);
                String s = stacks[p];
                if (extraResize > 0 && r.nextDouble() < extraResize) {
                    s = stacks[9];
                }
                w.write(s);
                w.write(" 1\n");
            }
        }
    }

    /** Runs warmup + measured rounds and returns {p50, p99} in milliseconds. */
    static double[] time(int warmup, int rounds, ThrowingLong body) throws Exception {
        long sink = 0;
        for (int i = 0; i < warmup; i++) {
            sink += body.get();
        }
        double[] ms = new double[rounds];
        for (int i = 0; i < rounds; i++) {
            long t = System.nanoTime();
            sink += body.get();
            ms[i] = (System.nanoTime() - t) / 1e6;
        }
        Arrays.sort(ms);
        if (sink == 42) {
            System.out.print("");
        }
        return new double[] {ms[rounds / 2], ms[Math.min(rounds - 1, (int) Math.ceil(rounds * 0.99) - 1)]};
    }

    interface ThrowingLong {
        long get() throws Exception;
    }
}
