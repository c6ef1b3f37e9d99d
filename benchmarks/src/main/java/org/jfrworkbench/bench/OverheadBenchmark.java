package org.jfrworkbench.bench;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.zip.ZipFile;

/**
 * Overhead of the agent on checkout work, against no agent, JDK JFR with its "profile" settings and plain
 * async-profiler. Each configuration runs in fresh JVMs, interleaved (A B C A B C ...), several times; medians are
 * compared, and the spread (min..max over runs) is printed so noise stays visible. Every run warms up (15 s: past
 * the agent's short first chunk, which ends at 10 s), then counts the orders done in a fixed window (60 s: one
 * interval of the agent's default rotation, so the window holds one chunk close and open, as in steady state).
 *
 * <pre>benchmarks/run.sh OverheadBenchmark AGENT_JAR [RUNS] [CONFIG...]</pre>
 *
 * A CONFIG is {@code agent:OPTIONS} (the agent with these options on top of its defaults), {@code agent@JAR:OPTIONS}
 * (another build of the agent, to compare two builds in one run), {@code ap:OPTIONS} (async-profiler alone, e.g.
 * {@code ap:event=cpu,interval=10ms,alloc=16m,live}), {@code jfr:SETTINGS} (JDK JFR, e.g. {@code jfr:profile}) or
 * {@code jvm:OPTIONS} (JVM options only, space-separated: what a flag such as {@code -XX:+DebugNonSafepoints} costs
 * by itself) or {@code none:} (no agent again: the spread of identical configurations, the benchmark's own noise).
 * Without CONFIGs: the agent's defaults, JFR {@code profile} and async-profiler with the agent's events at about the
 * rate the agent's default target gives on this workload (16 MB: ~45-75 samples/s; the agent aims at 50/s per
 * processor). System properties: {@code bench.warmup} and {@code bench.window} (seconds),
 * {@code bench.jvmArgs} (space-separated, added to every child JVM), {@code bench.threads=true} (also print each run's CPU
 * time per thread name in the window, from /proc: where a configuration's extra CPU goes), {@code bench.attachAt=S}
 * (agent: and ap: configurations attached by the child itself S seconds into its warm-up instead of loaded at start).
 *
 * <p>{@code bench.reference=true} (with this process pinned to one CPU, e.g. {@code taskset -c 1}): every run of every
 * configuration, "no agent" included, gets a second fresh JVM without any agent beside it on that CPU, both warming up
 * from the same moment and counting in the same window, and the run's figures are taken relative to that reference.
 * The two JVMs take turns on the CPU every few milliseconds, so the machine's speed, which drifts by several per cent
 * within minutes on a virtual machine, cancels; "no agent" against its reference is then the spread of two identical
 * JVMs (their JIT's choices). Read the CPU time per order (how the scheduler splits the CPU between the two JVMs' threads
 * also moves their throughputs); what the agent paces by the wall clock (allocation samples per second, heap summaries,
 * the JDK's periodic events) comes about twice as often per order as on a CPU of its own.
 */
public final class OverheadBenchmark {
    private static final String NONE = "no agent";
    /**
     * With {@code -Dbench.attachAt=S}, agent: and ap: configurations are not loaded at JVM start but attached S seconds
     * into the warm-up (as an operator attaches to a running service): the steady state's cost, without the
     * profiler's part in the start-up and the JIT's first compilations.
     */
    private static final double ATTACH_AT = Double.parseDouble(System.getProperty("bench.attachAt", "0"));

    private OverheadBenchmark() {
    }

