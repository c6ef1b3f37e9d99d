package org.jfrworkbench.samples.bench;

import com.sun.tools.attach.VirtualMachine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;

/**
 * Overhead measured inside one JVM: the checkout workload runs without interruption while a configuration is switched
 * on and off in turn (off, on, off, on, ..., off), and every on-phase is compared with the mean of the off-phases
 * just before and just after it. Sequential runs of fresh JVMs differ by the JIT's choices in each JVM and by the
 * machine's speed, which drifts by several per cent within minutes on a virtual machine; here both states share one
 * JVM's compiled code and a drift that is linear over the three phases cancels.
 *
 * <p>Switching: {@code agent:OPTIONS} loads the agent by dynamic attach and stops it with {@code stop}, as a user
 * would; {@code ap:OPTIONS} loads async-profiler by attach ({@code start,OPTIONS,jfr,file=...}, then {@code stop});
 * {@code jfr:SETTINGS} starts and stops a JDK recording with those settings, to disk; {@code none:} switches nothing
 * (the method's own noise). After a warm-up ({@code bench.warmup}, default 30 s), each phase first works
 * {@code bench.settle} seconds (default 15: past the agent's first chunk, which ends at 10 s, and the work of starting
 * or stopping), then counts orders for {@code bench.window} seconds (default 60: one chunk rotation falls into an
 * on-phase, as in steady state). What this cannot show is a lasting cost of having started the agent once, which the
 * fresh-JVM runs of {@link OverheadBenchmark} include.
 *
 * <pre>java -cp sample-recordings/target/classes org.jfrworkbench.samples.bench.ToggledOverhead AGENT_JAR [ON_PHASES] [CONFIG...]</pre>
 */
public final class ToggledOverhead {
    private ToggledOverhead() {
    }

    public static void main(String[] args) throws Throwable {
        if (args.length >= 1 && args[0].equals("child")) {
            child(args);
            return;
        }
        if (args.length < 1) {
            System.err.println("usage: ToggledOverhead AGENT_JAR [ON_PHASES] [agent:OPTIONS | ap:OPTIONS | jfr:SETTINGS | none: ...]");
            System.exit(2);
        }
        Path agentJar = Path.of(args[0]).toAbsolutePath();
        if (!Files.isRegularFile(agentJar)) {
            System.err.println("no agent jar at " + agentJar);
            System.exit(2);
        }
        int onPhases = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        if (onPhases < 1) {
            System.err.println("ON_PHASES must be at least 1, not " + onPhases);
            System.exit(2);
        }
        double warmup = Double.parseDouble(System.getProperty("bench.warmup", "30"));
        double settle = Double.parseDouble(System.getProperty("bench.settle", "15"));
        double window = Double.parseDouble(System.getProperty("bench.window", "60"));
        List<String> extra = OverheadBenchmark.extraJvmArgs();
        List<String> specs = args.length > 2 ? Arrays.asList(args).subList(2, args.length)
                : List.of("agent:", "none:", "jfr:profile", "ap:event=cpu,interval=10ms,alloc=8m,live");
        for (String spec : specs) {
            String kind = spec.contains(":") ? spec.substring(0, spec.indexOf(':')) : spec;
            if (!List.of("agent", "ap", "jfr", "none").contains(kind)) {
                System.err.println("a configuration is agent:OPTIONS, ap:OPTIONS, jfr:SETTINGS or none:, not '" + spec + "'");
                System.exit(2);
            }
        }
        Path work = Files.createTempDirectory("workbench-toggled");
        System.out.printf("one JVM per configuration, switched on and off %d times; warm-up %.0f s, each phase %.0f s settling + %.0f s counted; extra JVM args %s; recordings in %s%n",
                onPhases, warmup, settle, window, extra, work);
        Path lib = OverheadBenchmark.extractProfiler(agentJar, work);

        // per configuration: {throughput on/off, process CPU per order off/on, application thread CPU per order off/on}
        Map<String, double[][]> ratios = new LinkedHashMap<>();
        for (String spec : specs) {
            List<double[]> off = new ArrayList<>();
            List<double[]> on = new ArrayList<>();
            List<String> jvmArgs = new ArrayList<>(extra);
            jvmArgs.add("-Djdk.attach.allowAttachSelf=true");
            List<String> cmd = OverheadBenchmark.childCommand(jvmArgs, ToggledOverhead.class, List.of("child", spec,
                    agentJar.toString(), lib.toString(), work.resolve("out" + ratios.size()).toString(),
                    String.valueOf(warmup), String.valueOf(settle), String.valueOf(window), String.valueOf(onPhases)));
            Path log = work.resolve("child.log");
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            long limitSeconds = (long) (warmup + (2 * onPhases + 1) * (settle + window)) + 120;
            boolean done = p.waitFor(limitSeconds, TimeUnit.SECONDS);
            if (!done) {
                p.destroyForcibly();
            }
            String out = Files.readString(log);
            if (!done || p.exitValue() != 0) {
                throw new IllegalStateException("benchmark child for " + spec + " failed: " + out);
            }
            for (String line : out.split("\n")) {
                if (line.startsWith("PHASE ")) {
                    String[] f = line.substring(6).trim().split(" ");
                    double[] r = {Double.parseDouble(f[1]), Double.parseDouble(f[2]), Double.parseDouble(f[3]), Double.parseDouble(f[4])};
                    (f[0].equals("on") ? on : off).add(r);
                    System.out.printf("%-45s %-3s %,10.0f orders/s %,8.0f cpu-ns/order (app thread %,8.0f) %4.0f GCs%n", spec, f[0], r[0], r[1], r[2], r[3]);
                }
            }
            if (on.size() != onPhases || off.size() != onPhases + 1) {
                throw new IllegalStateException("expected " + onPhases + " on-phases between " + (onPhases + 1) + " off-phases from " + spec + ": " + out);
            }
            double[][] r = new double[3][onPhases];
            for (int i = 0; i < onPhases; i++) {
                double[] before = off.get(i);
                double[] after = off.get(i + 1);
                double[] during = on.get(i);
                r[0][i] = during[0] / ((before[0] + after[0]) / 2);
                r[1][i] = ((before[1] + after[1]) / 2) / during[1];
                r[2][i] = ((before[2] + after[2]) / 2) / during[2];
            }
            ratios.put(spec, r);
        }

        String[] titles = {"throughput, on/off", "process CPU time per order, off/on", "application thread CPU time per order, off/on"};
        for (int k = 0; k < 3; k++) {
            System.out.printf("%n%s (< 1 = overhead)%n%-45s %9s  %s%n", titles[k], "configuration", "median", "spread");
            for (Map.Entry<String, double[][]> e : ratios.entrySet()) {
                double[] v = e.getValue()[k];
                double m = OverheadBenchmark.median(v);
                System.out.printf("%-45s %8.3fx  %.3f..%.3f  (overhead %+.1f %%)%n", e.getKey(), m,
                        Arrays.stream(v).min().orElse(0), Arrays.stream(v).max().orElse(0), 100 * (1 - m));
            }
            int view = k;
            OverheadBenchmark.printAgentVsPeers(specs, spec -> OverheadBenchmark.median(ratios.get(spec)[view]));
        }
    }

