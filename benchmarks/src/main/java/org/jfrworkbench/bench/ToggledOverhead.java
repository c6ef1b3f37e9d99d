package org.jfrworkbench.bench;

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
 * <p>With {@code -Dbench.reference=true} (and this process pinned to one CPU, e.g. {@code taskset -c 1}) a second JVM
 * without any agent runs the same workload beside each configuration's JVM on that CPU, phase for phase (both count
 * their phases from one wall-clock moment), and every phase's figures are taken relative to the reference's in the same
 * seconds. The two JVMs take turns on the CPU every few milliseconds, so a change of the machine's speed at any time
 * scale hits both alike and cancels; the CPU time per order is then the figure to read (the throughput of two JVMs
 * sharing a CPU also depends on how the scheduler splits it between their threads). Sampling that the agent paces by
 * the wall clock (its allocation target per second, heap summaries, the JDK's periodic events) then comes about twice
 * as often per order as on a CPU of its own, which makes the agent's figure, if anything, too high.
 *
 * <pre>[JAVA_OPTS=-Dbench.reference=true] [taskset -c 1] benchmarks/run.sh ToggledOverhead AGENT_JAR [ON_PHASES] [CONFIG...]</pre>
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
                : List.of("agent:", "none:", "jfr:profile", "ap:event=cpu,interval=10ms,alloc=16m,live");
        for (String spec : specs) {
            String kind = spec.contains(":") ? spec.substring(0, spec.indexOf(':')) : spec;
            if (!List.of("agent", "ap", "jfr", "none").contains(kind)) {
                System.err.println("a configuration is agent:OPTIONS, ap:OPTIONS, jfr:SETTINGS or none:, not '" + spec + "'");
                System.exit(2);
            }
        }
        boolean reference = OverheadBenchmark.referenceOnOneCpu();
        Path work = Files.createTempDirectory("workbench-toggled");
        System.out.printf("one JVM per configuration%s, switched on and off %d times; warm-up %.0f s, each phase %.0f s settling + %.0f s counted; extra JVM args %s; recordings in %s%n",
                reference ? " beside a no-agent reference JVM on the same CPU" : "", onPhases, warmup, settle, window, extra, work);
        Path lib = OverheadBenchmark.extractProfiler(agentJar, work);

        // per configuration: {throughput on/off, process CPU per order off/on, application thread CPU per order off/on}
        Map<String, double[][]> ratios = new LinkedHashMap<>();
        for (String spec : specs) {
            // both JVMs count their phases from the same moment, a little after both have started
            long startMillis = System.currentTimeMillis() + 3000;
            List<String> childArgs = List.of(agentJar.toString(), lib.toString(), String.valueOf(startMillis),
                    String.valueOf(warmup), String.valueOf(settle), String.valueOf(window), String.valueOf(onPhases));
            Process subject = startChild(extra, spec, work.resolve("out" + ratios.size()), childArgs, work.resolve("child.log"));
            Process ref = reference ? startChild(extra, "none:", work.resolve("ref" + ratios.size()), childArgs, work.resolve("ref.log")) : null;
            long limitSeconds = (long) (3 + warmup + (2 * onPhases + 1) * (settle + window)) + 120;
            List<double[]> phases;
            List<double[]> refPhases;
            try {
                phases = phases(subject, work.resolve("child.log"), spec, limitSeconds, onPhases);
                refPhases = ref == null ? null : phases(ref, work.resolve("ref.log"), "the reference JVM", limitSeconds, onPhases);
            } finally {
                subject.destroyForcibly();
                if (ref != null) {
                    ref.destroyForcibly();
                }
            }
            List<double[]> off = new ArrayList<>();
            List<double[]> on = new ArrayList<>();
            for (int i = 0; i < phases.size(); i++) {
                double[] r = phases.get(i);
                String state = i % 2 == 0 ? "off" : "on";
                System.out.printf("%-45s %-3s %,10.0f orders/s %,8.0f cpu-ns/order (app thread %,8.0f) %4.0f GCs", spec, state, r[0], r[1], r[2], r[3]);
                (i % 2 == 0 ? off : on).add(OverheadBenchmark.relative(r, refPhases == null ? null : refPhases.get(i)));
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

    private static Process startChild(List<String> extra, String spec, Path out, List<String> args, Path log) throws Exception {
        List<String> jvmArgs = new ArrayList<>(extra);
        jvmArgs.add("-Djdk.attach.allowAttachSelf=true");
        List<String> childArgs = new ArrayList<>(List.of("child", spec, out.toString()));
        childArgs.addAll(args);
        List<String> cmd = OverheadBenchmark.childCommand(jvmArgs, ToggledOverhead.class, childArgs);
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    /** A child's phases in order (off, on, off, ..., off), each {orders/s, process CPU ns/order, app thread CPU ns/order, GCs}. */
    private static List<double[]> phases(Process p, Path log, String what, long limitSeconds, int onPhases) throws Exception {
        boolean done = p.waitFor(limitSeconds, TimeUnit.SECONDS);
        if (!done) {
            p.destroyForcibly();
        }
        String out = Files.readString(log);
        if (!done || p.exitValue() != 0) {
            throw new IllegalStateException("benchmark child for " + what + " failed: " + out);
        }
        List<double[]> phases = new ArrayList<>();
        for (String line : out.split("\n")) {
            if (line.startsWith("PHASE ")) {
                String[] f = line.substring(6).trim().split(" ");
                if (!f[0].equals(phases.size() % 2 == 0 ? "off" : "on")) {
                    throw new IllegalStateException("phases out of order from " + what + ": " + out);
                }
                phases.add(new double[] {Double.parseDouble(f[1]), Double.parseDouble(f[2]), Double.parseDouble(f[3]), Double.parseDouble(f[4])});
            }
        }
        if (phases.size() != 2 * onPhases + 1) {
            throw new IllegalStateException("expected " + onPhases + " on-phases between " + (onPhases + 1) + " off-phases from " + what + ": " + out);
        }
        return phases;
    }

    private static void child(String[] a) throws Throwable {
        String spec = a[1];
        String out = a[2];
        String agentJar = a[3];
        String lib = a[4];
        long startMillis = Long.parseLong(a[5]);
        long warmup = (long) (Double.parseDouble(a[6]) * 1e9);
        long settle = (long) (Double.parseDouble(a[7]) * 1e9);
        long window = (long) (Double.parseDouble(a[8]) * 1e9);
        int onPhases = Integer.parseInt(a[9]);
        Switch sw = switchFor(spec, agentJar, lib, out);
        // phase boundaries on this JVM's nanoTime clock, counted from the wall-clock moment the parent chose
        long t = OverheadBenchmark.nanoTimeAt(startMillis) + warmup;
        Object service = OverheadBenchmark.NEW.invoke(true);
        OverheadBenchmark.runUntil(service, t);
        for (int phase = 0; phase <= 2 * onPhases; phase++) {
            boolean on = phase % 2 == 1;
            if (on) {
                sw.on(phase / 2);
            } else if (phase > 0) {
                sw.off();
            }
            OverheadBenchmark.runUntil(service, t + settle);
            print(on ? "on" : "off", OverheadBenchmark.measureUntil(service, t + settle + window));
            t += settle + window;
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

    interface VmCall {
        void call(VirtualMachine vm) throws Exception;
    }

    /** Attaches to this very JVM (allowed by {@code -Djdk.attach.allowAttachSelf=true}), as an operator's tool would. */
    static void attach(VmCall call) throws Exception {
        VirtualMachine vm = VirtualMachine.attach(String.valueOf(ProcessHandle.current().pid()));
        try {
            call.call(vm);
        } finally {
            vm.detach();
        }
    }
}