    public static void main(String[] args) throws Throwable {
        if (args.length >= 1 && args[0].equals("child")) {
            child(Long.parseLong(args[1]), Double.parseDouble(args[2]), Double.parseDouble(args[3]));
            return;
        }
        if (args.length < 1) {
            System.err.println("usage: OverheadBenchmark AGENT_JAR [RUNS] [agent:OPTIONS | agent@JAR:OPTIONS | ap:OPTIONS | jfr:SETTINGS | jvm:OPTIONS | none: ...]");
            System.exit(2);
        }
        Path agentJar = Path.of(args[0]).toAbsolutePath();
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        double warmup = Double.parseDouble(System.getProperty("bench.warmup", "15"));
        double window = Double.parseDouble(System.getProperty("bench.window", "60"));
        List<String> extra = extraJvmArgs();
        List<String> specs = args.length > 2 ? Arrays.asList(args).subList(2, args.length)
                : List.of("agent:", "jfr:profile", "ap:event=cpu,interval=10ms,alloc=16m,live");
        boolean reference = referenceOnOneCpu();
        System.out.printf("warm-up %.0f s, window %.0f s, %d runs per configuration, interleaved%s; extra JVM args %s%n",
                warmup, window, runs, reference ? ", each beside a no-agent reference JVM on the same CPU" : "", extra);
        Path work = Files.createTempDirectory("workbench-overhead");
        Path lib = extractProfiler(agentJar, work);

        Map<String, List<String>> configs = new LinkedHashMap<>();
        configs.put(NONE, List.of());
        for (String spec : specs) {
            configs.put(spec, jvmArgs(spec, agentJar, lib, work.resolve("out" + configs.size())));
        }

        Map<String, double[]> rates = new LinkedHashMap<>();
        Map<String, double[]> cpu = new LinkedHashMap<>();
        Map<String, double[]> appCpu = new LinkedHashMap<>();
        configs.keySet().forEach(k -> {
            rates.put(k, new double[runs]);
            cpu.put(k, new double[runs]);
            appCpu.put(k, new double[runs]);
        });
        for (int run = 0; run < runs; run++) {
            for (Map.Entry<String, List<String>> c : configs.entrySet()) {
                List<String> jvm = new ArrayList<>(extra);
                jvm.addAll(c.getValue());
                // with a reference both JVMs count from the same moment, a little after both have started
                long startMillis = System.currentTimeMillis() + (reference ? 3000 : 0);
                Process p = startChild(jvm, startMillis, warmup, window);
                Process q = reference ? startChild(extra, startMillis, warmup, window) : null;
                double[] r;
                double[] ref;
                try {
                    r = result(p);
                    ref = q == null ? null : result(q);
                } finally {
                    p.destroyForcibly();
                    if (q != null) {
                        q.destroyForcibly();
                    }
                }
                System.out.printf("run %d  %-50s %,10.0f orders/s %,8.0f cpu-ns/order (app thread %,8.0f) %3.0f GCs",
                        run + 1, c.getKey(), r[0], r[1], r[2], r[3]);
                r = relative(r, ref);
                rates.get(c.getKey())[run] = r[0];
                cpu.get(c.getKey())[run] = r[1];
                appCpu.get(c.getKey())[run] = r[2];
            }
        }
        // Three views of the same runs: throughput (what users feel), the process's CPU time per order (app + profiler +
        // GC + JIT threads) and the application thread's own CPU time per order (what the samplers' interrupts, the
        // allocation hooks and lost compiled code cost the application itself).
        // With a reference every run's figures are already relative to the no-agent JVM beside it, and "no agent" itself
        // shows how far two identical JVMs differ (their JIT's choices).
        String vs = reference ? "the reference" : "none";
        report("throughput" + (reference ? " relative to the reference" : " (orders/s)") + ", higher is better", rates, specs, false, reference);
        report("process CPU time per order" + (reference ? " relative to the reference" : " (ns)") + ", ratio shown as " + vs
                + "/config so that < 1 means overhead", cpu, specs, true, reference);
        report("application thread CPU time per order" + (reference ? " relative to the reference" : " (ns)") + ", ratio " + vs
                + "/config", appCpu, specs, true, reference);
        deleteTree(work); // every run's recordings: hundreds of MB over a long set
    }