    /** Switches one configuration on and off inside this JVM. */
    private interface Switch {
        void on(int phase) throws Exception;

        void off() throws Exception;
    }

    private static void child(String[] a) throws Throwable {
        String spec = a[1];
        String agentJar = a[2];
        String lib = a[3];
        String out = a[4];
        double warmup = Double.parseDouble(a[5]);
        double settle = Double.parseDouble(a[6]);
        double window = Double.parseDouble(a[7]);
        int onPhases = Integer.parseInt(a[8]);
        Switch sw = switchFor(spec, agentJar, lib, out);
        Object service = OverheadBenchmark.NEW.invoke(true);
        OverheadBenchmark.run(service, warmup);
        print("off", OverheadBenchmark.measure(service, window));
        for (int i = 0; i < onPhases; i++) {
            sw.on(i);
            OverheadBenchmark.run(service, settle);
            print("on", OverheadBenchmark.measure(service, window));
            sw.off();
            OverheadBenchmark.run(service, settle);
            print("off", OverheadBenchmark.measure(service, window));
        }
        System.out.println("done (" + OverheadBenchmark.sink + ")");
    }

    private static void print(String state, double[] r) {
        System.out.println("PHASE " + state + " " + r[0] + " " + r[1] + " " + r[2] + " " + r[3]);
    }

    private static Switch switchFor(String spec, String agentJar, String lib, String out) {
        int colon = spec.indexOf(':');
        String kind = colon < 0 ? spec : spec.substring(0, colon);
        String options = colon < 0 ? "" : spec.substring(colon + 1);
        return switch (kind) {
            case "agent" -> new Switch() {
                public void on(int phase) throws Exception {
                    attach(vm -> vm.loadAgent(agentJar, "dir=" + out + (options.isEmpty() ? "" : "," + options)));
                }

                public void off() throws Exception {
                    attach(vm -> vm.loadAgent(agentJar, "stop"));
                }
            };
            case "ap" -> new Switch() {
                public void on(int phase) throws Exception {
                    attach(vm -> vm.loadAgentPath(lib, "start," + options + ",jfr,file=" + out + "-" + phase + ".jfr"));
                }

                public void off() throws Exception {
                    attach(vm -> vm.loadAgentPath(lib, "stop"));
                }
            };
            case "jfr" -> new Switch() {
                private Recording recording;

                public void on(int phase) throws Exception {
                    recording = new Recording(Configuration.getConfiguration(options.isEmpty() ? "profile" : options));
                    recording.setDestination(Path.of(out + "-" + phase + ".jfr"));
                    recording.start();
                }

                public void off() {
                    recording.stop();
                    recording.close();
                }
            };
            case "none" -> new Switch() {
                public void on(int phase) {
                }

                public void off() {
                }
            };
            default -> throw new IllegalArgumentException("a configuration is agent:OPTIONS, ap:OPTIONS, jfr:SETTINGS or none:, not '" + spec + "'");
        };
    }

    private interface VmCall {
        void call(VirtualMachine vm) throws Exception;
    }

    /** Attaches to this very JVM (allowed by {@code -Djdk.attach.allowAttachSelf=true}), as an operator's tool would. */
    private static void attach(VmCall call) throws Exception {
        VirtualMachine vm = VirtualMachine.attach(String.valueOf(ProcessHandle.current().pid()));
        try {
            call.call(vm);
        } finally {
            vm.detach();
        }
    }
}
