package org.jfrworkbench.importer.jfr;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;

import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.SampleTable;

/**
 * Matches profiler.Free to profiler.Malloc by address across all chunks of a file, the way async-profiler's converter
 * does for {@code --nativemem --leak}: in time order a malloc claims its address and a free releases it (a new
 * malloc of a claimed address supersedes the old one, whose free was not recorded). Mallocs still holding their
 * address at the end become {@link Kind#LEAK} samples, except those in the last {@link #TAIL} of the time span,
 * which are likely freed soon after the recording stopped. {@link Kind#NATIVEMEM} keeps every malloc.
 */
final class NativeLeaks {
    /** async-profiler's default {@code --tail}: the fraction of the recording's end whose mallocs are ignored. */
    static final double TAIL = 0.1;

    private long[] times = new long[0];
    private long[] addresses = new long[0];
    /** the malloc's index in the nativemem table, or -1 for a free */
    private int[] samples = new int[0];
    private int size;
    /** The time span of every event so far, of earlier parts of a run too (whose mallocs and frees were matched already). */
    private long spanFirst = Long.MAX_VALUE;
    private long spanLast = Long.MIN_VALUE;

    void malloc(int sample, long address, long time) {
        add(sample, address, time);
    }

    void free(long address, long time) {
        add(-1, address, time);
    }

    private void add(int sample, long address, long time) {
        if (size == times.length) {
            int cap = Math.max(64, size * 2);
            times = Arrays.copyOf(times, cap);
            addresses = Arrays.copyOf(addresses, cap);
            samples = Arrays.copyOf(samples, cap);
        }
        times[size] = time;
        addresses[size] = address;
        samples[size] = sample;
        size++;
        spanFirst = Math.min(spanFirst, time);
        spanLast = Math.max(spanLast, time);
    }

    /** Adds the unfreed mallocs to the leak samples. */
    void finish(Profile profile) {
        if (size == 0) {
            return;
        }
        SampleTable mallocs = profile.samples(Kind.NATIVEMEM);
        int[] order = inTimeOrder();
        long first = spanFirst;
        long last = spanLast;
        boolean[] live = new boolean[mallocs.size()];
        LongIntMap owner = new LongIntMap(1024);   // address -> malloc sample + 1, 0 once freed
        for (int i : order) {
            int previous = owner.get(addresses[i]);
            if (previous > 0) {
                live[previous - 1] = false;
            }
            int sample = samples[i];
            if (sample >= 0 && sample < live.length) {
                live[sample] = true;
                owner.put(addresses[i], sample + 1);
            } else if (previous > 0) {
                owner.put(addresses[i], 0);
            }
        }
        long cutoff = (long) (first * TAIL + last * (1 - TAIL));
        SampleTable leaks = profile.samples(Kind.LEAK);
        for (int s = 0; s < live.length; s++) {
            if (live[s] && mallocs.time(s) <= cutoff) {
                leaks.add(mallocs.time(s), mallocs.thread(s), mallocs.stack(s), mallocs.weight(s), mallocs.objectClass(s),
                        mallocs.state(s), mallocs.source(s));
            }
        }
        size = 0;
    }

    /**
     * Writes what later parts of a run need: the time span so far and, in time order, the mallocs that still hold
     * their address. Replaying those is replaying every event so far, as long as a later part's events come after
     * these in time (chunks follow each other; an event of a later part that is earlier than the last event here is
     * matched after them, not in time order).
     */
    void write(DataOutput out) throws IOException {
        int[] order = inTimeOrder();
        long first = spanFirst;
        long last = spanLast;
        LongIntMap owner = new LongIntMap(1024);   // address -> event + 1, 0 once freed
        for (int i : order) {
            owner.put(addresses[i], samples[i] >= 0 ? i + 1 : 0);
        }
        out.writeLong(first);
        out.writeLong(last);
        int owning = 0;
        for (int i : order) {
            if (samples[i] >= 0 && owner.get(addresses[i]) == i + 1) {
                owning++;
            }
        }
        out.writeInt(owning);
        for (int i : order) {
            if (samples[i] >= 0 && owner.get(addresses[i]) == i + 1) {
                out.writeLong(times[i]);
                out.writeLong(addresses[i]);
                out.writeInt(samples[i]);
            }
        }
    }

    /** The events' indexes by time, stable: a malloc and a free at the same instant keep their file order. */
    private int[] inTimeOrder() {
        int[] order = new int[size];
        for (int i = 0; i < size; i++) {
            order[i] = i;
        }
        IndexSort.byKey(order, times);
        return order;
    }

    /** Continues from what {@link #write} wrote (before any event of this part). */
    void read(DataInput in) throws IOException {
        spanFirst = in.readLong();
        spanLast = in.readLong();
        int n = RunImport.count(in);
        for (int i = 0; i < n; i++) {
            long time = in.readLong();
            long address = in.readLong();
            add(in.readInt(), address, time);
        }
    }
}
