package org.jfrworkbench.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.jfrworkbench.testkit.process.ChildJvm;

/**
 * What the agent's {@code heap-count} option costs in GC pauses: a child JVM ({@code HeldObjects} in sample-recordings)
 * holds a number of small live objects ({@code new Object()}, 16 bytes each, in one array) and calls {@code System.gc()}
 * (a full collection, which writes the count when it is enabled) every {@code bench.every} seconds for
 * {@code bench.seconds}, with the agent sampling nothing
 * ({@code cpu=off,alloc=off,live=false}: the GC pauses are all that differs) at each {@code heap-count} mode in turn,
 * fresh JVM each. Prints per run the full collections, the GCs the JVM counted (from the chunks), the median and mean
 * duration of the counted and of the other full collections (jdk.GarbageCollection) and the process's CPU time around
 * each (the JVM does nothing else meanwhile), the time of all collections (the collectors' beans) and the JVM's CPU
 * time, both over the collecting loop.
 *
 * <pre>benchmarks/run.sh HeapCountCost [OBJECTS...]</pre>
 *
 * OBJECTS (default {@code 5000000 20000000}). System properties: {@code bench.jdks} (default {@code 25}),
 * {@code bench.gcs} ({@code G1,Parallel}), {@code bench.modes} ({@code false,auto,true}), {@code bench.rounds} (2, the
 * modes interleaved), {@code bench.seconds} (40), {@code bench.every} (2), {@code bench.interval} (the agent's chunk
 * interval, {@code 10s}), {@code bench.heap} ({@code 3g}), {@code bench.agent} (more agent options),
 * {@code bench.out} ({@code benchmarks/target/heap-count-cost}), {@code bench.concurrent} ({@code true}: G1 with
 * {@code -XX:+ExplicitGCInvokesConcurrent}, each {@code System.gc()} a concurrent cycle, and its Remark pause, where the
 * count is written, measured in place of the full collection).
 */
public final class HeapCountCost {
    private HeapCountCost() {
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("agent.jar", System.getProperty("agent.jar", "agent/target/workbench-agent.jar"));
        List<Long> sizes = new ArrayList<>();
        for (String a : args.length > 0 ? args : new String[] {"5000000", "20000000"}) {
            sizes.add(Long.parseLong(a));
        }
        List<String> jdks = List.of(System.getProperty("bench.jdks", "25").split(","));
        List<String> gcs = List.of(System.getProperty("bench.gcs", "G1,Parallel").split(","));
        List<String> modes = List.of(System.getProperty("bench.modes", "false,auto,true").split(","));
        int rounds = Integer.getInteger("bench.rounds", 2);
        long seconds = Long.getLong("bench.seconds", 40);
        long every = Long.getLong("bench.every", 2);
        String interval = System.getProperty("bench.interval", "10s");
        String heap = System.getProperty("bench.heap", "3g");
        String extra = System.getProperty("bench.agent", "");
        boolean concurrent = Boolean.getBoolean("bench.concurrent");
        Path out = Path.of(System.getProperty("bench.out", "benchmarks/target/heap-count-cost")).toAbsolutePath();
        List<String> summary = new ArrayList<>();
        for (String jdk : jdks) {
            for (String gc : gcs) {
                for (long objects : sizes) {
                    for (int round = 0; round < rounds; round++) {
                        for (String mode : modes) {
                            String name = String.format(Locale.ROOT, "jdk%s %-8s %,11d objects heap-count=%-5s", jdk, gc, objects, mode);
                            try {
                                summary.add(name + " " + run(ChildJvm.jdk(jdk), gc, objects, mode, seconds, every, interval, heap, extra, concurrent,
                                        out.resolve("jdk" + jdk + "-" + gc + "-" + objects + "-" + mode + "-" + round)));
                            } catch (Exception e) {
                                summary.add(name + " failed: " + e);
                            }
                            System.out.println(summary.get(summary.size() - 1));
                        }
                    }
                }
            }
        }
        System.out.println();
        summary.forEach(System.out::println);
    }

