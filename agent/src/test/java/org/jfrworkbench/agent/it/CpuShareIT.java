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
        String out = record(ChildJvm.jdk("25"), "engine=" + engine, 8);
        assertTrue(out.contains(engine.equals("jfr") ? "JDK Flight Recorder" : "cpu=cpu"), out);
        assertKnownSplit();
    }

    @ParameterizedTest(name = "cpu-engine={0}")
    @ValueSource(strings = {"itimer", "ctimer"})
    void aTimerEngineCanBeChosenAndShowsTheSameSplit(String cpuEngine) throws Exception {
        String out = record(ChildJvm.jdk("25"), "engine=async,cpu-engine=" + cpuEngine, TIMER_SECONDS);
        assertTrue(out.contains("cpu=" + cpuEngine), out);
        assertKnownSplit();
    }

    /** A JVM whose perf_event_open calls are refused (as in many containers) still gets cpu samples, from ctimer. */
    @Test
    void withoutPerfEventsTheAgentFallsBackToCtimerAndSaysSo() throws Exception {
        ChildJvm jvm = ChildJvm.jdk("25").withEnvironment("LD_PRELOAD", refusePerfEventsLibrary().toString());
        String out = record(jvm, "engine=async", TIMER_SECONDS);
        assertTrue(out.contains("perf_events unavailable") && out.contains("falling back to 'ctimer'"), out);
        assertTrue(out.contains("cpu=ctimer"), out);
        assertKnownSplit();
    }

    /**
     * CPU timers tick with the kernel's clock (250 Hz here), not every millisecond: they get about 230 samples per
     * CPU second where perf_events and JFR get about 900, so they run longer for a like number of samples.
     */
    private static final int TIMER_SECONDS = 16;

    /**
     * {@code seconds} of CPU sampled every millisecond: 3,500 samples or more, so sampling noise alone (binomial,
     * one sigma at most 0.8 points for the 30 % method) stays well inside the 3-point bound. {@code spin} is kept out
     * of line, so the three methods run the same compiled loop and their time stays proportional to their iterations
     * whatever the JIT does with each caller. (At 5 ms and 1,475 samples, with spin inlined, one run put the 30 %
     * method at 26.5 %.)
     */
    private String record(ChildJvm jvm, String options, int seconds) throws Exception {
        return jvm.run("dir=" + tmp.resolve("rec") + "," + options + ",cpu=1ms,interval=60s",
                List.of("-XX:CompileCommand=quiet", "-XX:CompileCommand=dontinline,org.jfrworkbench.samples.CpuSplit::spin"),
                tmp.resolve("out.log"), "org.jfrworkbench.samples.CpuSplit", String.valueOf(seconds));
    }

    private void assertKnownSplit() throws Exception {
        long[] counts = new long[3];
        for (RecordedEvent e : AgentChunks.events(AgentChunks.chunks(tmp.resolve("rec")))) {
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
        long total = counts[0] + counts[1] + counts[2];
        System.out.printf("cpu split: %d samples, %.1f / %.1f / %.1f %%%n", total, 100.0 * counts[0] / total,
                100.0 * counts[1] / total, 100.0 * counts[2] / total);
        assertTrue(total > 3000, "enough samples: " + total);
        double[] expected = {60, 30, 10};
        for (int i = 0; i < 3; i++) {
            double share = 100.0 * counts[i] / total;
            assertEquals(expected[i], share, 3.0, METHODS[i] + " share (" + counts[i] + " of " + total + ")");
        }
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
        assertTrue(cc.waitFor(60, TimeUnit.SECONDS) && cc.exitValue() == 0, "cc failed: " + log);
        return library;
    }
}
