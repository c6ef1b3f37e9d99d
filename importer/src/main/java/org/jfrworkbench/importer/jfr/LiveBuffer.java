package org.jfrworkbench.importer.jfr;

import java.util.Arrays;

import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.SampleTable;

/**
 * async-profiler's live-object samples of one file, held until its end. Each chunk's samples are upscaled at the
 * chunk's end with its allocation sampling interval (stated in a setting that may come after them); at the file's
 * end only the samples that prove they survived a GC are kept.
 *
 * <p>Why: async-profiler reports, when it stops, every sampled object whose weak reference is not cleared yet. An
 * object allocated after the last GC before that moment has not met a GC, so its report says nothing about liveness:
 * mostly it is garbage that no GC has visited (with many chunks, each chunk's tail of garbage added up to half the
 * live view). A sample is kept when a GC started between its allocation and the report.
 */
final class LiveBuffer {
    private long[] allocated = new long[64];
    private long[] reported = new long[64];
    private long[] weights = new long[64];
    private int[] threads = new int[64];
    private int[] stacks = new int[64];
    private int[] classes = new int[64];
    private int size;
    private int chunkStart;

    void add(long allocatedAt, long reportedAt, int thread, int stack, long bytes, int objectClass) {
        if (size == allocated.length) {
            int cap = size * 2;
            allocated = Arrays.copyOf(allocated, cap);
            reported = Arrays.copyOf(reported, cap);
            weights = Arrays.copyOf(weights, cap);
            threads = Arrays.copyOf(threads, cap);
            stacks = Arrays.copyOf(stacks, cap);
            classes = Arrays.copyOf(classes, cap);
        }
        allocated[size] = allocatedAt;
        reported[size] = reportedAt;
        weights[size] = bytes;
        threads[size] = thread;
        stacks[size] = stack;
        classes[size] = objectClass;
        size++;
    }

    /** Upscales this chunk's samples: a sample of size s stands for s / (1 - exp(-s/I)) bytes. */
    void endChunk(long interval) {
        for (int i = chunkStart; i < size; i++) {
            weights[i] = LiveUpscaling.upscale(Math.max(0, weights[i]), interval);
        }
        chunkStart = size;
    }

    /**
     * Adds the samples that met a GC to the profile. gcStarts: epoch nanoseconds, sorted; with no GC in the file
     * there is nothing to tell survivors from garbage, so all samples are kept.
     */
    void flush(Profile profile, long[] gcStarts, String sourceName) {
        SampleTable live = profile.samples(Kind.LIVE);
        int source = size == 0 ? 0 : profile.sources().intern(sourceName);
        for (int i = 0; i < size; i++) {
            if (gcStarts.length == 0 || metGc(gcStarts, allocated[i], reported[i])) {
                live.add(allocated[i], threads[i], stacks[i], weights[i], classes[i], 0, source);
            }
        }
        size = 0;
        chunkStart = 0;
    }

    /** Whether a GC started after {@code from} and at or before {@code to}. */
    static boolean metGc(long[] gcStarts, long from, long to) {
        int i = Arrays.binarySearch(gcStarts, from);
        int next = i >= 0 ? i + 1 : -i - 1;
        while (next < gcStarts.length && gcStarts[next] == from) {
            next++;
        }
        return next < gcStarts.length && gcStarts[next] <= to;
    }
}
