package org.jfrworkbench.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.jfrworkbench.analysis.LiveHeapQuery;
import org.jfrworkbench.analysis.ProfileData;
import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.model.GcEvent;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.testkit.process.ChildJvm;
import org.jfrworkbench.testkit.process.ClassHistogram;

/**
 * The live heap by class against the truth: a child JVM runs a retention workload ({@code HeapRetention}) with the
 * agent at its defaults; after a while the workload stops allocating, {@code jcmd GC.class_histogram} runs a full GC and
 * counts the heap exactly, the JVM exits (the agent closes its last chunk), and the agent's chunks, imported with the
 * workbench's importer, give the live estimate at that same GC. Prints per run every class holding at least
 * {@code bench.minShare} of the histogram or of the estimate: histogram bytes, estimate, error, live samples and
 * {@code ±1/sqrt(samples)}; then one summary line per run.
 *
 * <pre>benchmarks/run.sh HeapAccuracyBench [WORKLOAD...]</pre>
 *
 * WORKLOADs: {@code orders}, {@code cache}, {@code list} (default: all). System properties: {@code bench.jdks} (default
 * {@code 17,25}: JDK homes from {@code jdk17.home}/{@code jdk25.home} as the tests find them), {@code bench.gcs} (default
 * {@code G1,Parallel,Z}), {@code bench.seconds} (how long the workload runs before the histogram, default 25),
 * {@code bench.garbage} (MB/s, default 250), {@code bench.agent} (agent options added to {@code dir=}, default none:
 * the agent's defaults), {@code bench.heap} (-Xmx, default 1g), {@code bench.minShare} (default 0.05),
 * {@code bench.out} (where the chunks go, default {@code benchmarks/target/heap-accuracy}), {@code bench.reuse}
 * ({@code true}: no new runs; evaluates the chunks and histograms of the runs kept in {@code bench.out}, so that two
 * estimates are compared on the same recordings).
 */
public final class HeapAccuracyBench {
    private static final String WORKLOAD = "org.jfrworkbench.samples.HeapRetention";

    private HeapAccuracyBench() {
    }

    /** One run's figures for a class. */
    record Row(String className, long histogram, long estimate, long samples) {
        double error() {
            return histogram == 0 ? Double.NaN : (double) (estimate - histogram) / histogram;
        }

        double uncertainty() {
            return samples == 0 ? Double.NaN : 1 / Math.sqrt(samples);
        }
    }

    public static void main(String[] args) throws Exception {
        // run.sh runs from the repository root; ChildJvm's default is relative to a module
        System.setProperty("agent.jar", System.getProperty("agent.jar", "agent/target/workbench-agent.jar"));
        List<String> workloads = args.length > 0 ? List.of(args) : List.of("orders", "cache", "list");
        List<String> jdks = List.of(System.getProperty("bench.jdks", "17,25").split(","));
        List<String> gcs = List.of(System.getProperty("bench.gcs", "G1,Parallel,Z").split(","));
        long seconds = Long.parseLong(System.getProperty("bench.seconds", "25"));
        String garbage = System.getProperty("bench.garbage", "250");
        String agentOptions = System.getProperty("bench.agent", "");
        String heap = System.getProperty("bench.heap", "1g");
        double minShare = Double.parseDouble(System.getProperty("bench.minShare", "0.05"));
        Path out = Path.of(System.getProperty("bench.out", "benchmarks/target/heap-accuracy")).toAbsolutePath();
        boolean reuse = Boolean.getBoolean("bench.reuse");
        List<String> summary = new ArrayList<>();
        for (String workload : workloads) {
            for (String jdk : jdks) {
                for (String gc : gcs) {
                    String name = workload + "-jdk" + jdk + "-" + gc;
                    try {
                        Path dir = out.resolve(name);
                        if (reuse && !Files.exists(dir.resolve(HISTOGRAM))) {
                            continue;
                        }
                        if (!reuse) {
                            record(ChildJvm.jdk(jdk), gc, workload, garbage, seconds, agentOptions, heap, dir);
                        }
                        summary.add(evaluate(name, minShare, dir));
                    } catch (Exception | AssertionError e) {
                        summary.add(name + ": failed: " + e);
                        System.out.println(name + ": failed: " + e);
                    }
                }
            }
        }
        System.out.println();
        summary.forEach(System.out::println);
    }

