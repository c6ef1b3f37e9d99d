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
        Process child = ChildJvm.current().launch(List.of("-Xmx512m", "-Xmn16m", "-XX:+UseG1GC",
                "-cp", System.getProperty("java.class.path"), LeakingWorkload.class.getName(), jfr.toString()), null);
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null && !line.startsWith("DONE")) {
                System.out.println("child: " + line);
            }
            assertTrue(line != null, "the child ended without DONE");
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
            assertTrue(first.bytesPerSecond() > 0, first.toString());
        }
    }
}