    private static String run(ChildJvm jvm, String gc, long objects, String mode, long seconds, long every, String interval,
                              String heap, String extra, boolean concurrent, Path dir) throws Exception {
        deleteTree(dir);
        Files.createDirectories(dir);
        String options = "dir=" + dir + ",cpu=off,alloc=off,live=false,interval=" + interval + ",heap-count=" + mode
                + (extra.isEmpty() ? "" : "," + extra);
        List<String> command = new ArrayList<>(List.of("-Xms" + heap, "-Xmx" + heap, "-XX:+Use" + gc + "GC"));
        if (concurrent) {
            command.add("-XX:+ExplicitGCInvokesConcurrent");
        }
        command.addAll(List.of(ChildJvm.agent(options), "-cp", System.getProperty("java.class.path"),
                "org.jfrworkbench.samples.HeldObjects", String.valueOf(objects), String.valueOf(seconds), String.valueOf(every)));
        Process child = jvm.launch(command, null);
        String result;
        try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            result = null;
            StringBuilder all = new StringBuilder();
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                all.append(line).append('\n');
                if (line.startsWith("RESULT ")) {
                    result = line;
                }
            }
            if (!child.waitFor(ChildJvm.STUCK_SECONDS, TimeUnit.SECONDS)) {
                child.destroyForcibly();
                throw new IllegalStateException("the child did not exit");
            }
            if (result == null) {
                throw new IllegalStateException("no result: " + all);
            }
        }
        // RESULT totalPauseMillis cpuMillis | the CPU time of each System.gc() in microseconds, in order
        String[] parts = result.substring(7).split(" \\| ");
        String[] totals = parts[0].trim().split(" ");
        List<Long> cpuMicros = new ArrayList<>();
        for (String t : parts.length > 1 ? parts[1].trim().split(" ") : new String[0]) {
            if (!t.isEmpty()) {
                cpuMicros.add(Long.parseLong(t));
            }
        }
        List<Long> countedMicros = new ArrayList<>();
        List<Long> otherMicros = new ArrayList<>();
        List<Long> countedCpu = new ArrayList<>();
        List<Long> otherCpu = new ArrayList<>();
        fullGcs(dir, concurrent, cpuMicros, countedMicros, otherMicros, countedCpu, otherCpu);
        return String.format(Locale.ROOT, "%2d " + (concurrent ? "remarks" : "full GCs") + " (%d called), %2d counted: duration counted %s, others %s; CPU time counted %s,"
                        + " others %s; all GCs' time %,6d ms, the JVM's CPU %,6d ms",
                countedMicros.size() + otherMicros.size(), cpuMicros.size(), countedMicros.size(), stats(countedMicros), stats(otherMicros),
                stats(countedCpu), stats(otherCpu), Long.parseLong(totals[0]), Long.parseLong(totals[1]));
    }

    private static String stats(List<Long> micros) {
        if (micros.isEmpty()) {
            return String.format(Locale.ROOT, "%29s", "-");
        }
        List<Long> sorted = new ArrayList<>(micros);
        Collections.sort(sorted);
        double mean = sorted.stream().mapToLong(Long::longValue).average().orElse(0);
        return String.format(Locale.ROOT, "median %,5d ms mean %,5d ms", sorted.get(sorted.size() / 2) / 1000, (long) mean / 1000);
    }

    /**
     * The System.gc() full collections' durations in the chunks (concurrent: the Remark pauses of the cycles it started),
     * and the CPU time the child measured around each (in the same order, where as many: a concurrent cycle's is the
     * whole cycle's), split by whether the JVM counted the heap at them.
     */
    private static void fullGcs(Path dir, boolean concurrent, List<Long> cpuMicros, List<Long> countedMicros, List<Long> otherMicros,
                                List<Long> countedCpu, List<Long> otherCpu) throws Exception {
        List<Path> chunks;
        try (Stream<Path> s = Files.list(dir)) {
            chunks = s.filter(p -> p.getFileName().toString().endsWith(".jfr")).sorted().toList();
        }
        Set<Long> ids = new HashSet<>();
        List<RecordedEvent> collections = new ArrayList<>();
        for (Path chunk : chunks) {
            for (RecordedEvent e : RecordingFile.readAllEvents(chunk)) {
                if (e.getEventType().getName().equals("jdk.ObjectCountAfterGC")) {
                    ids.add(e.getLong("gcId"));
                } else if (concurrent ? e.getEventType().getName().equals("jdk.GCPhasePause") && "Pause Remark".equals(e.getString("name"))
                        : e.getEventType().getName().equals("jdk.GarbageCollection") && "System.gc()".equals(e.getString("cause"))
                        && List.of("G1Full", "ParallelOld", "SerialOld").contains(e.getString("name"))) {
                    collections.add(e);
                }
            }
        }
        collections.sort(Comparator.comparing(RecordedEvent::getStartTime));
        boolean paired = collections.size() == cpuMicros.size();
        for (int i = 0; i < collections.size(); i++) {
            RecordedEvent e = collections.get(i);
            boolean counted = ids.contains(e.getLong("gcId"));
            (counted ? countedMicros : otherMicros).add(e.getDuration().toNanos() / 1000);
            if (paired) {
                (counted ? countedCpu : otherCpu).add(cpuMicros.get(i));
            }
        }
    }

    private static void deleteTree(Path dir) throws Exception {
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