    /** Deletes a directory and everything in it; what cannot be deleted is reported and left. */
    private static void deleteTree(Path dir) throws IOException {
        try (var paths = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    System.err.println("could not delete " + p + ": " + e);
                }
            }
        }
    }

    private static void report(String title, Map<String, double[]> results, List<String> specs, boolean inverse, boolean relative) {
        double base = relative ? 1 : median(results.get(NONE));
        String vs = relative ? "ref" : "none";
        System.out.printf("%n%s%n%-50s %12s %9s %15s%n", title, "configuration", "median", "vs " + vs, "spread vs " + vs);
        for (Map.Entry<String, double[]> r : results.entrySet()) {
            double[] v = r.getValue();
            double m = median(v);
            double lo = inverse ? base / Arrays.stream(v).max().orElse(1) : Arrays.stream(v).min().orElse(0) / base;
            double hi = inverse ? base / Arrays.stream(v).min().orElse(1) : Arrays.stream(v).max().orElse(0) / base;
            double ratio = inverse ? base / m : m / base;
            System.out.printf("%-50s " + (relative ? "%12.3f" : "%,12.0f") + " %8.3fx  %.3f..%.3f  (overhead %+.1f %%)%n",
                    r.getKey(), m, ratio, lo, hi, 100 * (1 - ratio));
        }
        printAgentVsPeers(specs, spec -> inverse ? 1 / median(results.get(spec)) : median(results.get(spec)));
    }

    /** The first {@code agent:} configuration's score against every other's (score: higher is better). */
    static void printAgentVsPeers(List<String> specs, ToDoubleFunction<String> score) {
        String agent = specs.stream().filter(s -> s.startsWith("agent:")).findFirst().orElse(null);
        for (String peer : specs) {
            if (agent != null && !peer.equals(agent)) {
                System.out.printf("%s vs %s: %.3fx%n", agent, peer, score.applyAsDouble(agent) / score.applyAsDouble(peer));
            }
        }
    }

    /**
     * {@code bench.reference}; exits with a message if it is set and this process may use more than one CPU, since the
     * reference JVM and the measured one must share one.
     */
    static boolean referenceOnOneCpu() {
        boolean reference = Boolean.getBoolean("bench.reference");
        if (reference && Runtime.getRuntime().availableProcessors() != 1) {
            System.err.println("bench.reference=true needs this process pinned to one CPU (e.g. taskset -c 1), so that the"
                    + " reference JVM and the measured one share it; this process may use " + Runtime.getRuntime().availableProcessors());
            System.exit(2);
        }
        return reference;
    }

    /**
     * Ends the line printed for a result {orders/s, process CPU ns/order, app thread CPU ns/order, GCs}: with a reference
     * (non-null) prints its figures and returns the first three relative to them (GCs as they were); else the result.
     */
    static double[] relative(double[] r, double[] ref) {
        if (ref == null) {
            System.out.println();
            return r;
        }
        System.out.printf("   reference %,10.0f orders/s %,8.0f cpu-ns/order%n", ref[0], ref[1]);
        return new double[] {r[0] / ref[0], r[1] / ref[1], r[2] / ref[2], r[3]};
    }

    /** The {@link System#nanoTime()} of this JVM at the wall-clock moment {@code epochMillis}: a moment two JVMs share. */
    static long nanoTimeAt(long epochMillis) {
        return System.nanoTime() + (epochMillis - System.currentTimeMillis()) * 1_000_000L;
    }

    /** {@code bench.jvmArgs}, space-separated, added to every child JVM. */
    static List<String> extraJvmArgs() {
        return jvmOptions(System.getProperty("bench.jvmArgs", ""));
    }

    /** Space-separated JVM options as a list; none for a blank string. */
    private static List<String> jvmOptions(String options) {
        return options.isBlank() ? List.of() : Arrays.asList(options.trim().split("\\s+"));
    }

    /** A child JVM's command line: this JDK, the benchmark's heap, JVM_ARGS, then MAIN_CLASS with ARGS on this classpath. */
    static List<String> childCommand(List<String> jvmArgs, Class<?> mainClass, List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.add("-Xmx512m");
        cmd.addAll(jvmArgs);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass.getName()));
        cmd.addAll(args);
        return cmd;
    }

    private static List<String> jvmArgs(String spec, Path agentJar, Path lib, Path out) throws IOException {
        int colon = spec.indexOf(':');
        String kind = colon < 0 ? spec : spec.substring(0, colon);
        String options = colon < 0 ? "" : spec.substring(colon + 1);
        if (kind.startsWith("agent@")) {
            agentJar = Path.of(kind.substring("agent@".length())).toAbsolutePath();
            kind = "agent";
        }
        if (ATTACH_AT > 0 && (kind.equals("agent") || kind.equals("ap"))) {
            // loaded by the child itself, by dynamic attach, part way through its warm-up (see child)
            boolean agent = kind.equals("agent");
            return List.of("-Djdk.attach.allowAttachSelf=true", "-Dbench.attachAt=" + ATTACH_AT, "-Dbench.load=" + (agent ? agentJar : lib),
                    "-Dbench.loadOptions=" + (agent ? "dir=" + out + (options.isEmpty() ? "" : "," + options)
                            : "start," + options + ",jfr,file=" + out + ".jfr"));
        }
        return switch (kind) {
            case "agent" -> List.of("-javaagent:" + agentJar + "=dir=" + out + (options.isEmpty() ? "" : "," + options));
            case "ap" -> List.of("-agentpath:" + lib + "=start," + options + ",jfr,file=" + out + ".jfr");
            case "jfr" -> List.of("-XX:StartFlightRecording=settings=" + (options.isEmpty() ? "profile" : options) + ",filename=" + out + ".jfr");
            case "none" -> List.of();
            case "jvm" -> jvmOptions(options);
            default -> throw new IllegalArgumentException("a configuration is agent:OPTIONS, ap:OPTIONS, jfr:SETTINGS, jvm:OPTIONS or none:, not '" + spec + "'");
        };
    }

    /** Starts one fresh JVM that warms up from {@code startMillis} (wall clock) on, then counts orders in the window. */
    private static Process startChild(List<String> jvmArgs, long startMillis, double warmup, double window) throws IOException {
        List<String> cmd = childCommand(jvmArgs, OverheadBenchmark.class,
                List.of("child", String.valueOf(startMillis), String.valueOf(warmup), String.valueOf(window)));
        return new ProcessBuilder(cmd).redirectErrorStream(true).start();
    }

    /** A child's result: {orders per second, process CPU ns per order, app thread CPU ns per order, GCs}. */
    private static double[] result(Process p) throws Exception {
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(5, TimeUnit.MINUTES) || p.exitValue() != 0) {
            throw new IllegalStateException("benchmark child failed: " + out);
        }
        for (String line : out.split("\n")) {
            if (line.startsWith("THREADS") && Boolean.getBoolean("bench.threads")) {
                System.out.println("      cpu by thread in the window:" + line.substring("THREADS".length()));
            }
            if (line.startsWith("RATE ")) {
                String[] f = line.substring(5).trim().split(" ");
                return new double[] {Double.parseDouble(f[0]), Double.parseDouble(f[1]), Double.parseDouble(f[2]), Double.parseDouble(f[3])};
            }
        }
        throw new IllegalStateException("no rate in: " + out);
    }

    /** Warm up, then count the checkouts done in the window, and the CPU time they took. */
    private static void child(long startMillis, double warmupSeconds, double windowSeconds) throws Throwable {
        // the window on this JVM's nanoTime clock, counted from the wall-clock moment the parent chose
        long windowStart = nanoTimeAt(startMillis) + (long) (warmupSeconds * 1e9);
        Object service = NEW.invoke(true);
        String load = System.getProperty("bench.load");
        if (load != null) {
            runUntil(service, nanoTimeAt(startMillis) + (long) (ATTACH_AT * 1e9));
            String options = System.getProperty("bench.loadOptions");
            ToggledOverhead.attach(vm -> {
                if (load.endsWith(".jar")) {
                    vm.loadAgent(load, options);
                } else {
                    vm.loadAgentPath(load, options);
                }
            });
        }
        runUntil(service, windowStart);
        Map<String, Long> threads0 = threadTicks();
        double[] r = measureUntil(service, windowStart + (long) (windowSeconds * 1e9));
        Map<String, Long> threads1 = threadTicks();
        StringBuilder perThread = new StringBuilder();
        threads1.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), e.getValue() - threads0.getOrDefault(e.getKey(), 0L)))
                .filter(e -> e.getValue() > 0)
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> perThread.append(String.format(" %s=%.0fms", e.getKey(), e.getValue() * 1000.0 / TICKS_PER_SECOND)));
        System.out.println("THREADS" + perThread);
        System.out.println("RATE " + r[0] + " " + r[1] + " " + r[2] + " " + r[3] + " (" + sink + ")");
    }

    /** Results of the checkouts, summed and printed, so the JIT cannot drop the work. */
    static long sink;

    /** Checkout work until {@code end} ({@link System#nanoTime()}), not measured (warm-up, settling). */
    static void runUntil(Object service, long end) throws Throwable {
        while (System.nanoTime() < end) {
            sink += checkout(service);
        }
    }

    /**
     * Checkout work until {@code end} ({@link System#nanoTime()}); returns {orders per second, process CPU ns per order,
     * app thread CPU ns per order, GCs}.
     */
    static double[] measureUntil(Object service, long end) throws Throwable {
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long gcs0 = gcCount();
        long cpu0 = os.getProcessCpuTime();
        long app0 = threads.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        long orders = 0;
        long now;
        do {
            for (int i = 0; i < 100; i++) {
                sink += checkout(service);
            }
            orders += 100;
            now = System.nanoTime();
        } while (now < end);
        return new double[] {orders / ((now - t0) / 1e9), (os.getProcessCpuTime() - cpu0) / (double) orders,
                (threads.getCurrentThreadCpuTime() - app0) / (double) orders, gcCount() - gcs0};
    }

    /*
     * The service's methods are package-private; constant method handles let the JIT inline them like direct calls,
     * so the timed loop measures the checkout and not reflection (identical runs still differ by up to +-25 %).
     */
    static final MethodHandle NEW;
    private static final MethodHandle NEXT;
    private static final MethodHandle CHECKOUT;

    static {
        try {
            Class<?> c = Class.forName("org.jfrworkbench.samples.CheckoutService");
            MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(c, MethodHandles.lookup());
            NEW = lookup.findConstructor(c, MethodType.methodType(void.class, boolean.class)).asType(MethodType.methodType(Object.class, boolean.class));
            NEXT = lookup.findVirtual(c, "nextOrder", MethodType.methodType(String.class)).asType(MethodType.methodType(String.class, Object.class));
            CHECKOUT = lookup.findVirtual(c, "checkout", MethodType.methodType(long.class, String.class))
                    .asType(MethodType.methodType(long.class, Object.class, String.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static long checkout(Object service) throws Throwable {
        return (long) CHECKOUT.invokeExact(service, (String) NEXT.invokeExact(service));
    }

    /** Kernel clock ticks per second for /proc times (USER_HZ, 100 on Linux everywhere in practice). */
    private static final double TICKS_PER_SECOND = 100;

    /**
     * CPU time (user + system ticks) of every thread of this process by thread name, from /proc (so native threads
     * such as async-profiler's and the JVM's own count too), threads of one name (GC workers) summed; empty elsewhere.
     */
    private static Map<String, Long> threadTicks() {
        Map<String, Long> ticks = new LinkedHashMap<>();
        try (var tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    int close = stat.lastIndexOf(')');
                    String name = threadName(stat.substring(stat.indexOf('(') + 1, close));
                    String[] f = stat.substring(close + 2).split(" ");
                    ticks.merge(name, Long.parseLong(f[11]) + Long.parseLong(f[12]), Long::sum);
                } catch (IOException | RuntimeException e) {
                    // the thread ended in between
                }
            }
        } catch (IOException e) {
            return Map.of();
        }
        return ticks;
    }

    /**
     * A thread's name without its trailing number ("GC Thread#1" counts as "GC_Thread"), by hand: a regex here would
     * feed the benchmarked code's own regex call sites new types right as the window opens and deoptimize them.
     */
    private static String threadName(String name) {
        int end = name.length();
        while (end > 0 && (Character.isDigit(name.charAt(end - 1)) || name.charAt(end - 1) == '#' || name.charAt(end - 1) == ' ')) {
            end--;
        }
        return name.substring(0, end).replace(' ', '_');
    }

    private static long gcCount() {
        long n = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, gc.getCollectionCount());
        }
        return n;
    }

    static Path extractProfiler(Path agentJar, Path dir) throws IOException {
        try (ZipFile zip = new ZipFile(agentJar.toFile())) {
            var entry = zip.getEntry("linux-" + (System.getProperty("os.arch").contains("aarch64") ? "arm64" : "x64") + "/libasyncProfiler.so");
            if (entry == null) {
                throw new IOException("no async-profiler library for this platform in " + agentJar);
            }
            Path lib = dir.resolve("libasyncProfiler.so");
            try (InputStream in = zip.getInputStream(entry)) {
                Files.copy(in, lib, StandardCopyOption.REPLACE_EXISTING);
            }
            return lib;
        }
    }

    static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
