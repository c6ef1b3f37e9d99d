package org.jfrworkbench.importer.jfr;

import java.util.Arrays;

import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.SampleTable;

/**
 * Live-object samples of one chunk, held until the chunk's end so they can be upscaled with the allocation sampling
 * interval, which the recording states in a setting that may come after them.
 */
final class LiveBuffer {
    private long[] times = new long[64];
    private long[] sizes = new long[64];
    private int[] threads = new int[64];
    private int[] stacks = new int[64];
    private int[] classes = new int[64];
    private int size;

    void add(long time, int thread, int stack, long bytes, int objectClass) {
        if (size == times.length) {
            int cap = size * 2;
            times = Arrays.copyOf(times, cap);
            sizes = Arrays.copyOf(sizes, cap);
            threads = Arrays.copyOf(threads, cap);
            stacks = Arrays.copyOf(stacks, cap);
            classes = Arrays.copyOf(classes, cap);
        }
        times[size] = time;
        sizes[size] = bytes;
        threads[size] = thread;
        stacks[size] = stack;
        classes[size] = objectClass;
        size++;
    }

    /** Adds the buffered samples with weight s / (1 - exp(-s/I)) (the bytes a sample of size s stands for). */
    void flush(Profile profile, long interval) {
        if (size == 0) {
            return;
        }
        SampleTable live = profile.samples(Kind.LIVE);
        for (int i = 0; i < size; i++) {
            live.add(times[i], threads[i], stacks[i], LiveUpscaling.upscale(Math.max(0, sizes[i]), interval), classes[i]);
        }
        size = 0;
    }
}
