package org.jfrworkbench.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import org.jfrworkbench.testkit.agent.AgentChunks;
import org.jfrworkbench.testkit.process.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The agent's CPU samples must show a workload's known CPU split (60/30/10 %) within 3 points, whatever samples them. */
class CpuShareIT {
    private static final String[] METHODS = {"sixty", "thirty", "ten"};

    @TempDir
    Path tmp;

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"async", "jfr"})
    void cpuSharesMatchTheKnownSplit(String engine) throws Exception {
        String out = record(ChildJvm.jdk("25"), "engine=" + engine, SAMPLES);
        assertTrue(out.contains(engine.equals("jfr") ? "JDK Flight Recorder" : "cpu=cpu"), out);
        assertKnownSplit();
    }

    @Test
    void itimerCanBeChosenAndShowsTheSameSplit() throws Exception {
        String out = record(ChildJvm.jdk("25"), "engine=async,cpu-engine=itimer", SAMPLES);
        assertTrue(out.contains("cpu=itimer"), out);
        assertKnownSplit();
    }

    /**
     * ctimer's split is checked where the agent falls back to it (below): chosen by name it only has to be the engine
     * that samples, which a few hundred samples show without a second recording of thousands.
     */
    @Test
    void ctimerCanBeChosen() throws Exception {
        String out = record(ChildJvm.jdk("25"), "engine=async,cpu-engine=ctimer", 200);
        assertTrue(out.contains("cpu=ctimer"), out);
        assertTrue(total(split(AgentChunks.chunks(tmp.resolve("rec")))) >= 200);
    }

    /** A JVM whose perf_event_open calls are refused (as in many containers) still gets cpu samples, from ctimer. */
    @Test
    void withoutPerfEventsTheAgentFallsBackToCtimerAndSaysSo() throws Exception {
        ChildJvm jvm = ChildJvm.jdk("25").withEnvironment("LD_PRELOAD", refusePerfEventsLibrary().toString());
        String out = record(jvm, "engine=async", SAMPLES);
        assertTrue(out.contains("perf_events unavailable") && out.contains("falling back to 'ctimer'"), out);
        assertTrue(out.contains("cpu=ctimer"), out);
        assertKnownSplit();
    }

    /**
     * Samples in the three methods: 3,500 or more, so sampling noise alone (binomial, one sigma at most 0.8 points for
     * the 30 % method) stays well inside the 3-point bound.
     */
    private static final int SAMPLES = 3500;

    /**
     * Records CPU sampled every millisecond until the closed chunks hold that many samples of the three methods
     * ({@link #SAMPLES} for a split): perf_events and JFR get about
     * 900 samples per CPU second, CPU timers (which tick with the kernel's clock, 250 Hz here) about 230, and a busy
     * machine gives the workload fewer CPU seconds per second. {@code spin} is kept out of line, so the three methods
     * run the same compiled loop and their time stays proportional to their iterations whatever the JIT does with each
     * caller. (At 5 ms and 1,475 samples, with spin inlined, one run put the 30 % method at 26.5 %.)
     */
    private String record(ChildJvm jvm, String options, int samples) throws Exception {
        Path dir = tmp.resolve("rec");
        Path log = tmp.resolve("out.log");
        Process app = jvm.start("dir=" + dir + "," + options + ",cpu=1ms,interval=2s",
                List.of("-XX:CompileCommand=quiet", "-XX:CompileCommand=dontinline,org.jfrworkbench.samples.CpuSplit::spin"),
                log, "org.jfrworkbench.samples.CpuSplit", "stdin");
        AgentChunks.awaitChunks(app, log, dir, closed -> total(split(closed)) >= samples);
        return ChildJvm.stop(app, log);
    }

    private void assertKnownSplit() throws Exception {
        long[] counts = split(AgentChunks.chunks(tmp.resolve("rec")));
        long total = total(counts);
        System.out.printf("cpu split: %d samples, %.1f / %.1f / %.1f %%%n", total, 100.0 * counts[0] / total,
                100.0 * counts[1] / total, 100.0 * counts[2] / total);
        assertTrue(total >= SAMPLES, "enough samples: " + total);
        double[] expected = {60, 30, 10};
        for (int i = 0; i < 3; i++) {
            double share = 100.0 * counts[i] / total;
            assertEquals(expected[i], share, 3.0, METHODS[i] + " share (" + counts[i] + " of " + total + ")");
        }
    }

    private static long total(long[] counts) {
        return counts[0] + counts[1] + counts[2];
    }

    /** CPU samples whose innermost CpuSplit frame is sixty, thirty or ten. */
    private static long[] split(List<Path> chunks) throws Exception {
        long[] counts = new long[3];
        for (RecordedEvent e : AgentChunks.events(chunks)) {
            if (!e.getEventType().getName().equals("jdk.ExecutionSample") || e.getStackTrace() == null) {
                continue;
            }
            for (RecordedFrame f : e.getStackTrace().getFrames()) {
                if (f.getMethod().getType().getName().equals("org.jfrworkbench.samples.CpuSplit")) {
                    int i = List.of(METHODS).indexOf(f.getMethod().getName());
                    if (i >= 0) {
                        counts[i]++;
                        break;
                    }
                }
            }
        }
        return counts;
    }

    /** Builds the LD_PRELOAD library from src/test/resources with the system's C compiler; skips where there is none. */
    private Path refusePerfEventsLibrary() throws Exception {
        Path source = tmp.resolve("refuse-perf-events.c");
        try (InputStream in = CpuShareIT.class.getResourceAsStream("/refuse-perf-events.c")) {
            Files.copy(in, source);
        }
        Path library = tmp.resolve("librefuse-perf-events.so");
        Process cc;
        try {
            cc = new ProcessBuilder("cc", "-shared", "-fPIC", "-O2", "-o", library.toString(), source.toString(), "-ldl")
                    .redirectErrorStream(true).start();
        } catch (java.io.IOException e) {
            assumeTrue(false, "no C compiler (cc) to build the perf-refusing library: " + e.getMessage());
            throw e;
        }
        String log = new String(cc.getInputStream().readAllBytes());
        assertTrue(cc.waitFor(ChildJvm.STUCK_SECONDS, TimeUnit.SECONDS) && cc.exitValue() == 0, "cc failed: " + log);
        return library;
    }
}
