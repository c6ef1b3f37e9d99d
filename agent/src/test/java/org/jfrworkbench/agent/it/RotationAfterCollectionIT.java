package org.jfrworkbench.agent.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import org.jfrworkbench.testkit.agent.AgentChunks;
import org.jfrworkbench.testkit.process.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With live objects on, a chunk rotation waits for a collection before it stops async-profiler (which then reports the
 * sampled objects not yet collected as live). On G1 from JDK 20 the GC notifications include the Remark and Cleanup
 * pauses of every concurrent cycle (bean "G1 Concurrent GC"); they collect nothing, and a rotation that stopped right
 * after one reported the garbage since the last young GC as live. Here the only GCs are concurrent cycles, back to
 * back, whose marking takes most of the time: a rotation that took the first GC notification would mostly stop after a
 * Remark or Cleanup. Each rotation names, in the chunk it closes (workbench.Rotation), the collection that ended its
 * wait: that is what is checked, since a GC notification comes after the fact and a cycle's Remark may already have
 * come when its young GC's notification ends the wait.
 */
class RotationAfterCollectionIT {
    private static final String REMARK_AND_CLEANUP = "G1 Concurrent GC";

    @TempDir
    Path tmp;

    @Test
    void aRotationStopsAfterAYoungGcNotAfterG1sRemarkOrCleanup() throws Exception {
        Path dir = tmp.resolve("rec");
        Path log = tmp.resolve("out.log");
        // interval 4 s: a rotation waits at most 400 ms, many cycles' length; a summary of every GC (no sampling of the
        // collectors at this GC rate), so that the chunk shows the GC the rotation stopped after
        Process app = ChildJvm.jdk("25").start("dir=" + dir + ",interval=4s,heap-summaries=all", List.of("-Xmx256m", "-XX:+UseG1GC",
                "-XX:+ExplicitGCInvokesConcurrent"), log, "org.jfrworkbench.samples.ConcurrentCycles", "stdin");
        // chunks closed by rotations, each with the Remark or Cleanup pauses it could have stopped after, until three
        // (not the first: its rotation may come while the JVM still starts) name the GC their wait ended with; on a
        // machine too busy for a cycle within a wait's bound, a rotation goes on without one and says so
        List<Path> closed = AgentChunks.awaitChunks(app, log, dir, chunks -> {
            int ended = 0;
            for (Path c : chunks.subList(1, chunks.size())) {
                if (pauses(c) == 0) {
                    throw new AssertionError(c + " has no Remark or Cleanup pause: no concurrent cycles, nothing tested");
                }
                ended += rotation(c).getString("gcName").isEmpty() ? 0 : 1;
            }
            return ended >= 3;
        });
        ChildJvm.stop(app, log);
        List<String> awaited = new ArrayList<>();
        for (Path chunk : closed.subList(1, closed.size())) {
            RecordedEvent rotation = rotation(chunk);
            String gcName = rotation.getString("gcName");
            if (gcName.isEmpty()) {
                continue; // its wait's bound passed first
            }
            awaited.add(gcName);
            long gcId = rotation.getLong("gcId");
            assertTrue(AgentChunks.events(chunk).stream().anyMatch(e -> e.getEventType().getName().equals("workbench.HeapSummary")
                    && e.getString("gcName").equals(gcName) && e.getLong("gcId") == gcId),
                    chunk + ": the collection the rotation waited for, " + gcName + " " + gcId + ", is summarized in it");
        }
        // the GC notifications come after the fact: a cycle's Remark may come before its young GC's notification ends
        // the wait, so the chunk's last GC may be one; the rule is what ended the wait
        assertTrue(awaited.stream().noneMatch(REMARK_AND_CLEANUP::equals),
                "every rotation waited for a collection, not a pause within a cycle: " + awaited);
    }

    private static long pauses(Path chunk) throws java.io.IOException {
        return AgentChunks.events(chunk).stream().filter(e -> e.getEventType().getName().equals("workbench.HeapSummary")
                && e.getString("gcName").equals(REMARK_AND_CLEANUP)).count();
    }

    /** The chunk's rotation: one, written by the rotation that closed it. */
    private static RecordedEvent rotation(Path chunk) throws java.io.IOException {
        List<RecordedEvent> rotations = AgentChunks.events(chunk).stream()
                .filter(e -> e.getEventType().getName().equals("workbench.Rotation")).toList();
        assertTrue(rotations.size() == 1, chunk + " holds one rotation, not " + rotations.size());
        return rotations.get(0);
    }
}
