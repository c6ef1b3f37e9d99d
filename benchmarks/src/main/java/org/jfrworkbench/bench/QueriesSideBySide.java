package org.jfrworkbench.bench;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

import org.jfrworkbench.bench.inputs.BenchInputs;

/**
 * Two builds' analysis timed in turn in one JVM on the same recordings and the same random ranges, as ServerBenchmark
 * picks them: diffs of two runs ({@code DiffQuery}, its halves in turn unless -Dbench.parallel says), flame graphs of a range (and of a range on
 * one to eight threads), searches (its
 * patterns: the generated inputs' fixed ones, a recorded input's own class names), inverted graphs
 * ({@code FlameGraphQuery}) and sandwiches of a random method of a small graph of the whole recording, as ServerBenchmark
 * picks them ({@code SandwichQuery}).
 * Each build (this one's analysis and importer jars, and another's: {@code -Dbench.vs=DIR} holding its
 * {@code analysis-*.jar} and {@code importer-*.jar}) is loaded by a class loader of its own beside the libraries, reads
 * the recordings itself and answers every range; which build goes first alternates by round. Per build it prints the
 * p50 and p99 of the calling thread's CPU time and of the wall time, and checks that both builds' answers are equal
 * (a hash over the answer's records, lists and arrays). The machine is shared: only figures taken side by side, moments
 * apart, compare.
 *
 * <pre>
 * java -cp ... org.jfrworkbench.bench.QueriesSideBySide [STACKSxSAMPLES | input:NAME | files:BASE[,TARGET]]...
 *   -Dbench.vs=DIR (required) -Dbench.views=diff,range,threads,search,inverted,sandwich -Dbench.rounds=60
 *   -Dbench.warmup=20
 *   -Dbench.vsFirst=true (the other build reads the recordings first)
 *   -Dbench.parallel=always|never (a flame graph's halves by that rule, not where a processor is spare, in a build
 *   whose FlameGraphQuery has run(ProfileData, Parallel); a build without it answers as the server does; a diff's
 *   halves by that rule, where they otherwise go in turn)
 *   -Dbench.deepDir=DIR (where the generated recordings are, or are made; default the benchmark inputs')
 *   -Dbench.slowest=N: per build the N slowest views by CPU time, with their range and search or method
 *   -Dbench.profile=cpu|alloc: only this build, profiled by async-profiler over the rounds (collapsed stacks to
 *   -Dbench.profileFile=FILE)
 * </pre>
 */
public final class QueriesSideBySide {
    private static final int ROUNDS = Integer.getInteger("bench.rounds", 60);
    private static final int WARMUP = Integer.getInteger("bench.warmup", 20);
    private static final List<String> VIEWS = List.of(System.getProperty("bench.views", "diff").split(","));
    private static final String PROFILE = System.getProperty("bench.profile");
    /** -Dbench.slowest=N: per build, the N slowest views by CPU with what they asked (the range, the method). */
    private static final int SLOWEST = Integer.getInteger("bench.slowest", 0);
    /** -Dbench.parallel=always|never: the rule a flame graph's halves go by, in place of the server's (where spare). */
    private static final String PARALLEL = System.getProperty("bench.parallel");
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private QueriesSideBySide() {
    }

