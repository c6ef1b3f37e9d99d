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
 * Remark or Cleanup.
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
        // four chunks closed by rotations, each with the Remark or Cleanup pauses it could have stopped after
        List<Path> closed = AgentChunks.awaitChunks(app, log, dir, chunks -> {
            if (chunks.size() < 4) {
                return false;
            }
            for (Path c : chunks) {
                if (pauses(c) == 0) {
                    throw new AssertionError(c + " has no Remark or Cleanup pause: no concurrent cycles, nothing tested");
                }
            }
            return true;
        });
        ChildJvm.stop(app, log);
        List<String> lastGcs = new ArrayList<>();
        // not the first chunk: its rotation may come while the JVM still starts, before the cycles do
        for (Path chunk : closed.subList(1, closed.size())) {
            lastGcs.add(lastHeapSummaryGc(chunk));
        }
        assertTrue(lastGcs.stream().noneMatch(REMARK_AND_CLEANUP::equals),
                "every chunk ends right after a collection, not a pause within a cycle: " + lastGcs);
    }

    private static long pauses(Path chunk) throws java.io.IOException {
        return AgentChunks.events(chunk).stream().filter(e -> e.getEventType().getName().equals("workbench.HeapSummary")
                && e.getString("gcName").equals(REMARK_AND_CLEANUP)).count();
    }

    /** The collector of the chunk's last GC (by the GC's start): the GC the rotation waited for, or a later one. */
    private static String lastHeapSummaryGc(Path chunk) throws java.io.IOException {
        RecordedEvent last = null;
        for (RecordedEvent e : AgentChunks.events(chunk)) {
            if (e.getEventType().getName().equals("workbench.HeapSummary")
                    && (last == null || !e.getInstant("gcStartMillis").isBefore(last.getInstant("gcStartMillis")))) {
                last = e;
            }
        }
        assertTrue(last != null, chunk + " has GC heap summaries");
        return last.getString("gcName");
    }
}
