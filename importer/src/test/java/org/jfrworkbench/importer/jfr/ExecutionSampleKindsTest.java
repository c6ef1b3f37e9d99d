package org.jfrworkbench.importer.jfr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.SampleTable;
import org.jfrworkbench.testkit.Recordings;
import org.junit.jupiter.api.Test;

/**
 * CPU is CPU: real recordings of every shape, their kinds, sources and thread states checked against the JDK's own
 * reader (RecordingFile reads each chunk of a jfrsync file with that chunk's types, see ENVIRONMENT notes).
 */
class ExecutionSampleKindsTest {

    /** Per event type (with " STATE_X" for events that carry a state): events, and summed batch sizes. */
    private static Map<String, long[]> reference(Path file) throws Exception {
        Map<String, long[]> out = new TreeMap<>();
        try (RecordingFile rf = new RecordingFile(file)) {
            while (rf.hasMoreEvents()) {
                RecordedEvent e = rf.readEvent();
                String name = e.getEventType().getName();
                String key = e.hasField("state") && e.getValue("state") != null ? name + " " + e.getValue("state") : name;
                long batch = e.hasField("samples") ? e.getLong("samples") : 1;
                long[] c = out.computeIfAbsent(key, k -> new long[2]);
                c[0]++;
                c[1] += batch;
            }
        }
        return out;
    }

    private static long events(Map<String, long[]> ref, String key) {
        return ref.getOrDefault(key, new long[2])[0];
    }

    /** Samples of a kind per "source STATE" (state "-" when none), as the importer stored them. */
    private static Map<String, Long> bySourceAndState(Profile p, Kind kind) {
        Map<String, Long> out = new TreeMap<>();
        SampleTable t = p.samples(kind);
        for (int i = 0; i < t.size(); i++) {
            String state = t.state(i) == 0 ? "-" : p.states().get(t.state(i));
            out.merge(p.sources().get(t.source(i)) + " " + state, 1L, Long::sum);
        }
        return out;
    }

    @Test
    void wallClockModeMakesEveryExecutionSampleWall() throws Exception {
        Path file = Recordings.asyncProfilerWall(false);
        Map<String, long[]> ref = reference(file);
        long runnable = events(ref, "jdk.ExecutionSample STATE_RUNNABLE");
        long sleeping = events(ref, "jdk.ExecutionSample STATE_SLEEPING");
        assertTrue(runnable > 0 && sleeping > 0, "the profiler wrote both states: " + ref.keySet());
        Profile p = new Importer().read(file);
        assertEquals(0, p.samples(Kind.CPU).size(), "no wall-clock sample is a cpu sample");
        assertEquals(Map.of("async-profiler STATE_RUNNABLE", runnable, "async-profiler STATE_SLEEPING", sleeping),
                bySourceAndState(p, Kind.WALL));
    }

    @Test
    void batchedWallClockSamplesAreWallWithTheirStates() throws Exception {
        Path file = Recordings.asyncProfilerWall(true);
        Map<String, long[]> ref = reference(file);
        Profile p = new Importer().read(file);
        assertEquals(0, p.samples(Kind.CPU).size());
        assertEquals(Map.of("async-profiler STATE_RUNNABLE", events(ref, "profiler.WallClockSample STATE_RUNNABLE"),
                "async-profiler STATE_SLEEPING", events(ref, "profiler.WallClockSample STATE_SLEEPING")),
                bySourceAndState(p, Kind.WALL));
        long batched = ref.get("profiler.WallClockSample STATE_RUNNABLE")[1] + ref.get("profiler.WallClockSample STATE_SLEEPING")[1];
        assertEquals(batched, p.samples(Kind.WALL).totalWeight(), "a batch weighs its number of samples");
    }

    @Test
    void cpuAndWallAtOnceSplitByState() throws Exception {
        Path file = Recordings.asyncProfilerCpuAndWall();
        Map<String, long[]> ref = reference(file);
        Profile p = new Importer().read(file);
        assertEquals(Map.of("async-profiler STATE_DEFAULT", events(ref, "jdk.ExecutionSample STATE_DEFAULT")),
                bySourceAndState(p, Kind.CPU));
        assertEquals(Map.of("async-profiler STATE_RUNNABLE", events(ref, "profiler.WallClockSample STATE_RUNNABLE"),
                "async-profiler STATE_SLEEPING", events(ref, "profiler.WallClockSample STATE_SLEEPING")),
                bySourceAndState(p, Kind.WALL));
    }

