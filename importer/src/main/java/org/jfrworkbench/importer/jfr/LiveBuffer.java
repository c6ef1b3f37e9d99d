package org.jfrworkbench.importer.jfr;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
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
 * live view). A sample is kept when a GC started between its allocation and the report, and it is known alive only at
 * the GCs up to the last such one: after its report it may have died (a growth array replaced, a cache entry evicted).
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
     * Adds the samples that met a GC to the profile, each with the last GC it survived (the last one started before
     * its report). gcStarts: epoch nanoseconds of the collections, sorted; with no GC in the file there is nothing to
     * tell survivors from garbage, so all samples are kept, unbounded.
     */
    void flush(Profile profile, long[] gcStarts, String sourceName) {
        SampleTable live = profile.samples(Kind.LIVE);
        int source = size == 0 ? 0 : profile.sources().intern(sourceName);
        for (int i = 0; i < size; i++) {
            long survived = gcStarts.length == 0 ? Long.MAX_VALUE : lastGcMet(gcStarts, allocated[i], reported[i]);
            if (survived != Long.MIN_VALUE) {
                live.add(allocated[i], threads[i], stacks[i], weights[i], classes[i], 0, source);
                profile.heap().survived(live.size() - 1, survived);
            }
        }
        size = 0;
        chunkStart = 0;
    }

    /** Whether a GC started after {@code from} and at or before {@code to}. */
    static boolean metGc(long[] gcStarts, long from, long to) {
        return lastGcMet(gcStarts, from, to) != Long.MIN_VALUE;
    }

    /** The start of the last GC that started after {@code from} and at or before {@code to}; Long.MIN_VALUE if none. */
    static long lastGcMet(long[] gcStarts, long from, long to) {
        int i = Arrays.binarySearch(gcStarts, to);
        int last = i >= 0 ? i : -i - 2;
        while (last + 1 < gcStarts.length && gcStarts[last + 1] == to) {
            last++;
        }
        return last >= 0 && gcStarts[last] > from ? gcStarts[last] : Long.MIN_VALUE;
    }

    /** Writes the samples held so far, for a run read part by part ({@link RunImport}). */
    void write(DataOutput out) throws IOException {
        out.writeInt(size);
        out.writeInt(chunkStart);
        for (int i = 0; i < size; i++) {
            out.writeLong(allocated[i]);
            out.writeLong(reported[i]);
            out.writeLong(weights[i]);
            out.writeInt(threads[i]);
            out.writeInt(stacks[i]);
            out.writeInt(classes[i]);
        }
    }

    /** Holds the samples {@link #write} wrote, after those held now. */
    void read(DataInput in) throws IOException {
        int n = RunImport.count(in);
        int start = in.readInt();
        int base = size;
        for (int i = 0; i < n; i++) {
            long allocatedAt = in.readLong();
            long reportedAt = in.readLong();
            long bytes = in.readLong();
            add(allocatedAt, reportedAt, in.readInt(), in.readInt(), bytes, in.readInt());
        }
        chunkStart = base + Math.max(0, Math.min(start, n));
    }
}