    public static void main(String[] args) throws Exception {
        List<String> classpath = List.of(System.getProperty("java.class.path").split(java.io.File.pathSeparator));
        List<Build> builds = new ArrayList<>();
        builds.add(new Build("this", ours(classpath), classpath));
        if (PROFILE == null) {
            Path vs = Path.of(System.getProperty("bench.vs"));
            // -Dbench.vsFirst=true: the other build reads the recordings first (where each build's data lies in
            // memory can favour one; a view both builds answer with the same code shows by how much)
            builds.add(Boolean.getBoolean("bench.vsFirst") ? 0 : 1,
                    new Build("vs", List.of(jar(vs, "analysis-"), jar(vs, "importer-")), classpath));
        }
        for (String input : args.length > 0 ? args : new String[] {"250000x2500000"}) {
            Path[] files = files(input);
            System.out.printf(Locale.ROOT, "%n== %s, load average %.2f%n", input,
                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            List<Object[]> loaded = new ArrayList<>();
            for (Build b : builds) {
                loaded.add(new Object[] {b.load(files[0]), files[1] == null ? null : b.load(files[1])});
            }
            long duration = builds.get(0).durationMillis(loaded.get(0)[0]);
            List<String> methods = builds.get(0).methods(loaded.get(0)[0]);
            List<String> searches = input.startsWith("input:") || input.startsWith("files:")
                    ? ServerBenchmark.searches(methods) : List.of(ServerBenchmark.SEARCHES);
            for (String view : VIEWS) {
                if (view.equals("diff") && files[1] == null) {
                    continue;
                }
                run(view, builds, loaded, duration, searches, methods);
            }
        }
    }

    private static void run(String view, List<Build> builds, List<Object[]> loaded, long duration, List<String> searches,
                            List<String> methods) throws Exception {
        Random random = new Random(42);
        int k = builds.size();
        List<List<long[]>> times = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            times.add(new ArrayList<>());
        }
        int differ = 0;
        List<String> asked = new ArrayList<>();
        for (int round = 0; round < WARMUP + ROUNDS; round++) {
            if (round == WARMUP && PROFILE != null) {
                Profiler.start(PROFILE, view);
            }
            long length = 1000 + (long) (random.nextDouble() * (duration - 1000));
            long from = (long) (random.nextDouble() * (duration - length));
            long to = from + length;
            // as ServerBenchmark picks a search: after the range, from the same random numbers
            String search = view.equals("search") ? searches.get(random.nextInt(searches.size())) : null;
            // as ServerBenchmark picks a thread set: one to eight of the recording's threads, after the range
            BitSet threads = view.equals("threads") ? threads(random, builds.get(0).threadCount(loaded.get(0)[0])) : null;
            // as ServerBenchmark picks a sandwich's method: after the range, from the same random numbers
            String method = view.equals("sandwich") ? methods.get(random.nextInt(methods.size())) : null;
            asked.add(from + "-" + to + (search != null ? " " + search : "") + (method != null ? " " + method : ""));
            long[] hashes = new long[k];
            for (int j = 0; j < k; j++) {
                int i = (round + j) % k;
                Build b = builds.get(i);
                Object[] data = loaded.get(i);
                long c0 = THREADS.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                Object answer = switch (view) {
                    case "diff" -> b.diff(data[0], data[1], from, to);
                    case "range" -> b.flame(data[0], from, to, false, null);
                    case "threads" -> b.flame(data[0], from, to, threads);
                    case "search" -> b.flame(data[0], from, to, false, search);
                    case "inverted" -> b.flame(data[0], from, to, true, null);
                    case "sandwich" -> b.sandwich(data[0], from, to, method);
                    default -> throw new IllegalArgumentException("-Dbench.views: no view " + view);
                };
                long t1 = System.nanoTime();
                long c1 = THREADS.getCurrentThreadCpuTime();
                hashes[i] = hash(answer);
                if (round >= WARMUP) {
                    times.get(i).add(new long[] {c1 - c0, t1 - t0, round});
                }
            }
            for (int i = 1; i < k; i++) {
                if (hashes[i] != hashes[0]) {
                    differ++;
                }
            }
        }
        if (PROFILE != null) {
            Profiler.stop(view);
        }
        for (int i = 0; i < k; i++) {
            List<long[]> t = times.get(i);
            long[] cpu = t.stream().mapToLong(x -> x[0]).sorted().toArray();
            long[] wall = t.stream().mapToLong(x -> x[1]).sorted().toArray();
            System.out.printf(Locale.ROOT, "%-8s %-5s CPU p50 %6.1f p99 %6.1f  wall p50 %6.1f p99 %6.1f ms (%d)%n", view,
                    builds.get(i).name, pct(cpu, 50), pct(cpu, 99), pct(wall, 50), pct(wall, 99), cpu.length);
            t.stream().sorted((x, y) -> Long.compare(y[0], x[0])).limit(SLOWEST).forEach(x -> System.out.printf(Locale.ROOT,
                    "  %6.1f ms CPU: %s%n", x[0] / 1e6, asked.get((int) x[2])));
        }
        if (k > 1) {
            System.out.printf(Locale.ROOT, "%-8s ratio this / vs, CPU p50 %.3f; answers that differ: %d of %d%n", view,
                    pct(sorted(times.get(index(builds, "this"))), 50) / pct(sorted(times.get(index(builds, "vs"))), 50),
                    differ, WARMUP + ROUNDS);
        }
    }

