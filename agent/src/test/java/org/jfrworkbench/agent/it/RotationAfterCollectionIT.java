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

    /**
     * The collector of the chunk's last GC (by the GC's start) before async-profiler stopped: the GC the rotation waited
     * for. Not the chunk's last GC: the JDK recording, appended to async-profiler's chunk, stops after it and may hold
     * the Remark of the cycle that GC started, which comes while the recordings are being closed on a busy machine.
     */
    private static String lastHeapSummaryGc(Path chunk) throws java.io.IOException {
        long profilerEndMillis = firstChunkEndNanos(chunk) / 1_000_000;
        RecordedEvent last = null;
        for (RecordedEvent e : AgentChunks.events(chunk)) {
            if (e.getEventType().getName().equals("workbench.HeapSummary")
                    && e.getInstant("gcStartMillis").toEpochMilli() <= profilerEndMillis
                    && (last == null || !e.getInstant("gcStartMillis").isBefore(last.getInstant("gcStartMillis")))) {
                last = e;
            }
        }
        assertTrue(last != null, chunk + " has GC heap summaries before async-profiler stopped");
        return last.getString("gcName");
    }

    /** The end of the file's first chunk, async-profiler's: its start plus its duration, from the chunk header. */
    private static long firstChunkEndNanos(Path file) throws java.io.IOException {
        java.nio.ByteBuffer header;
        try (java.io.InputStream in = java.nio.file.Files.newInputStream(file)) {
            // the header's first 48 bytes: magic, version, size, pool and metadata offsets, start and duration in ns
            header = java.nio.ByteBuffer.wrap(in.readNBytes(48));
        }
        assertTrue(header.capacity() == 48, file + " holds a chunk header");
        assertTrue(header.getInt(0) == 0x464c5200, file + " starts with a JFR chunk");
        return header.getLong(32) + header.getLong(40);
    }
}
