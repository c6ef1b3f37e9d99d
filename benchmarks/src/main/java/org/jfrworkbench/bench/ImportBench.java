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

import org.jfrworkbench.bench.inputs.BenchInputs;
import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;

/**
 * Reads each benchmark input ({@link BenchInputs}: all of them, the named ones, or the files given) with (a) our
 * importer, building the whole model, (b) async-profiler's JfrReader resolving every sample's stack and every
 * frame's method, and (c) the JDK's RecordingFile touching every stack frame, and prints per input the ratios of
 * wall and CPU time and the heap each needs. Every reader reads every event of the same file.
 *
 * <p>The times come from one JVM per input that runs the readers in turn, round after round, so each ratio compares
 * reads made moments apart (the machine is shared): the medians of the per-round ratios of wall time and of the CPU
 * time the whole JVM used meanwhile (GC, JIT and our decoder thread included). The heap figures come from a JVM per
 * reader: the peak heap used with a large -Xmx, and the smallest -Xmx (in steps of about 1.4x) that completes a read.
 *
 * <p>With {@code -Dbench.vs=DIR} it compares two builds of the importer instead: this one and the one whose classes
 * are in DIR (a classes directory or jar of another checkout, loaded by {@link OtherBuild}), reading in turn in one JVM
 * as above (21 rounds unless told), and prints the medians and quartiles of the per-round ratios of this build to
 * that one, of wall time and of the importing thread's CPU time; no heap runs.
 *
 * <p>Run on demand: {@code benchmarks/run.sh ImportBench [NAME|FILE...]}. Options: {@code -Dbench.rounds=7},
 * {@code -Dbench.warmup=2} (rounds at least; as many as it takes to read 100 MB, at most 30), {@code -Dbench.xmx=3g} and {@code -Dbench.xms=} (of the timing JVM), {@code -Dbench.heap=false} (no heap runs),
 * {@code -Dbench.recordingFile=false} (leave the JDK's parser out: it is ten times slower than the others).
 */
public final class ImportBench {
    private static final String WORKBENCH = "workbench";
    private static final String JFR_READER = "JfrReader";
    private static final String RECORDING_FILE = "RecordingFile";
    /** The other build of {@code -Dbench.vs}. */
    private static final String BASE = "base";
    private static OtherBuild other;
    private static final int WARMUP = Integer.getInteger("bench.warmup", 2);
    private static final String VS = System.getProperty("bench.vs");
    private static final int ROUNDS = Integer.getInteger("bench.rounds", VS != null ? 21 : 7);
    private static final String XMX = System.getProperty("bench.xmx", "3g");
    /**
     * -Dbench.xms=SIZE: the timing JVM's initial heap (none by default). The System.gc() before each read lets G1
     * shrink the heap to a few MB, so a small file's read then runs many young collections that a server, whose heap
     * has grown with its work, does not; the same for every reader.
     */
    private static final String XMS = System.getProperty("bench.xms");
    /** Heaps tried for the smallest -Xmx, in MB: steps of about 1.4x. */
    private static final int[] HEAPS = {16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048, 3072,
        4096};