    private static BitSet threads(Random random, int count) {
        BitSet threads = new BitSet();
        for (int i = 0, n = 1 + random.nextInt(8); i < n; i++) {
            threads.set(random.nextInt(count));
        }
        return threads;
    }

    private static int index(List<Build> builds, String name) {
        for (int i = 0; i < builds.size(); i++) {
            if (builds.get(i).name.equals(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException(name);
    }

    private static long[] sorted(List<long[]> t) {
        return t.stream().mapToLong(x -> x[0]).sorted().toArray();
    }

    private static double pct(long[] sorted, int p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)] / 1e6;
    }

    private static Path[] files(String input) throws Exception {
        if (input.startsWith("files:")) {
            // files:BASE[,TARGET] (no target: the base against itself, read twice)
            String[] f = input.substring("files:".length()).split(",");
            return new Path[] {Path.of(f[0]), Path.of(f.length > 1 ? f[1] : f[0])};
        }
        if (input.startsWith("input:")) {
            String name = input.substring("input:".length());
            return new Path[] {BenchInputs.get(name), BenchInputs.hasPartner(name) ? BenchInputs.get(name + "-b") : null};
        }
        int stacks = Integer.parseInt(input.substring(0, input.indexOf('x')));
        int samples = Integer.parseInt(input.substring(input.indexOf('x') + 1));
        Path dir = Path.of(System.getProperty("bench.deepDir", "benchmarks/target/bench-inputs"));
        Path[] out = new Path[2];
        for (int v = 0; v < 2; v++) {
            out[v] = dir.resolve("deep-" + stacks + "-" + samples + "-" + v + ".jfr");
            if (!Files.exists(out[v])) {
                // as ServerBenchmark makes it (-Dbench.deepDir=DIR: elsewhere than beside the other inputs)
                DeepStacksRecording.write(out[v], stacks, samples, v);
            }
        }
        return out;
    }

    /** This build's analysis and importer jars (or classes directories) on the class path. */
    private static List<String> ours(List<String> classpath) {
        return classpath.stream().filter(e -> e.contains("analysis") || e.contains("importer")).filter(e -> !e.contains(".m2")).toList();
    }

    private static String jar(Path dir, String prefix) throws Exception {
        try (var s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith(prefix)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no " + prefix + "*.jar in " + dir)).toString();
        }
    }

    /** A hash of an answer: records by their components, lists, maps and arrays by their elements. */
    private static long hash(Object o) throws Exception {
        if (o == null) {
            return 17;
        }
        Class<?> c = o.getClass();
        if (c.isRecord()) {
            long h = c.getSimpleName().hashCode();
            for (RecordComponent rc : c.getRecordComponents()) {
                Method m = rc.getAccessor();
                m.setAccessible(true);
                h = h * 31 + hash(m.invoke(o));
            }
            return h;
        }
        if (o instanceof int[] a) {
            return Arrays.hashCode(a);
        }
        if (o instanceof long[] a) {
            return Arrays.hashCode(a);
        }
        if (o instanceof byte[] a) {
            return Arrays.hashCode(a);
        }
        if (o instanceof double[] a) {
            return Arrays.hashCode(a);
        }
        if (c.isArray()) {
            long h = 1;
            for (int i = 0, n = Array.getLength(o); i < n; i++) {
                h = h * 31 + hash(Array.get(o, i));
            }
            return h;
        }
        if (o instanceof Collection<?> col) {
            long h = 3;
            for (Object e : col) {
                h = h * 31 + hash(e);
            }
            return h;
        }
        if (o instanceof Map<?, ?> map) {
            long h = 5;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                h = h * 31 + hash(e.getKey()) * 7 + hash(e.getValue());
            }
            return h;
        }
        if (o instanceof Enum<?> e) {
            return e.name().hashCode();
        }
        if (o instanceof String || o instanceof Number || o instanceof Boolean || o instanceof Character) {
            return o.hashCode();
        }
        // another class of the answer (the names' table): its fields
        long h = c.getName().hashCode();
        for (var f : c.getDeclaredFields()) {
            if (!java.lang.reflect.Modifier.isStatic(f.getModifiers())) {
                f.setAccessible(true);
                h = h * 31 + hash(f.get(o));
            }
        }
        return h;
    }

    /** One build's importer and analysis in a class loader of its own (the libraries beside them). */
    private static final class Build {
        final String name;
        final ClassLoader loader;
        final Class<?> kind;
        final Object cpu;

