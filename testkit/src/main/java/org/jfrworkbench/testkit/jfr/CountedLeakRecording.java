package org.jfrworkbench.testkit.jfr;

import java.io.ByteArrayOutputStream;
import java.io.IOException;

/**
 * Three chunks of 10 s of an agent on a collector the JVM counts at its full collections, whose heap is known
 * exactly: {@link OlderObjectsRecording#ORDER} (32 MiB of 64 KiB objects, every one sampled) replaced in every chunk,
 * and {@link OlderObjectsRecording#UNSAMPLED}, in no chunk's samples (allocated where async-profiler did not sample
 * it), growing by 8 MiB a chunk: 8, 16 and 24 MiB. Each chunk has a young GC at 5 s and a full GC at 9 s, counted
 * (jdk.ObjectCountAfterGC), each stating the exact heap used after it. The leak shows only in the counts.
 */
public final class CountedLeakRecording {
    public static final String LEAK = OlderObjectsRecording.UNSAMPLED;
    public static final String FLAT = OlderObjectsRecording.ORDER;
    public static final int CHUNKS = 3;
    public static final long LEAK_STEP = 8L << 20;
    private static final long MS = 1_000_000L;
    private static final long SECOND = 1_000 * MS;
    private static final int OBJECT = 64 << 10;
    private static final long FLAT_BYTES = 32L << 20;

    private CountedLeakRecording() {
    }

    /** The leak's bytes in chunk c (0-based), counted at that chunk's full GC. */
    public static long leakBytes(int chunk) {
        return LEAK_STEP * (chunk + 1);
    }

    /** liveSamples: with the Order samples; without, the recording has the JVM's counts and no live sample at all. */
    public static byte[] write(boolean liveSamples) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int objects = (int) (FLAT_BYTES / OBJECT);
        for (int c = 0; c < CHUNKS; c++) {
            long base = c * 10 * SECOND;
            JfrWriter w = OlderObjectsRecording.types(base, true, false);
            if (liveSamples) {
                for (int i = 0; i < objects; i++) {
                    // this chunk's Orders, allocated at 1 s, reported at its end
                    w.event("profiler.LiveObject", base + 9_900 * MS, 1L, 31L, base + SECOND + i, (long) OBJECT, 2L);
                }
            }
            long used = FLAT_BYTES + leakBytes(c);
            OlderObjectsRecording.gc(w, 2L * c + 1, base + 5 * SECOND, "ParallelScavenge", used);
            OlderObjectsRecording.gc(w, 2L * c + 2, base + 9 * SECOND, "ParallelOld", used);
            w.event("jdk.ObjectCountAfterGC", base + 9 * SECOND + 5 * MS, 2L * c + 2, 2L, (long) objects, FLAT_BYTES)
                    .event("jdk.ObjectCountAfterGC", base + 9 * SECOND + 5 * MS, 2L * c + 2, 3L, 128L * (c + 1),
                            leakBytes(c));
            out.write(w.chunk());
        }
        return out.toByteArray();
    }
}
