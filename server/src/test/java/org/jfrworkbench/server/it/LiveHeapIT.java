package org.jfrworkbench.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.jfrworkbench.analysis.LiveHeapQuery;
import org.jfrworkbench.analysis.ProfileData;
import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.model.GcEvent;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.server.library.RecordingLibrary;
import org.jfrworkbench.testkit.process.ChildJvm;
import org.jfrworkbench.testkit.process.ClassHistogram;
import org.jfrworkbench.testkit.workload.RetainingWorkload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live-heap estimate against the truth: a child JVM retains a known mix of arrays while async-profiler
 * records alloc + live samples; {@code jcmd GC.class_histogram} runs a full GC and counts the live heap exactly.
 * The estimate at that same GC must be within 15 % of the histogram for each retained class.
 */
class LiveHeapIT {
    @TempDir
    Path dir;

    @Test
    void liveHeapEstimateAtAGcMatchesTheClassHistogramOfThatGc() throws Exception {
        Path jfr = dir.resolve("live.jfr");
        // output to a pipe: the workload says READY <pid> when its objects are in place (after any JVM warning)
        Process child = ChildJvm.current().launch(List.of("-Xmx1g", "-Xmn32m", "-XX:+UseG1GC",
                "-cp", System.getProperty("java.class.path"), RetainingWorkload.class.getName(), jfr.toString()), null);
        Map<String, Long> histogram;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String ready = lineStarting(out, "READY ");
            String pid = ready.substring(6).trim();
            histogram = ClassHistogram.of(Path.of(System.getProperty("java.home")), pid);
            child.getOutputStream().write('\n');
            child.getOutputStream().flush();
            lineStarting(out, "DONE");
        } finally {
            child.waitFor(60, TimeUnit.SECONDS);
            child.destroyForcibly();
        }

        try (RecordingLibrary library = RecordingLibrary.open(dir.resolve("data"), new Importer(), Long.MAX_VALUE)) {
            String id = library.importFile(jfr, "live.jfr", Map.of(), Kind.CPU).info().id();
            ProfileData data = library.load(id);
            List<GcEvent> gcs = data.profile().heap().gcs();
            int histogramGc = -1;
            for (int i = 0; i < gcs.size(); i++) {
                if (String.valueOf(gcs.get(i).cause()).contains("Heap Inspection")) {
                    histogramGc = i;
                }
            }
            assertTrue(histogramGc >= 0, "the recording holds the histogram's GC: " + gcs);
            LiveHeapQuery.LiveHeap live = LiveHeapQuery.at(data, histogramGc, false);
            Map<String, LiveHeapQuery.ClassShare> estimate = new HashMap<>();
            live.byClass().forEach(c -> estimate.put(c.className(), c));
            System.out.printf("live heap at GC %d (used after %d bytes, %d live samples):%n", histogramGc,
                    live.usedAfter(), live.liveSamples());
            for (String cls : List.of("byte[]", "long[]", "int[]")) {
                long truth = histogram.getOrDefault(cls, 0L);
                LiveHeapQuery.ClassShare est = estimate.get(cls);
                assertTrue(est != null, cls + " has live samples; estimated classes: " + estimate.keySet());
                double error = (double) (est.bytes() - truth) / truth;
                System.out.printf("  %-8s estimate %,12d B (%5d samples)  histogram %,12d B  error %+.1f %%%n",
                        cls, est.bytes(), est.samples(), truth, error * 100);
                assertTrue(Math.abs(error) <= 0.15, cls + ": estimate " + est.bytes() + " vs histogram " + truth);
            }
        }
    }

    /** The child's next output line that starts with prefix; the lines before it (the JVM's warnings) are skipped. */
    private static String lineStarting(BufferedReader out, String prefix) throws java.io.IOException {
        StringBuilder skipped = new StringBuilder();
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            if (line.startsWith(prefix)) {
                return line;
            }
            skipped.append(line).append('\n');
        }
        throw new AssertionError("the workload ended without '" + prefix + "': " + skipped);
    }
}