    /** The case: async-profiler before 4.0 wrote wall samples as jdk.ExecutionSample beside its cpu samples. */
    @Test
    void asyncProfiler30CpuAndWallNeverCountsASleepingThreadAsCpu() throws Exception {
        Path file = Recordings.asyncProfiler30("ap30-jdk17-cpu-wall", "event=cpu,wall=5ms");
        Map<String, long[]> ref = reference(file);
        long cpu = events(ref, "jdk.ExecutionSample STATE_DEFAULT");
        long runnable = events(ref, "jdk.ExecutionSample STATE_RUNNABLE");
        long sleeping = events(ref, "jdk.ExecutionSample STATE_SLEEPING");
        assertTrue(cpu > 0 && sleeping > 0, "the profiler wrote cpu and sleeping samples: " + ref.keySet());
        Profile p = new Importer().read(file);
        assertEquals(Map.of("async-profiler STATE_DEFAULT", cpu), bySourceAndState(p, Kind.CPU));
        Map<String, Long> wall = new TreeMap<>(Map.of("async-profiler STATE_SLEEPING", sleeping));
        if (runnable > 0) {
            wall.put("async-profiler STATE_RUNNABLE", runnable);
        }
        assertEquals(wall, bySourceAndState(p, Kind.WALL));
    }

    @Test
    void asyncProfiler30WallModeIsAllWall() throws Exception {
        Path file = Recordings.asyncProfiler30("ap30-jdk17-wall", "event=wall");
        Map<String, long[]> ref = reference(file);
        Profile p = new Importer().read(file);
        assertFalse(p.kinds().containsKey(Kind.CPU), "wall-clock mode has no cpu samples");
        assertEquals(events(ref, "jdk.ExecutionSample STATE_RUNNABLE") + events(ref, "jdk.ExecutionSample STATE_SLEEPING"),
                p.samples(Kind.WALL).size());
    }

    @Test
    void theJdksSamplesBesideAProfilersAreASecondSource() throws Exception {
        Path file = Recordings.asyncProfilerBesideJdk();
        Map<String, long[]> ref = reference(file);
        // the profiler in cpu mode writes STATE_DEFAULT only, so RUNNABLE execution samples are the JDK's
        long profilerCpu = events(ref, "jdk.ExecutionSample STATE_DEFAULT");
        long jdkCpu = events(ref, "jdk.ExecutionSample STATE_RUNNABLE");
        assertTrue(profilerCpu > 0 && jdkCpu > 0, "both samplers ran: " + ref.keySet());
        Profile p = new Importer().read(file);
        assertEquals(Map.of("async-profiler STATE_DEFAULT", profilerCpu, "jdk STATE_RUNNABLE", jdkCpu),
                bySourceAndState(p, Kind.CPU));
        assertEquals("async-profiler", p.sources().get(p.samples(Kind.CPU).defaultSource()), "the profiler's own by default");
        assertEquals(Map.of("async-profiler -", events(ref, "jdk.ObjectAllocationInNewTLAB")
                        + events(ref, "jdk.ObjectAllocationOutsideTLAB"), "jdk -", events(ref, "jdk.ObjectAllocationSample")),
                bySourceAndState(p, Kind.ALLOC));
        assertEquals("async-profiler", p.sources().get(p.samples(Kind.ALLOC).defaultSource()));
    }

    @Test
    void jdkCpuTimeSamplesAreASourceBesideExecutionSamples() throws Exception {
        Path file = Recordings.jdk().stream().filter(f -> f.getFileName().toString().equals("jdk25-cputime.jfr"))
                .findFirst().orElseThrow();
        Map<String, long[]> ref = reference(file);
        Profile p = new Importer().read(file);
        assertEquals(Map.of("jdk STATE_RUNNABLE", events(ref, "jdk.ExecutionSample STATE_RUNNABLE"),
                "jdk.CPUTimeSample -", events(ref, "jdk.CPUTimeSample")), bySourceAndState(p, Kind.CPU));
        assertEquals("jdk.CPUTimeSample", p.sources().get(p.samples(Kind.CPU).defaultSource()));
    }

    @Test
    void datadogSamplesBesideTheJdksAreTwoSources() throws Exception {
        Path file = Recordings.datadogShapedWithJdk();
        Map<String, long[]> ref = reference(file);
        long jdk = events(ref, "jdk.ExecutionSample STATE_RUNNABLE");
        assertTrue(jdk > 0, "the JDK sampled too: " + ref.keySet());
        Profile p = new Importer().read(file);
        assertEquals(Map.of("datadog -", events(ref, "datadog.ExecutionSample"), "jdk STATE_RUNNABLE", jdk),
                bySourceAndState(p, Kind.CPU));
        assertEquals("datadog", p.sources().get(p.samples(Kind.CPU).defaultSource()));
    }

    @Test
    void theJdksOwnExecutionSamplesAreCpu() throws Exception {
        Path file = Recordings.jdk25Default();
        Map<String, long[]> ref = reference(file);
        Profile p = new Importer().read(file);
        assertEquals(Map.of("jdk STATE_RUNNABLE", events(ref, "jdk.ExecutionSample STATE_RUNNABLE")),
                bySourceAndState(p, Kind.CPU));
    }
}