    private ImportBench() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length >= 3 && args[0].equals("child")) {
            if (args[1].equals("paired")) {
                paired(Path.of(args[2]), List.of(args).subList(3, args.length));
            } else {
                System.out.println(readMeasuringHeap(args[1], Path.of(args[2])));
            }
            return;
        }
        if (VS != null) {
            versus(args.length > 0 ? List.of(args) : BenchInputs.names());
            return;
        }
        List<String> readers = new ArrayList<>(List.of(WORKBENCH, JFR_READER));
        if (!"false".equals(System.getProperty("bench.recordingFile"))) {
            readers.add(RECORDING_FILE);
        }
        boolean heap = !"false".equals(System.getProperty("bench.heap"));
        List<String> names = args.length > 0 ? List.of(args) : BenchInputs.names();
        List<String> table = new ArrayList<>();
        for (String name : names) {
            Path file = input(name);
            List<String> out = runChild(timingJvm(), "paired", file, readers);
            out.forEach(System.out::println);
            Map<String, double[]> times = results(out);
            String heaps = "";
            if (heap) {
                StringBuilder h = new StringBuilder();
                for (String reader : readers) {
                    double peak = results(runChild(List.of("-Xmx" + XMX), reader, file, List.of())).get("PEAK")[0];
                    String smallest = smallestHeap(reader, file);
                    System.out.printf("%-14s peak heap used %7.1f MB (-Xmx%s), smallest -Xmx that completes: %s%n",
                            reader, peak, XMX, smallest);
                    h.append(String.format(" | %.0f MB / %s", peak, smallest));
                }
                heaps = h.toString();
            }
            System.out.println("load: " + load());
            System.out.println();
            table.add(String.format("| %s | %.0f / %.0f ms | %.0f / %.0f ms | **%.2fx** / %.2fx | %s%s |", name,
                    times.get(WORKBENCH)[0], times.get(WORKBENCH)[1], times.get(JFR_READER)[0], times.get(JFR_READER)[1],
                    times.get("RATIO " + JFR_READER)[0], times.get("RATIO " + JFR_READER)[1],
                    times.containsKey("RATIO " + RECORDING_FILE)
                            ? String.format("%.1fx / %.1fx", times.get("RATIO " + RECORDING_FILE)[0],
                            times.get("RATIO " + RECORDING_FILE)[1]) : "-", heaps));
        }
        System.out.println("| input | workbench wall / CPU | JfrReader wall / CPU | vs JfrReader wall / CPU "
                + "| vs RecordingFile wall / CPU |" + (heap ? String.join(" |", readers.stream()
                .map(r -> " " + r + " peak / smallest -Xmx").toList()) + " |" : ""));
        table.forEach(System.out::println);
    }

    /** The file of a benchmark input (made if missing) or the file named; prints what it holds and the load. */
    private static Path input(String name) throws Exception {
        Path file = Files.isRegularFile(Path.of(name)) ? Path.of(name) : null;
        String facts;
        if (file == null) {
            BenchInputs.Facts f = BenchInputs.facts(name);
            file = f.file();
            facts = String.format("%s: %s, %.1f MB, %d chunk%s, %,d samples (%s), %,d distinct stacks", name,
                    f.description(), f.bytes() / 1048576.0, f.chunks(), f.chunks() == 1 ? "" : "s", f.samples(),
                    f.kinds(), f.distinctStacks());
        } else {
            facts = String.format("%s: %.1f MB", file, Files.size(file) / 1048576.0);
        }
        System.out.println("input " + facts);
        System.out.println("load: " + load());
        return file;
    }

    /** -Dbench.vs: this build's importer against the other build's, in turn in one JVM per input. */
    private static void versus(List<String> names) throws Exception {
        new OtherBuild(Path.of(VS));
        List<String> table = new ArrayList<>();
        for (String name : names) {
            Path file = input(name);
            List<String> out = runChild(timingJvm(), "paired", file, List.of(WORKBENCH, BASE));
            out.forEach(System.out::println);
            Map<String, double[]> times = results(out);
            double[] r = times.get("RATIO " + BASE);
            System.out.println("load: " + load());
            System.out.println();
            table.add(String.format("| %s | %.0f / %.0f ms | %.0f / %.0f ms | **%.2fx** (%.2f-%.2f) / %.2fx (%.2f-%.2f) |",
                    name, times.get(WORKBENCH)[0], times.get(WORKBENCH)[1], times.get(BASE)[0], times.get(BASE)[1],
                    r[0], r[2], r[3], r[1], r[4], r[5]));
        }
        System.out.println("| input | this build wall / thread CPU | " + VS + " wall / thread CPU | this vs that wall / CPU "
                + "(medians of the rounds' ratios, quartiles) |");
        table.forEach(System.out::println);
    }

    private static String load() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return String.format("%.2f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        }
    }

    /** The RESULT lines of a child: the name after RESULT, then numbers. */
    private static Map<String, double[]> results(List<String> lines) {
        Map<String, double[]> r = new LinkedHashMap<>();
        for (String line : lines) {
            if (line.startsWith("RESULT ")) {
                String[] f = line.substring(7).split(" ");
                int numbers = 0;
                while (numbers < f.length && isNumber(f[f.length - 1 - numbers])) {
                    numbers++;
                }
                String key = String.join(" ", Arrays.asList(f).subList(0, f.length - numbers));
                r.put(key, Arrays.stream(f, f.length - numbers, f.length).mapToDouble(Double::parseDouble).toArray());
            }
        }
        return r;
    }

    private static boolean isNumber(String s) {
        try {
            Double.parseDouble(s);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /**
     * Times the readers in turn in this JVM, round after round, in an order that changes every round; prints medians
     * and the medians of the per-round ratios, of wall time and of the CPU time the whole JVM used meanwhile.
     */
    private static void paired(Path input, List<String> readers) throws IOException {
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        // small files get more warm-up rounds: every reader has its code compiled before the timed rounds
        long warmup = Math.max(WARMUP, Math.min(30, (100L << 20) / Math.max(1, Files.size(input))));
        for (int i = 0; i < warmup; i++) {
            for (String reader : readers) {
                read(reader, input);
            }
        }
        Map<String, double[]> wall = new LinkedHashMap<>();
        Map<String, double[]> cpu = new LinkedHashMap<>();
        Map<String, double[]> allocated = new LinkedHashMap<>();
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Map<String, String> what = new LinkedHashMap<>();
        readers.forEach(r -> {
            wall.put(r, new double[ROUNDS]);
            cpu.put(r, new double[ROUNDS]);
            allocated.put(r, new double[ROUNDS]);
        });
        for (int i = 0; i < ROUNDS; i++) {
            for (int j = 0; j < readers.size(); j++) {
                String reader = readers.get((i + j) % readers.size());
                System.gc();
                long a0 = threads.getCurrentThreadAllocatedBytes();
                long c0 = cpuTime(os);
                long t0 = System.nanoTime();
                what.put(reader, read(reader, input));
                wall.get(reader)[i] = (System.nanoTime() - t0) / 1e6;
                cpu.get(reader)[i] = (cpuTime(os) - c0) / 1e6;
                allocated.get(reader)[i] = (threads.getCurrentThreadAllocatedBytes() - a0) / 1048576.0;
            }
        }
        double mb = Files.size(input) / 1048576.0;
        for (String reader : readers) {
            double w = median(wall.get(reader));
            double c = median(cpu.get(reader));
            System.out.printf("%-14s wall median %8.1f ms (min %.1f)  %6.1f MB/s   cpu median %8.1f ms   allocated %.1f MB"
                    + "   read: %s%n", reader, w, Arrays.stream(wall.get(reader)).min().orElse(0), mb / (w / 1000), c,
                    median(allocated.get(reader)), what.get(reader));
            System.out.printf("RESULT %s %.1f %.1f%n", reader, w, c);
        }
        for (String peer : readers.subList(1, readers.size())) {
            double[] w = ratios(wall, peer);
            double[] c = ratios(cpu, peer);
            System.out.printf("workbench vs %s: wall %.2fx (quartiles %.2f-%.2f), cpu %.2fx (%.2f-%.2f) (per-round "
                    + "ratios of %d rounds; above 1 = workbench faster)%n", peer, median(w), quantile(w, 0.25),
                    quantile(w, 0.75), median(c), quantile(c, 0.25), quantile(c, 0.75), ROUNDS);
            System.out.printf("RESULT RATIO %s %.3f %.3f %.3f %.3f %.3f %.3f%n", peer, median(w), median(c),
                    quantile(w, 0.25), quantile(w, 0.75), quantile(c, 0.25), quantile(c, 0.75));
            if (!what.get(peer).equals(what.get(WORKBENCH)) && peer.equals(BASE)) {
                System.out.println("WARNING: the two builds read different models: " + what.get(WORKBENCH) + " / "
                        + what.get(peer));
            }
        }
    }

    /**
     * The CPU time of the whole JVM (in steps of 10 ms on Linux); with -Dbench.vs that of the importing thread (to the
     * nanosecond: two builds differ by less than a step), which leaves out GC, JIT and the importer's decoder thread.
     */
    private static long cpuTime(com.sun.management.OperatingSystemMXBean os) {
        return VS != null ? ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() : os.getProcessCpuTime();
    }

    /** Each round's time of the peer divided by the workbench's. */
    private static double[] ratios(Map<String, double[]> times, String peer) {
        double[] r = new double[ROUNDS];
        for (int i = 0; i < ROUNDS; i++) {
            r[i] = times.get(peer)[i] / times.get(WORKBENCH)[i];
        }
        return r;
    }

    /** The q-quantile, interpolated between the nearest ranks. */
    private static double quantile(double[] values, double q) {
        double[] v = values.clone();
        Arrays.sort(v);
        double at = q * (v.length - 1);
        int lo = (int) Math.floor(at);
        int hi = Math.min(v.length - 1, lo + 1);
        return v[lo] + (v[hi] - v[lo]) * (at - lo);
    }

    private static double median(double[] values) {
        return quantile(values, 0.5);
    }

    /** The smallest -Xmx of {@link #HEAPS} with which one read completes: doubling up, then the steps between. */
    private static String smallestHeap(String reader, Path input) throws Exception {
        int fail = -1;
        int ok = -1;
        for (int i = 0; i < HEAPS.length; i = Math.min(HEAPS.length - 1, i + 2)) {
            if (completes(reader, input, HEAPS[i])) {
                ok = i;
                break;
            }
            fail = i;
            if (i == HEAPS.length - 1) {
                return "more than -Xmx" + HEAPS[i] + "m";
            }
        }
        for (int i = fail + 1; i < ok; i++) {
            if (completes(reader, input, HEAPS[i])) {
                return "-Xmx" + HEAPS[i] + "m";
            }
        }
        return "-Xmx" + HEAPS[ok] + "m";
    }

    private static List<String> timingJvm() {
        return XMS == null ? List.of("-Xmx" + XMX) : List.of("-Xmx" + XMX, "-Xms" + XMS);
    }

    private static boolean completes(String reader, Path input, int mb) throws Exception {
        return !runChild(List.of("-Xmx" + mb + "m"), reader, input, List.of()).isEmpty();
    }

    /**
     * Runs a child JVM of this class; its output lines, or an empty list when it failed (e.g. out of memory) and it
     * was one read of a heap search; a failed timing run throws.
     */
    private static List<String> runChild(List<String> jvm, String what, Path input, List<String> readers)
            throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvm);
        cmd.addAll(List.of("-XX:+UseG1GC", "-Dbench.warmup=" + WARMUP, "-Dbench.rounds=" + ROUNDS));
        if (VS != null) {
            cmd.add("-Dbench.vs=" + VS);
        }
        // the importer's own switches (-Dworkbench.importer.onlyWhenIdle=false ...) hold for the readers too
        for (String key : System.getProperties().stringPropertyNames()) {
            if (key.startsWith("workbench.importer.")) {
                cmd.add("-D" + key + "=" + System.getProperty(key));
            }
        }
        cmd.addAll(List.of("-cp", classPath(),
                ImportBench.class.getName(), "child", what, input.toString()));
        cmd.addAll(readers);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        boolean done = p.waitFor(60, TimeUnit.MINUTES);
        if (!done || p.exitValue() != 0) {
            if (!done) {
                p.destroyForcibly();
            }
            if (what.equals("paired") || jvm.get(0).equals("-Xmx" + XMX)) {
                throw new IOException(what + " failed: " + new String(out));
            }
            return List.of();
        }
        return new String(out).lines().toList();
    }

    private static String classPath() throws URISyntaxException {
        List<String> parts = new ArrayList<>();
        for (Class<?> c : List.of(ImportBench.class, Importer.class, JfrReader.class)) {
            String p = Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
            if (!parts.contains(p)) {
                parts.add(p);
            }
        }
        return String.join(java.io.File.pathSeparator, parts);
    }

    /** One read in this JVM: prints what was read and the peak heap used (after a GC before it). */
    private static String readMeasuringHeap(String reader, Path input) throws IOException {
        System.gc();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            pool.resetPeakUsage();
        }
        String what = read(reader, input);
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        return what + "\nRESULT PEAK " + peak / 1048576.0;
    }

    /** Reads the whole file; returns a line describing what was read, so no reader's work can be skipped. */
    static String read(String reader, Path input) throws IOException {
        switch (reader) {
            case WORKBENCH: {
                Profile p = new Importer().read(input);
                long samples = 0;
                for (Kind k : Kind.values()) {
                    samples += p.samples(k).size();
                }
                long events = p.sourceEvents().values().stream().mapToLong(Long::longValue).sum();
                return events + " events, " + samples + " samples, " + p.stacks().size() + " distinct stacks";
            }
            case RECORDING_FILE: {
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
            case BASE: {
                if (other == null) {
                    other = new OtherBuild(Path.of(VS));
                }
                return other.read(input);
            }
            case JFR_READER: {
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
