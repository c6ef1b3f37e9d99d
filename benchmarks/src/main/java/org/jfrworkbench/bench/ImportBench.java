package org.jfrworkbench.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

import one.jfr.JfrReader;
import one.jfr.MethodRef;
import one.jfr.StackTrace;
import one.jfr.event.Event;

import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.testkit.Recordings;

/**
 * Reads >= 50 MB multi-chunk async-profiler recordings (by default two: copies of one short recording end to end, and
 * one long recording of a varied workload whose chunks are not copies; or the files given as arguments) with (a) our importer, (b) the JDK's RecordingFile touching
 * every stack trace and (c) async-profiler's JfrReader resolving every sample's stack, and prints median times,
 * ratios and heap figures. The times come from one JVM that runs the three readers in turn, round after round, so
 * each ratio compares reads made moments apart (the machine is shared); the heap figures from a JVM per reader.
 * Run on demand ({@code benchmarks/run.sh ImportBench [a.jfr b.jfr]}), not part of the tests.
 */
public final class ImportBench {
    private static final List<String> READERS = List.of("workbench", "RecordingFile", "JfrReader");
    private static final int WARMUP = 2;
    private static final int ITERATIONS = 7;
    private static final long TARGET_BYTES = 50L << 20;

    private ImportBench() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 3 && args[0].equals("child")) {
            if (args[1].equals("paired")) {
                paired(Path.of(args[2]));
            } else {
                child(args[1], Path.of(args[2]));
            }
            return;
        }
        List<Path> inputs = new ArrayList<>();
        for (String a : args) {
            inputs.add(Path.of(a));
        }
        if (inputs.isEmpty()) {
            inputs.add(makeInput());
            inputs.add(makeRealisticInput());
        }
        for (Path input : inputs) {
            System.out.printf("input: %s (%.1f MB)%n", input, Files.size(input) / 1048576.0);
            runChild("paired", input, "-Xmx2g", true).forEach(System.out::println);
            System.out.println();
            for (String reader : READERS) {
                List<String> out = runChild(reader, input, "-Xmx2g", true);
                System.out.printf("%-14s peak heap used %6.1f MB (-Xmx2g), smallest -Xmx of 16m/32m/64m/96m/128m/256m/"
                        + "512m/1g that completes: %s   (%s)%n", reader, parse(out)[1], smallestHeap(reader, input),
                        out.get(out.size() - 1));
            }
            System.out.println();
        }
    }

    /** A varied workload recorded by async-profiler with a chunk every 5 s until >= 50 MB (about 45 s, 9 chunks). */
    private static Path makeRealisticInput() throws Exception {
        Path p = Recordings.variedAsyncProfiler(TARGET_BYTES);
        if (p == null) {
            throw new IOException("no JDK 25 to record the benchmark input; pass a .jfr file as the argument");
        }
        if (Files.size(p) < TARGET_BYTES) {
            System.out.printf("note: %s is only %.1f MB (5 minutes were not enough)%n", p, Files.size(p) / 1048576.0);
        }
        return p;
    }

    /**
     * Times the readers in turn in this JVM, round after round; prints medians and the medians of the per-round
     * ratios, of wall time and of the CPU time the whole JVM used meanwhile (GC and JIT threads included), which a
     * busy machine disturbs far less than wall time.
     */
    private static void paired(Path input) throws IOException {
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        for (int i = 0; i < WARMUP; i++) {
            for (String reader : READERS) {
                read(reader, input);
            }
        }
        Map<String, double[]> wall = new LinkedHashMap<>();
        Map<String, double[]> cpu = new LinkedHashMap<>();
        READERS.forEach(r -> {
            wall.put(r, new double[ITERATIONS]);
            cpu.put(r, new double[ITERATIONS]);
        });
        for (int i = 0; i < ITERATIONS; i++) {
            for (String reader : READERS) {
                long c0 = os.getProcessCpuTime();
                long t0 = System.nanoTime();
                read(reader, input);
                wall.get(reader)[i] = (System.nanoTime() - t0) / 1e6;
                cpu.get(reader)[i] = (os.getProcessCpuTime() - c0) / 1e6;
            }
        }
        double mb = Files.size(input) / 1048576.0;
        for (String reader : READERS) {
            double w = median(wall.get(reader).clone());
            System.out.printf("%-14s wall median %8.1f ms (min %.1f)   %7.1f MB/s   cpu median %8.1f ms%n", reader, w,
                    Arrays.stream(wall.get(reader)).min().orElse(0), mb / (w / 1000), median(cpu.get(reader).clone()));
        }
        for (String peer : List.of("RecordingFile", "JfrReader")) {
            System.out.printf("workbench speed vs %s: wall %.2fx, cpu %.2fx (medians of %d rounds' ratios; above 1 = "
                    + "workbench faster)%n", peer, medianRatio(wall, peer), medianRatio(cpu, peer), ITERATIONS);
        }
    }

    private static double medianRatio(Map<String, double[]> times, String peer) {
        double[] r = new double[ITERATIONS];
        for (int i = 0; i < ITERATIONS; i++) {
            r[i] = times.get(peer)[i] / times.get("workbench")[i];
        }
        return median(r);
    }

    private static double median(double[] values) {
        Arrays.sort(values);
        return values[values.length / 2];
    }

    /** A few MB (10 s) from async-profiler (all engines), copied end to end until >= 50 MB: a valid multi-chunk file. */
    private static Path makeInput() throws Exception {
        Path one = Recordings.asyncProfiler("25", "bench-source-10s",
                "event=cpu,interval=1ms,alloc=16k,live,lock=0,wall=1ms", 10_000);
        if (one == null) {
            throw new IOException("no JDK 25 to record the benchmark input; pass a .jfr file as the argument");
        }
        Path big = Recordings.DIR.resolve("bench-50mb.jfr");
        long copies = Math.max(1, (TARGET_BYTES + Files.size(one) - 1) / Files.size(one));
        if (!Files.exists(big) || Files.size(big) != copies * Files.size(one)) {
            Path[] parts = new Path[(int) copies];
            Arrays.fill(parts, one);
            Recordings.concatenate(big, parts);
        }
        return big;
    }

    private static String smallestHeap(String reader, Path input) throws Exception {
        for (String xmx : List.of("16m", "32m", "64m", "96m", "128m", "256m", "512m", "1g")) {
            if (!runChild(reader, input, "-Xmx" + xmx, false).isEmpty()) {
                return "-Xmx" + xmx;
            }
        }
        return "more than -Xmx1g";
    }

    /** Runs one reader in a fresh JVM; the output lines, or an empty list when it failed (e.g. out of memory). */
    private static List<String> runChild(String reader, Path input, String xmx, boolean timed) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                xmx, "-XX:+UseG1GC", "-cp", classPath(), "-Dbench.timed=" + timed, ImportBench.class.getName(),
                "child", reader, input.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) {
            if (timed) {
                throw new IOException(reader + " failed: " + new String(out));
            }
            return List.of();
        }
        return new String(out).lines().toList();
    }

    private static String classPath() throws URISyntaxException {
        List<String> parts = new ArrayList<>();
        for (Class<?> c : List.of(ImportBench.class, Importer.class, JfrReader.class, Recordings.class)) {
            String p = Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
            if (!parts.contains(p)) {
                parts.add(p);
            }
        }
        return String.join(java.io.File.pathSeparator, parts);
    }

    private static double[] parse(List<String> lines) {
        for (String line : lines) {
            if (line.startsWith("RESULT ")) {
                String[] f = line.split(" ");
                return new double[] {Double.parseDouble(f[1]), Double.parseDouble(f[2])};
            }
        }
        throw new IllegalStateException("no result in " + lines);
    }

    private static void child(String reader, Path input) throws Exception {
        boolean timed = Boolean.getBoolean("bench.timed");
        if (!timed) {
            System.out.println(read(reader, input));
            return;
        }
        for (int i = 0; i < WARMUP; i++) {
            read(reader, input);
        }
        System.gc();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            pool.resetPeakUsage();
        }
        double[] times = new double[ITERATIONS];
        String what = "";
        for (int i = 0; i < ITERATIONS; i++) {
            long t0 = System.nanoTime();
            what = read(reader, input);
            times[i] = (System.nanoTime() - t0) / 1e6;
        }
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        Arrays.sort(times);
        System.out.println("RESULT " + times[ITERATIONS / 2] + " " + peak / 1048576.0);
        System.out.println(what);
    }

    /** Reads the whole file; returns a line describing what was read, so no reader's work can be skipped. */
    private static String read(String reader, Path input) throws IOException {
        switch (reader) {
            case "workbench": {
                Profile p = new Importer().read(input);
                long samples = 0;
                for (Kind k : Kind.values()) {
                    samples += p.samples(k).size();
                }
                long events = p.sourceEvents().values().stream().mapToLong(Long::longValue).sum();
                return events + " events, " + samples + " samples, " + p.stacks().size() + " distinct stacks";
            }
            case "RecordingFile": {
                long events = 0;
                long frames = 0;
                try (RecordingFile rf = new RecordingFile(input)) {
                    while (rf.hasMoreEvents()) {
                        RecordedEvent e = rf.readEvent();
                        events++;
                        RecordedStackTrace st = e.getStackTrace();
                        if (st != null) {
                            for (RecordedFrame f : st.getFrames()) {
                                frames += f.getMethod().getName().length() > 0 ? 1 : 0;
                            }
                        }
                    }
                }
                return events + " events, " + frames + " frames";
            }
            case "JfrReader": {
                long events = 0;
                long frames = 0;
                try (JfrReader r = new JfrReader(input.toString())) {
                    for (Event e; (e = r.readEvent()) != null; ) {
                        events++;
                        StackTrace st = r.stackTraces.get(e.stackTraceId);
                        if (st != null) {
                            for (long m : st.methods) {
                                MethodRef ref = r.methods.get(m);
                                frames += ref != null ? 1 : 0;
                            }
                        }
                    }
                }
                return events + " samples, " + frames + " frames";
            }
            default:
                throw new IllegalArgumentException("unknown reader " + reader);
        }
    }
}
