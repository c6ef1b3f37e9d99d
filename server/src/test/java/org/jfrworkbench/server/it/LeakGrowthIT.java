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

    @Test
    void theClassAJvmLeaksIsTheFirstSuspectWithTheCallThatAllocatesIt() throws Exception {
        Path jfr = dir.resolve("leak.jfr");
        // compressed class pointers and oops (the default below 32 GB): an Entry is a 12-byte header and 16 longs
        long entryBytes = 144;
        Process child = ChildJvm.current().launch(List.of("-Xmx512m", "-Xmn16m", "-XX:+UseG1GC",
                "-cp", System.getProperty("java.class.path"), LeakingWorkload.class.getName(), jfr.toString()), null);
        double truth;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null && !line.startsWith("DONE")) {
                System.out.println("child: " + line);
            }
            assertTrue(line != null, "the child ended without DONE");
            String[] done = line.split(" ");
            truth = Long.parseLong(done[2]) * entryBytes / (Long.parseLong(done[3]) / 1e9);
        } finally {
            child.waitFor(60, TimeUnit.SECONDS);
            child.destroyForcibly();
        }
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
}
