package org.jfrworkbench.analysis;

import java.util.BitSet;

import org.jfrworkbench.model.SampleTable;

/**
 * A kind's samples listed per thread, each thread's in the table's order, each with its stack beside it: a query of a
 * few threads passes over their samples only, where a pass over the whole range tested every sample's thread (a
 * thread set of one to eight of 32 threads selects about a seventh of the range). The stacks are kept beside the
 * samples' indices so that the pass reads both in order: read from the table at the listed indices instead, one
 * sample in four or fewer, each was a cache miss, and the pass cost as much as the whole range's. 8 bytes per sample
 * and 4 per thread, made in the background after an import ({@link ProfileData#prepareThreadLists}) or by the kind's
 * first query that selects threads, whichever comes first.
 */
final class ThreadSamples {
    /** Thread t's samples are samples[start[t], start[t + 1]). */
    private final int[] start;
    private final int[] samples;
    /** Per entry, its sample's stack. */
    private final int[] stacks;

    private ThreadSamples(int[] start, int[] samples, int[] stacks) {
        this.start = start;
        this.samples = samples;
        this.stacks = stacks;
    }

    /** One counting pass over the threads, one placing pass: the samples of a thread come in the table's order. */
    static ThreadSamples of(SampleTable t) {
        int size = t.size();
        int threads = 0;
        for (int i = 0; i < size; i++) {
            threads = Math.max(threads, t.thread(i) + 1);
        }
        int[] start = new int[threads + 1];
        for (int i = 0; i < size; i++) {
            start[t.thread(i) + 1]++;
        }
        for (int th = 0; th < threads; th++) {
            start[th + 1] += start[th];
        }
        int[] next = java.util.Arrays.copyOf(start, threads);
        int[] samples = new int[size];
        int[] stacks = new int[size];
        for (int i = 0; i < size; i++) {
            int k = next[t.thread(i)]++;
            samples[k] = i;
            stacks[k] = t.stack(i);
        }
        return new ThreadSamples(start, samples, stacks);
    }

    /** How many samples the threads set in selected have (ids past the recorded ones have none). */
    int count(BitSet selected) {
        int count = 0;
        for (int th = selected.nextSetBit(0); th >= 0 && th < start.length - 1; th = selected.nextSetBit(th + 1)) {
            count += start[th + 1] - start[th];
        }
        return count;
    }

    /** Threads that have samples: ids from 0 to this, less one. */
    int threads() {
        return start.length - 1;
    }

    /** The first of thread th's samples, as an index into {@link #sample}. */
    int from(int th) {
        return start[th];
    }

    /** One past the last of thread th's samples. */
    int to(int th) {
        return start[th + 1];
    }

    /** The k-th entry: a sample's index in the table. */
    int sample(int k) {
        return samples[k];
    }

    /** The k-th entry's stack, as {@link SampleTable#stack} of its sample. */
    int stack(int k) {
        return stacks[k];
    }

    /**
     * The first entry in [from, to) whose sample's index is at least i (to where none is): entries are in the table's
     * order within a thread.
     */
    int firstAtOrAfter(int from, int to, int i) {
        int lo = from;
        int hi = to;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (samples[mid] < i) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Heap bytes of the lists of a table of so many samples, over so many threads. */
    static long footprint(int samples, int threads) {
        return 64 + 8L * samples + 4L * (threads + 1);
    }
}
