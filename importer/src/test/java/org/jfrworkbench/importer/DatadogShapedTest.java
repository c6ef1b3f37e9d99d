package org.jfrworkbench.importer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

import org.jfrworkbench.model.FrameNaming;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.SampleTable;
import org.jfrworkbench.testkit.Recordings;
import org.junit.jupiter.api.Test;

/**
 * Events named and shaped after the Datadog profiler's (written by the JDK's recorder from jdk.jfr.Event subclasses,
 * not by Datadog's profiler): cpu and wall samples weighted by "weight", allocations of size x weight bytes.
 */
class DatadogShapedTest {
    @Test
    void datadogEventsBecomeCpuWallAndAllocSamples() throws Exception {
        Path recording = Recordings.datadogShaped();
        long cpuEvents = 0;
        long cpuWeight = 0;
        long wallWeight = 0;
        long allocBytes = 0;
        try (RecordingFile rf = new RecordingFile(recording)) {
            while (rf.hasMoreEvents()) {
                RecordedEvent e = rf.readEvent();
                switch (e.getEventType().getName()) {
                    case "datadog.ExecutionSample" -> {
                        cpuEvents++;
                        cpuWeight += e.getLong("weight");
                    }
                    case "datadog.MethodSample" -> wallWeight += e.getLong("weight");
                    case "datadog.ObjectSample" -> allocBytes += Math.round(e.getLong("size") * (double) e.getFloat("weight"));
                    default -> { }
                }
            }
        }
        assertTrue(cpuEvents > 10, "the workload committed its events: " + cpuEvents);
        Profile p = new Importer().read(recording);
        assertEquals(cpuEvents, p.sourceEvents().get("datadog.ExecutionSample"));
        SampleTable cpu = p.samples(Kind.CPU);
        assertEquals(cpuEvents, cpu.size());
        assertTrue(cpuWeight > cpuEvents, "weights above 1 count");
        assertEquals(cpuWeight, cpu.totalWeight());
        assertEquals(wallWeight, p.samples(Kind.WALL).totalWeight());
        assertEquals(allocBytes, p.samples(Kind.ALLOC).totalWeight());
        assertEquals("byte[]", p.strings().get(p.samples(Kind.ALLOC).objectClass(0)));
        assertEquals("dd-trace-java", p.metadata().get("producer"));
        Map<String, Long> stacks = FoldedStacks.of(p, Kind.CPU, null, null, FrameNaming.DEFAULT);
        assertEquals(cpuWeight, stacks.entrySet().stream().filter(s -> s.getKey().endsWith("DatadogShaped.cpuWork"))
                .mapToLong(Map.Entry::getValue).sum(), "every cpu sample's stack ends in cpuWork: " + stacks.keySet());
    }
}