        Build(String name, List<String> jars, List<String> classpath) throws Exception {
            this.name = name;
            List<URL> urls = new ArrayList<>();
            for (String j : jars) {
                urls.add(Path.of(j).toUri().toURL());
            }
            for (String e : classpath) {
                if (e.contains(".m2")) {
                    urls.add(Path.of(e).toUri().toURL());
                }
            }
            loader = new URLClassLoader(name, urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
            kind = cls("org.jfrworkbench.model.Kind");
            cpu = kind.getField("CPU").get(null);
        }

        Class<?> cls(String n) throws ClassNotFoundException {
            return Class.forName(n, true, loader);
        }

        Object load(Path file) throws Exception {
            Class<?> importer = cls("org.jfrworkbench.importer.Importer");
            Object profile = importer.getMethod("read", Path.class).invoke(importer.getConstructor().newInstance(), file);
            Class<?> pd = cls("org.jfrworkbench.analysis.ProfileData");
            Object data = pd.getConstructor(String.class, cls("org.jfrworkbench.model.Profile"))
                    .newInstance(file.getFileName().toString(), profile);
            pd.getMethod("tree").invoke(data);
            // the inverted part is made on a thread of its own: ready before any view is timed, as in the server
            pd.getMethod("prepareInvertedGraphs").invoke(data);
            long until = System.nanoTime() + 120_000_000_000L;
            while (!(boolean) pd.getMethod("invertedGraphsPrepared").invoke(data) && System.nanoTime() < until) {
                Thread.sleep(50);
            }
            return data;
        }

        long durationMillis(Object data) throws Exception {
            Object profile = data.getClass().getMethod("profile").invoke(data);
            return (long) profile.getClass().getMethod("durationMillis").invoke(profile);
        }

        Object selection(long from, long to) throws Exception {
            return selection(from, to, null);
        }

        Object selection(long from, long to, BitSet threads) throws Exception {
            return cls("org.jfrworkbench.analysis.Selection")
                    .getMethod("millis", kind, Long.class, Long.class, BitSet.class, boolean.class)
                    .invoke(null, cpu, from, to, threads, false);
        }

        int threadCount(Object data) throws Exception {
            Object profile = data.getClass().getMethod("profile").invoke(data);
            Object threads = profile.getClass().getMethod("threads").invoke(profile);
            return (int) threads.getClass().getMethod("size").invoke(threads);
        }

        /** A flame graph of the range on a set of threads (ids as the server takes them: indices of the recording's). */
        Object flame(Object a, long from, long to, BitSet threads) throws Exception {
            return flame(a, selection(from, to, threads), false, null, cls("org.jfrworkbench.analysis.FlameGraphQuery")
                    .getField("DEFAULT_MAX_NODES").getInt(null));
        }

        /** A sandwich of one method over the range, as the server makes it (its default node limit). */
        Object sandwich(Object a, long from, long to, String method) throws Exception {
            Class<?> q = cls("org.jfrworkbench.analysis.SandwichQuery");
            Class<?> naming = cls("org.jfrworkbench.model.FrameNaming");
            Object query = q.getConstructor(cls("org.jfrworkbench.analysis.Selection"), String.class, naming, int.class)
                    .newInstance(selection(from, to), method, naming.getField("DEFAULT").get(null),
                            cls("org.jfrworkbench.analysis.FlameGraphQuery").getField("DEFAULT_MAX_NODES").getInt(null));
            return q.getMethod("run", a.getClass()).invoke(query, a);
        }

        Object diff(Object a, Object b, long from, long to) throws Exception {
            Class<?> q = cls("org.jfrworkbench.analysis.DiffQuery");
            Class<?> sel = cls("org.jfrworkbench.analysis.Selection");
            Class<?> naming = cls("org.jfrworkbench.model.FrameNaming");
            Class<?> mode = cls("org.jfrworkbench.analysis.DiffMode");
            Class<?> parallel = cls("org.jfrworkbench.analysis.Parallel");
            Object query = q.getConstructor(sel, sel, naming, mode, int.class).newInstance(selection(from, to),
                    selection(from, to), naming.getField("DEFAULT").get(null), mode.getField("RELATIVE").get(null),
                    cls("org.jfrworkbench.analysis.FlameGraphQuery").getField("DEFAULT_MAX_NODES").getInt(null));
            Method run = q.getDeclaredMethod("run", a.getClass(), b.getClass(), parallel);
            run.setAccessible(true);
            // its halves in turn unless -Dbench.parallel says otherwise
            var rule = parallel.getDeclaredField(PARALLEL == null ? "NEVER" : PARALLEL.toUpperCase(Locale.ROOT));
            rule.setAccessible(true);
            return run.invoke(query, a, b, rule.get(null));
        }

        /**
         * A flame graph of the range, inverted or not, with a search (a regular expression, as the server's, or null),
         * as the server makes it (the samples' pass in halves where spare).
         */
        Object flame(Object a, long from, long to, boolean inverted, String search) throws Exception {
            return flame(a, selection(from, to), inverted, search, cls("org.jfrworkbench.analysis.FlameGraphQuery")
                    .getField("DEFAULT_MAX_NODES").getInt(null));
        }

        private Object flame(Object a, Object selection, boolean inverted, String search, int maxNodes) throws Exception {
            Class<?> q = cls("org.jfrworkbench.analysis.FlameGraphQuery");
            Class<?> naming = cls("org.jfrworkbench.model.FrameNaming");
            Class<?> pattern = cls("org.jfrworkbench.analysis.SearchPattern");
            Object p = search == null ? null
                    : pattern.getMethod("of", String.class, boolean.class, boolean.class).invoke(null, search, false, false);
            Object query = q.getConstructor(cls("org.jfrworkbench.analysis.Selection"), pattern, boolean.class, naming,
                    double.class, int.class).newInstance(selection, p, inverted, naming.getField("DEFAULT").get(null), 1.0,
                    maxNodes);
            if (PARALLEL != null) {
                // the rule forced: a build's run(ProfileData, Parallel), where it has one
                Class<?> parallel = cls("org.jfrworkbench.analysis.Parallel");
                try {
                    Method run = q.getDeclaredMethod("run", a.getClass(), parallel);
                    run.setAccessible(true);
                    var rule = parallel.getDeclaredField(PARALLEL.toUpperCase(Locale.ROOT));
                    rule.setAccessible(true);
                    return run.invoke(query, a, rule.get(null));
                } catch (NoSuchMethodException e) {
                    // a build without it answers by its own rule
                }
            }
            return q.getMethod("run", a.getClass()).invoke(query, a);
        }

        /** Frame names of a small graph of the whole recording, as ServerBenchmark takes them for its searches. */
        List<String> methods(Object a) throws Exception {
            Object graph = flame(a, cls("org.jfrworkbench.analysis.Selection").getMethod("of", kind).invoke(null, cpu),
                    false, null, 400);
            List<String> out = new ArrayList<>();
            for (Object n : (List<?>) graph.getClass().getMethod("names").invoke(graph)) {
                String s = (String) n;
                if (!s.startsWith("[") && !s.equals("all")) {
                    out.add(s);
                }
            }
            return out;
        }
    }

