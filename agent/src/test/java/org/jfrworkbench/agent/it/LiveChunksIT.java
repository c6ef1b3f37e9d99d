package org.jfrworkbench.agent.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jfrworkbench.model.GcEvent;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.SampleTable;
import org.jfrworkbench.testkit.agent.AgentChunks;
import org.jfrworkbench.testkit.process.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Live objects across chunks: each chunk reports the sampled objects not yet collected when it was closed. The
 * retaining cache churns {@code int[]} garbage and retains 2 KB {@code byte[]} buffers; if chunks closed at arbitrary
 * moments, the garbage allocated since each chunk's last GC would show as live (it did: about half of the live view).
 */
class LiveChunksIT {
    @TempDir
    Path tmp;

    @Test
    void chunksCloseAfterAGcSoTheLiveViewOverAllChunksHoldsTheRetainedObjectsNotTheGarbage() throws Exception {
        Path dir = tmp.resolve("rec");
        Path log = tmp.resolve("out.log");
        Process app = ChildJvm.jdk("25").start("dir=" + dir + ",interval=2s,alloc=64k", List.of("-Xmx96m"), log,
                "org.jfrworkbench.samples.RetainingCache", "stdin");
        // three closed chunks whose live samples already number 100 (the last chunk and the final GC come at exit)
        AgentChunks.awaitChunks(app, log, dir, closed -> closed.size() >= 3
                && Imported.readAll(closed, tmp.resolve("closed.jfr")).samples(Kind.LIVE).size() >= 100);
        ChildJvm.stop(app, log);
        Profile p = Imported.readAll(AgentChunks.chunks(dir), tmp.resolve("all.jfr"));
        assertTrue(p.chunks() >= 4, "several chunks: " + p.chunks());
        List<GcEvent> gcs = p.heap().gcs();
        GcEvent last = gcs.get(gcs.size() - 1);
        long cutoff = last.startNanos() + Math.max(0, last.durationNanos());
        // the live view at the last GC (the workload's final System.gc()): shares of the live samples' weights by class
        SampleTable live = p.samples(Kind.LIVE);
        Map<String, Long> byClass = new HashMap<>();
        long total = 0;
        for (int i = 0; i < live.size(); i++) {
            if (live.time(i) <= cutoff) {
                byClass.merge(live.objectClass(i) == 0 ? "?" : p.strings().get(live.objectClass(i)), live.weight(i), Long::sum);
                total += live.weight(i);
            }
        }
        assertTrue(live.size() >= 100, "enough live samples: " + live.size());
        double garbage = byClass.getOrDefault("int[]", 0L) / (double) total;
        double buffers = byClass.getOrDefault("byte[]", 0L) / (double) total;
        // truth: the retained entries are ~85 % byte[] (buffers and the id strings' bytes), int[] is all garbage
        assertTrue(garbage < 0.10, "int[] garbage " + Math.round(garbage * 100) + " % of the live view: " + byClass);
        assertTrue(buffers > 0.60, "byte[] buffers " + Math.round(buffers * 100) + " % of the live view: " + byClass);
    }
}
