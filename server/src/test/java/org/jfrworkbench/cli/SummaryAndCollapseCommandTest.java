package org.jfrworkbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import picocli.CommandLine;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code workbench summary} and {@code workbench collapse} run in-process on a recording made by this JVM. */
class SummaryAndCollapseCommandTest {
    @TempDir
    static Path dir;
    static Path recording;
    static volatile Object sink;

    record Run(int exit, String out, String err) {
    }

    @BeforeAll
    static void record() throws Exception {
        recording = dir.resolve("self.jfr");
        try (Recording r = new Recording()) {
            r.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
            r.enable("jdk.ObjectAllocationSample").with("throttle", "1000/s");
            r.enable("jdk.JavaMonitorEnter").withThreshold(Duration.ZERO).withStackTrace();
            r.enable("jdk.GarbageCollection");
            r.enable("jdk.GCHeapSummary");
            r.enable("jdk.JVMInformation");
            r.start();
            Object lock = new Object();
            long end = System.currentTimeMillis() + 1500;
            Runnable work = () -> {
                while (System.currentTimeMillis() < end) {
                    synchronized (lock) {
                        double x = 0;
                        for (int i = 0; i < 50_000; i++) {
                            x += Math.sqrt(i);
                        }
                        sink = new double[] {x};
                        sink = String.valueOf(x).repeat(100);
                    }
                }
            };
            Thread t = new Thread(work, "cli-test-worker");
            t.start();
            work.run();
            t.join();
            System.gc();
            r.stop();
            r.dump(recording);
        }
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new Workbench());
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        int exit = cli.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void summaryCountsEveryEventTypeLikeTheJdkParser() throws Exception {
        Run r = run("summary", recording.toString());
        assertEquals(0, r.exit(), r.err());
        assertEquals("", r.err());
        JsonNode json = new ObjectMapper().readTree(r.out());
        Map<String, Long> expected = new TreeMap<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(recording)) {
            expected.merge(e.getEventType().getName(), 1L, Long::sum);
        }
        Map<String, Long> actual = new TreeMap<>();
        json.get("sourceEvents").fields().forEachRemaining(f -> actual.put(f.getKey(), f.getValue().asLong()));
        assertEquals(expected, actual);
        assertEquals(1, json.get("chunks").asInt());
        assertTrue(json.get("startMillis").asLong() > 0);
        assertTrue(json.get("durationMillis").asLong() >= 1000);
        JsonNode cpu = json.get("kinds").get("cpu");
        assertEquals(expected.get("jdk.ExecutionSample").longValue(), cpu.get("samples").asLong());
        assertEquals("samples", cpu.get("unit").asText());
        assertEquals("bytes", json.get("kinds").get("alloc").get("unit").asText());
        assertTrue(json.get("warnings").isArray() && json.get("warnings").isEmpty());
        assertTrue(json.get("jvm").get("jvmVersion").asText().length() > 0);
    }

    @Test
    void collapseTotalsEqualTheSummaryWeights() throws Exception {
        JsonNode kinds = new ObjectMapper().readTree(run("summary", recording.toString()).out()).get("kinds");
        for (String kind : List.of("cpu", "alloc", "lock")) {
            Run r = run("collapse", recording.toString(), "--kind", kind);
            assertEquals(0, r.exit(), r.err());
            List<String> lines = r.out().lines().toList();
            assertFalse(lines.isEmpty(), kind);
            long total = 0;
            for (String line : lines) {
                int space = line.lastIndexOf(' ');
                assertTrue(space > 0, line);
                total += Long.parseLong(line.substring(space + 1));
            }
            assertEquals(kinds.get(kind).get("weight").asLong(), total, kind);
            assertEquals(lines.size(), lines.stream().map(l -> l.substring(0, l.lastIndexOf(' '))).distinct().count(),
                    "one line per distinct stack");
        }
        String cpu = run("collapse", recording.toString(), "--kind", "cpu").out();
        assertTrue(cpu.contains("SummaryAndCollapseCommandTest.lambda$record$0"), "frames are package.Class.method");
    }

    @Test
    void collapseHonoursTimeWindowLinesAndSignatures() {
        long all = sum(run("collapse", recording.toString(), "--kind", "cpu").out());
        long early = sum(run("collapse", recording.toString(), "--kind", "cpu", "--from", "0", "--to", "700").out());
        long late = sum(run("collapse", recording.toString(), "--kind", "cpu", "--from", "700").out());
        assertEquals(all, early + late);
        assertTrue(early > 0 && late > 0, early + " / " + late);
        String detailed = run("collapse", recording.toString(), "--kind", "cpu", "--lines", "--signatures").out();
        assertTrue(detailed.matches("(?s).*lambda\\$record\\$0\\([^)]*\\)V:\\d+.*"), detailed);
    }

    @Test
    void multiChunkFileCountsEveryChunk() throws Exception {
        Path twice = dir.resolve("twice.jfr");
        try (OutputStream o = Files.newOutputStream(twice)) {
            Files.copy(recording, o);
            Files.copy(recording, o);
        }
        JsonNode once = new ObjectMapper().readTree(run("summary", recording.toString()).out());
        JsonNode both = new ObjectMapper().readTree(run("summary", twice.toString()).out());
        assertEquals(2, both.get("chunks").asInt());
        once.get("sourceEvents").fields().forEachRemaining(f ->
                assertEquals(2 * f.getValue().asLong(), both.get("sourceEvents").get(f.getKey()).asLong(), f.getKey()));
    }

    @Test
    void truncatedSecondChunkIsAWarningNotAFailure() throws Exception {
        byte[] one = Files.readAllBytes(recording);
        byte[] cut = Arrays.copyOf(one, one.length + one.length / 2);
        System.arraycopy(one, 0, cut, one.length, one.length / 2);
        Path file = dir.resolve("cut.jfr");
        Files.write(file, cut);
        Run r = run("summary", file.toString());
        assertEquals(0, r.exit(), r.err());
        JsonNode warnings = new ObjectMapper().readTree(r.out()).get("warnings");
        assertEquals(1, warnings.size());
        assertTrue(warnings.get(0).asText().startsWith("chunk 2 truncated at offset " + cut.length + ":"), warnings.toString());
    }

    @Test
    void badInputFailsWithOneLineOnStderr() throws Exception {
        Path garbage = dir.resolve("garbage.bin");
        Files.write(garbage, new byte[] {1, 2, 3, 4, 5});
        Path truncated = dir.resolve("truncated.jfr");
        Files.write(truncated, Arrays.copyOf(Files.readAllBytes(recording), 5000));
        Path empty = Files.createFile(dir.resolve("empty.jfr"));
        for (Path p : List.of(garbage, truncated, empty, dir.resolve("missing.jfr"))) {
            for (String[] args : List.of(new String[] {"summary", p.toString()},
                    new String[] {"collapse", p.toString(), "--kind", "cpu"})) {
                Run r = run(args);
                assertEquals(1, r.exit(), p + ": " + r.err());
                assertEquals("", r.out());
                assertEquals(1, r.err().lines().count(), r.err());
                assertTrue(r.err().startsWith("error: "), r.err());
            }
        }
        assertTrue(run("summary", truncated.toString()).err().contains("at offset 5000: chunk truncated"));
        Run badKind = run("collapse", recording.toString(), "--kind", "heap");
        assertEquals(2, badKind.exit());
        assertTrue(badKind.err().contains("unknown kind 'heap'"), badKind.err());
    }

    private static long sum(String collapsed) {
        return collapsed.lines().mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }
}
