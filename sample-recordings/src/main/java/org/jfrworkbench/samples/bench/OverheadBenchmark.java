package org.jfrworkbench.samples.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipFile;

/**
 * Overhead of the agent on a fixed amount of checkout work, against no agent, JDK JFR with its "profile" settings
 * and plain async-profiler with the same events. Each configuration runs in fresh JVMs, interleaved, several
 * times; the medians of orders/s are compared.
 *
 * <pre>java -cp sample-recordings/target/classes org.jfrworkbench.samples.bench.OverheadBenchmark agent/target/workbench-agent.jar [RUNS] [ORDERS] [AGENT_OPTIONS]</pre>
 */
public final class OverheadBenchmark {
    private static final String AGENT = "workbench agent (defaults + OPTIONS)";

    private OverheadBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length >= 1 && args[0].equals("child")) {
            child(Long.parseLong(args[1]));
            return;
        }
        if (args.length < 1) {
            System.err.println("usage: OverheadBenchmark AGENT_JAR [RUNS] [ORDERS] [AGENT_OPTIONS]");
            System.exit(2);
        }
        Path agentJar = Path.of(args[0]).toAbsolutePath();
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        long orders = args.length > 2 ? Long.parseLong(args[2]) : 2_000_000;
        String extra = args.length > 3 ? "," + args[3] : "";
        Path work = Files.createTempDirectory("workbench-overhead");
        Path lib = extractProfiler(agentJar, work);

        Map<String, List<String>> configs = new LinkedHashMap<>();
        configs.put("no agent", List.of());
        configs.put(AGENT, List.of("-javaagent:" + agentJar + "=dir=" + work.resolve("agent") + extra));
        configs.put("JDK JFR settings=profile", List.of("-XX:StartFlightRecording=settings=profile,filename=" + work.resolve("jfr.jfr")));
        configs.put("async-profiler (cpu=10ms,alloc=512k,live)", List.of("-agentpath:" + lib
                + "=start,event=cpu,interval=10000000,alloc=524288,live,jfr,file=" + work.resolve("ap.jfr")));

        Map<String, double[]> results = new LinkedHashMap<>();
        configs.keySet().forEach(k -> results.put(k, new double[runs]));
        for (int run = 0; run < runs; run++) {
            for (Map.Entry<String, List<String>> c : configs.entrySet()) {
                double rate = runChild(c.getValue(), orders);
                results.get(c.getKey())[run] = rate;
                System.out.printf("run %d  %-44s %,10.0f orders/s%n", run + 1, c.getKey(), rate);
            }
        }
        double base = median(results.get("no agent"));
        System.out.println();
        System.out.printf("%-44s %14s %10s%n", "configuration", "median/s", "vs none");
        for (Map.Entry<String, double[]> r : results.entrySet()) {
            double m = median(r.getValue());
            System.out.printf("%-44s %,14.0f %9.3fx  (overhead %+.1f %%)%n", r.getKey(), m, m / base, 100 * (1 - m / base));
        }
        double agent = median(results.get(AGENT));
        System.out.printf("%nagent vs JDK JFR profile: %.3fx, agent vs async-profiler alone: %.3fx%n",
                agent / median(results.get("JDK JFR settings=profile")), agent / median(results.get("async-profiler (cpu=10ms,alloc=512k,live)")));
    }

    private static double runChild(List<String> jvmArgs, long orders) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.add("-Xmx512m");
        cmd.addAll(jvmArgs);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), OverheadBenchmark.class.getName(), "child", String.valueOf(orders)));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(5, TimeUnit.MINUTES) || p.exitValue() != 0) {
            throw new IllegalStateException("benchmark child failed: " + out);
        }
        for (String line : out.split("\n")) {
            if (line.startsWith("RATE ")) {
                return Double.parseDouble(line.substring(5).trim().split(" ")[0]);
            }
        }
        throw new IllegalStateException("no rate in: " + out);
    }

    /** Fixed work: warm up for 3 s, then time a fixed number of checkouts. */
    private static void child(long orders) throws Exception {
        Class<?> c = Class.forName("org.jfrworkbench.samples.CheckoutService");
        var ctor = c.getDeclaredConstructor(boolean.class);
        ctor.setAccessible(true);
        Object service = ctor.newInstance(true);
        var next = c.getDeclaredMethod("nextOrder");
        var checkout = c.getDeclaredMethod("checkout", String.class);
        next.setAccessible(true);
        checkout.setAccessible(true);
        long sink = 0;
        long warmEnd = System.nanoTime() + 3_000_000_000L;
        while (System.nanoTime() < warmEnd) {
            sink += (long) checkout.invoke(service, next.invoke(service));
        }
        long t0 = System.nanoTime();
        for (long i = 0; i < orders; i++) {
            sink += (long) checkout.invoke(service, next.invoke(service));
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        System.out.println("RATE " + (orders / seconds) + " (" + sink + ")");
    }

    private static Path extractProfiler(Path agentJar, Path dir) throws IOException {
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

    private static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