    /** The file of a run's histogram: a line {@code bytes class} per class, the total and the CPU share first. */
    private static final String HISTOGRAM = "histogram.txt";

    /** Runs the workload with the agent, counts the heap at a full GC and keeps the chunks and the histogram in dir. */
    private static void record(ChildJvm jvm, String gc, String workload, String garbage, long seconds,
                               String agentOptions, String heap, Path dir) throws Exception {
        deleteTree(dir);
        Path chunks = dir.resolve("chunks");
        Files.createDirectories(chunks);
        String options = "dir=" + chunks + (agentOptions.isEmpty() ? "" : "," + agentOptions);
        Process child = jvm.launch(List.of("-Xmx" + heap, "-XX:+Use" + gc + "GC", ChildJvm.agent(options),
                "-cp", System.getProperty("java.class.path"), WORKLOAD, workload, garbage), null);
        Map<String, Long> histogram;
        long histogramTotal;
        double cpuShare;
        try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
             Writer control = new java.io.OutputStreamWriter(child.getOutputStream(), StandardCharsets.UTF_8)) {
            String pid = lineStarting(in, "READY ").substring(6).trim();
            long cpu0 = cpuNanos(child);
            long t0 = System.nanoTime();
            Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
            control.write("pause\n");
            control.flush();
            lineStarting(in, "PAUSED");
            cpuShare = (double) (cpuNanos(child) - cpu0) / (System.nanoTime() - t0);
            // a System.gc() first: on JDK 17 ZGC ignores the histogram's request for a GC (it walks the reachable
            // objects instead), so the System.gc() cycle is the GC the histogram matches there
            jcmd(jvm, pid, "GC.run");
            histogram = ClassHistogram.of(jvm.javaHome(), pid);
            histogramTotal = histogram.remove(ClassHistogram.TOTAL);
        } // closing stdin ends the workload; the agent writes its last chunk at exit
        if (!child.waitFor(ChildJvm.STUCK_SECONDS, TimeUnit.SECONDS)) {
            child.destroyForcibly();
            throw new IllegalStateException("the workload did not exit");
        }
        StringBuilder kept = new StringBuilder();
        kept.append(histogramTotal).append(' ').append(ClassHistogram.TOTAL).append('\n');
        kept.append(cpuShare).append(" <cpu>\n");
        histogram.forEach((cls, bytes) -> kept.append(bytes).append(' ').append(cls).append('\n'));
        Files.writeString(dir.resolve(HISTOGRAM), kept);
    }

    /** The live estimate at the histogram's GC from the run's chunks in dir, against the histogram kept there. */
    private static String evaluate(String name, double minShare, Path dir) throws Exception {
        Map<String, Long> histogram = new HashMap<>();
        double cpuShare = 0;
        for (String line : Files.readAllLines(dir.resolve(HISTOGRAM))) {
            int space = line.indexOf(' ');
            if (line.endsWith(" <cpu>")) {
                cpuShare = Double.parseDouble(line.substring(0, space));
            } else {
                histogram.put(line.substring(space + 1), Long.parseLong(line.substring(0, space)));
            }
        }
        long histogramTotal = histogram.remove(ClassHistogram.TOTAL);
        Path all = dir.resolve("all.jfr");
        int files = concatenate(dir.resolve("chunks"), all);
        Profile profile = new Importer().read(all);
        List<GcEvent> gcEvents = profile.heap().gcs();
        int at = -1;
        for (int i = 0; i < gcEvents.size(); i++) {
            String cause = gcEvents.get(i).cause();
            // the histogram's GC; on JDK 17 ZGC, which does not collect for it, jcmd GC.run's ("Diagnostic Command")
            if (benchmarkGc(cause)) {
                at = i;
            }
        }
        if (at < 0) {
            throw new IllegalStateException("no GC of the histogram among " + gcEvents.size() + " GCs");
        }
        LiveHeapQuery.LiveHeap live = LiveHeapQuery.at(new ProfileData(name, profile), at, false);
        // the GCs the JVM counted at: the benchmark's own (jcmd GC.run's and the histogram's) and the workload's
        Set<Long> benchmarkGcs = new java.util.HashSet<>();
        for (GcEvent g : gcEvents) {
            if (benchmarkGc(g.cause())) {
                benchmarkGcs.add(g.gcId());
            }
        }
        Set<Long> countedGcs = new java.util.TreeSet<>();
        profile.heap().classCounts().forEach(c -> countedGcs.add(c.gcId()));
        StringBuilder counted = new StringBuilder();
        for (GcEvent g : gcEvents) {
            if (countedGcs.contains(g.gcId())) {
                counted.append(counted.isEmpty() ? "" : ", ").append(g.gcId()).append(' ').append(g.name()).append(" (")
                        .append(g.cause()).append(')');
            }
        }
        // a G1 concurrent cycle's count, at its remark, is under the cycle's id, which no collection of the timeline has
        Set<Long> collections = new java.util.HashSet<>();
        gcEvents.forEach(g -> collections.add(g.gcId()));
        Set<Long> remarks = new java.util.TreeSet<>(countedGcs);
        remarks.removeAll(collections);
        for (long remark : remarks) {
            counted.append(counted.isEmpty() ? "" : ", ").append(remark).append(" (a concurrent cycle's remark)");
        }
        System.out.printf(Locale.ROOT, "%n%s: GCs counted by the JVM: %s%n", name, counted.isEmpty() ? "none" : counted);
        String line = compare(name, live, histogram, histogramTotal, minShare, files, gcEvents, at, cpuShare);
        if (countedGcs.stream().anyMatch(benchmarkGcs::contains)) {
            // the same GC without the JVM's counts at the benchmark's own GCs (jcmd GC.run's too, just before it, whose
            // count the histogram's GC would carry): what a GC that is not counted (a young one) gets from the samples
            // and from what earlier chunks and the workload's own counted GCs and remarks carry
            profile.heap().classCounts().removeIf(c -> benchmarkGcs.contains(c.gcId()));
            LiveHeapQuery.LiveHeap uncounted = LiveHeapQuery.at(new ProfileData(name, profile), at, false);
            line += "\n" + compare(name + " uncounted", uncounted, histogram, histogramTotal, minShare, files, gcEvents, at,
                    cpuShare);
        }
        if (!remarks.isEmpty()) {
            // and without the remarks' counts: what the same recording gave before they were used
            profile.heap().classCounts().removeIf(c -> remarks.contains(c.gcId()));
            LiveHeapQuery.LiveHeap noRemark = LiveHeapQuery.at(new ProfileData(name, profile), at, false);
            line += "\n" + compare(name + " uncounted, no remark", noRemark, histogram, histogramTotal, minShare, files,
                    gcEvents, at, cpuShare);
        }
        return line;
    }

    /** Prints the estimate against the histogram class by class; returns the run's summary line. */
    private static String compare(String name, LiveHeapQuery.LiveHeap live, Map<String, Long> histogram, long histogramTotal,
                                  double minShare, int files, List<GcEvent> gcEvents, int at, double cpuShare) {
        Map<String, LiveHeapQuery.ClassShare> estimate = new HashMap<>();
        live.byClass().forEach(c -> estimate.put(c.className(), c));
        Set<String> shown = new LinkedHashSet<>();
        histogram.entrySet().stream().filter(e -> e.getValue() >= minShare * histogramTotal)
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed()).forEach(e -> shown.add(e.getKey()));
        live.byClass().stream().filter(c -> c.bytes() >= minShare * live.usedAfter()).forEach(c -> shown.add(c.className()));
        List<Row> rows = new ArrayList<>();
        for (String cls : shown) {
            LiveHeapQuery.ClassShare e = estimate.get(cls);
            rows.add(new Row(cls, histogram.getOrDefault(cls, 0L), e == null ? 0 : e.bytes(), e == null ? 0 : e.samples()));
        }
        rows.sort(Comparator.comparingLong(Row::histogram).reversed());
        long fillers = histogram.entrySet().stream().filter(e -> filler(e.getKey())).mapToLong(Map.Entry::getValue).sum();
        System.out.printf(Locale.ROOT, "%n%s: %d chunk file(s), %d GCs, live estimate at GC %d (%s, %s): used after %,d B,"
                        + " histogram total %,d B (%+.1f %%) of which fillers (dead space) %,d B, %d live samples, %,d B"
                        + " carried, counted %s; the workload's CPU %.2f cores%n", name, files, gcEvents.size(), at,
                gcEvents.get(at).name(), gcEvents.get(at).cause(), live.usedAfter(), histogramTotal,
                100.0 * (live.usedAfter() - histogramTotal) / histogramTotal, fillers, live.liveSamples(), live.carriedBytes(),
                live.counted(), cpuShare);
        // the share error leaves out the scale (used after vs the histogram's total): what the samples got right or wrong
        System.out.printf(Locale.ROOT, "  %-44s %14s %14s %9s %12s %8s %8s%n", "class", "histogram B", "estimate B", "error",
                "share error", "samples", "±1/√n");
        int within = 0;
        int classes = 0;
        StringBuilder worst = new StringBuilder();
        for (Row r : rows) {
            double shareError = r.histogram() == 0 ? Double.NaN
                    : ((double) r.estimate() / live.usedAfter()) / ((double) r.histogram() / histogramTotal) - 1;
            System.out.printf(Locale.ROOT, "  %-44s %,14d %,14d %+8.1f%% %+11.1f%% %8d %7.1f%%%n", r.className(), r.histogram(),
                    r.estimate(), 100 * r.error(), 100 * shareError, r.samples(), 100 * r.uncertainty());
            if (r.histogram() >= minShare * histogramTotal && !filler(r.className())) {
                classes++;
                if (Math.abs(r.error()) <= 0.15) {
                    within++;
                }
                worst.append(String.format(Locale.ROOT, " %s %+.0f%% (%d)", shortName(r.className()), 100 * r.error(),
                        r.samples()));
            }
        }
        return String.format(Locale.ROOT, "%-34s used-after %+.1f%% (fillers %.0f%%), %4d live samples, %s, %d of %d classes >= %.0f%% within 15%%:%s",
                name, 100.0 * (live.usedAfter() - histogramTotal) / histogramTotal, 100.0 * fillers / histogramTotal,
                live.liveSamples(), live.counted() ? "counted" : live.carriedBytes() > 0 ? "carried" : "sampled", within, classes,
                100 * minShare, worst);
    }

    /** The histogram's GC or jcmd GC.run's. */
    private static boolean benchmarkGc(String cause) {
        return cause.contains("Heap Inspection") || cause.contains("Diagnostic Command") || cause.contains("System.gc");
    }

    /** The JVM's filler objects (JDK 19+; int[] before): dead space that the histogram and the heap's used bytes count. */
    private static boolean filler(String className) {
        return className.startsWith("jdk.internal.vm.Filler");
    }

    private static long cpuNanos(Process p) {
        return p.info().totalCpuDuration().map(java.time.Duration::toNanos).orElse(0L);
    }

    private static String shortName(String className) {
        int dot = className.lastIndexOf('.');
        return dot < 0 ? className : className.substring(dot + 1);
    }

    private static void jcmd(ChildJvm jvm, String pid, String command) throws Exception {
        Process p = new ProcessBuilder(jvm.javaHome().resolve("bin/jcmd").toString(), pid, command).redirectErrorStream(true).start();
        p.getInputStream().transferTo(OutputStream.nullOutputStream());
        if (p.waitFor() != 0) {
            throw new IllegalStateException("jcmd " + command + " failed");
        }
    }

    private static String lineStarting(BufferedReader in, String prefix) throws IOException {
        StringBuilder skipped = new StringBuilder();
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.startsWith(prefix)) {
                return line;
            }
            skipped.append(line).append('\n');
        }
        throw new IllegalStateException("the workload ended without '" + prefix + "': " + skipped);
    }

    /** The agent's chunk files, in order, as one recording (a JFR file is a sequence of chunks). */
    private static int concatenate(Path chunks, Path all) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(chunks)) {
            files = s.filter(p -> p.getFileName().toString().endsWith(".jfr")).sorted().toList();
        }
        try (OutputStream o = Files.newOutputStream(all)) {
            for (Path f : files) {
                Files.copy(f, o);
            }
        }
        return files.size();
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
