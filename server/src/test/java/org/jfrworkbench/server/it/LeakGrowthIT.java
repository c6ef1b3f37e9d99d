package org.jfrworkbench.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.jfrworkbench.analysis.HeapGrowthQuery;
import org.jfrworkbench.analysis.ProfileData;
import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.server.library.RecordingLibrary;
import org.jfrworkbench.testkit.process.ChildJvm;
import org.jfrworkbench.testkit.workload.LeakingWorkload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Growth on a real JVM: a child leaks objects through a cache while async-profiler records alloc + live samples and
 * the JDK its GCs; the leaking class must be the first suspect, with the cache's put in its stack.
 */
class LeakGrowthIT {
    @TempDir
    Path dir;

    /** compressed class pointers and oops (the default below 32 GB): an Entry is a 12-byte header and 16 longs */
    private static final long ENTRY_BYTES = 144;

    @Test
    void theClassAJvmLeaksIsTheFirstSuspectWithTheCallThatAllocatesIt() throws Exception {
        Path jfr = dir.resolve("leak.jfr");
        double truth = run(jfr, "-XX:+UseG1GC", "samples");
        try (RecordingLibrary library = RecordingLibrary.open(dir.resolve("data"), new Importer(), Long.MAX_VALUE)) {
            String id = library.importFile(jfr, "leak.jfr", Map.of(), Kind.CPU).info().id();
            ProfileData data = library.load(id);
            HeapGrowthQuery.Growth growth = new HeapGrowthQuery(5).run(data);
            System.out.println("LeakGrowthIT: " + growth.gcs().size() + " GCs, warnings " + growth.warnings());
            growth.suspects().forEach(s -> System.out.printf("  %s %.0f B/s confidence %.2f samples %d points %d%n",
                    s.className(), s.bytesPerSecond(), s.confidence(), s.samples(), s.points()));
            HeapGrowthQuery.Suspect first = growth.suspects().get(0);
            assertEquals(LeakingWorkload.class.getName() + "$Entry", first.className(), growth.suspects().toString());
            assertTrue(first.stack().stream().anyMatch(f -> f.endsWith("LeakingWorkload$Cache.put")), first.stack().toString());
            // the slope against the leak's mean rate: the fit is over GC times, the rate over the whole loop (whose
            // first rounds run before the JIT has compiled it), so they agree only roughly
            System.out.printf("LeakGrowthIT: slope %.0f B/s, the leak's mean rate %.0f B/s, ratio %.2f%n",
                    first.bytesPerSecond(), truth, first.bytesPerSecond() / truth);
            assertTrue(first.bytesPerSecond() > truth / 2 && first.bytesPerSecond() < truth * 2, first + " against " + truth);
        }
    }

    /**
     * The same leak recorded by the JDK's recorder with the JVM's count by class after each full collection and no
     * sample: the counts alone name the leaking class first, and its last figure is the last count's.
     */
    @Test
    void aRecordingOfTheJvmsCountsAloneNamesTheLeakingClassFirst() throws Exception {
        Path jfr = dir.resolve("counts.jfr");
        double truth = run(jfr, "-XX:+UseParallelGC", "counts");
        try (RecordingLibrary library = RecordingLibrary.open(dir.resolve("data"), new Importer(), Long.MAX_VALUE)) {
            ProfileData data = library.load(library.importFile(jfr, "counts.jfr", Map.of(), Kind.CPU).info().id());
            HeapGrowthQuery.Growth growth = new HeapGrowthQuery(5).run(data);
            growth.suspects().forEach(s -> System.out.printf("  %s %.0f B/s confidence %.2f counted at %d of %d GCs%n",
                    s.className(), s.bytesPerSecond(), s.confidence(), s.countedPoints(), s.points()));
            HeapGrowthQuery.Suspect first = growth.suspects().get(0);
            assertEquals(LeakingWorkload.class.getName() + "$Entry", first.className(), growth.suspects().toString());
            assertEquals(0, first.samples());
            assertTrue(first.countedPoints() >= 3, first.toString());
            long lastCount = data.profile().heap().classCounts().stream()
                    .filter(c -> c.className().equals(first.className()))
                    .reduce((a, b) -> b).orElseThrow().bytes();
            assertEquals(lastCount, first.lastBytes(), first.toString());
            System.out.printf("LeakGrowthIT (counts): slope %.0f B/s, the leak's mean rate %.0f B/s, ratio %.2f%n",
                    first.bytesPerSecond(), truth, first.bytesPerSecond() / truth);
            assertTrue(first.bytesPerSecond() > truth / 2 && first.bytesPerSecond() < truth * 2, first + " against " + truth);
        }
    }

    /** Runs the leaking child into jfr; returns the leak's mean rate in bytes per second. */
    private static double run(Path jfr, String collector, String mode) throws Exception {
        Process child = ChildJvm.current().launch(List.of("-Xmx512m", "-Xmn16m", collector,
                "-cp", System.getProperty("java.class.path"), LeakingWorkload.class.getName(), jfr.toString(), mode), null);
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null && !line.startsWith("DONE")) {
                System.out.println("child: " + line);
            }
            assertTrue(line != null, "the child ended without DONE");
            String[] done = line.split(" ");
            return Long.parseLong(done[2]) * ENTRY_BYTES / (Long.parseLong(done[3]) / 1e9);
        } finally {
            child.waitFor(60, TimeUnit.SECONDS);
            child.destroyForcibly();
        }
    }
}