    /**
     * async-profiler over the measured rounds: collapsed stacks into -Dbench.profileFile (with several views, a file
     * per view: the view's name before the file's extension).
     */
    private static final class Profiler {
        static one.profiler.AsyncProfiler profiler;

        static String file(String view, String fallback) {
            String file = System.getProperty("bench.profileFile");
            if (file == null) {
                return fallback;
            }
            if (VIEWS.size() < 2) {
                return file;
            }
            int dot = file.lastIndexOf('.');
            return dot > file.lastIndexOf('/') ? file.substring(0, dot) + "-" + view + file.substring(dot) : file + "-" + view;
        }

        static void start(String event, String view) throws Exception {
            profiler = one.profiler.AsyncProfiler.getInstance(
                    Path.of("benchmarks", "target", "bench-inputs", "libasyncProfiler.so").toAbsolutePath().toString());
            String file = file(view, "");
            // a .jfr file keeps line numbers (jfrconv --lines reads them); else collapsed stacks on stop
            profiler.execute("start,event=" + event + (event.equals("cpu") ? ",interval=1ms" : "")
                    + (file.endsWith(".jfr") ? ",jfr,file=" + file : ""));
        }

        static void stop(String view) throws Exception {
            String file = file(view, "/dev/stdout");
            profiler.execute(file.endsWith(".jfr") ? "stop" : "stop,collapsed,file=" + file);
        }
    }
}
