package org.jfrworkbench.analysis;

import java.util.Arrays;

import org.jfrworkbench.model.SampleTable;

/**
 * An estimate of a time-sampled kind's sampling interval, from the data (recordings do not all state it): the
 * lower quartile of the gaps between one thread's consecutive samples. A busy thread is sampled at every tick, so
 * its gaps are the interval; idle spells only make gaps longer, which the lower quartile leaves out.
 */
final class SamplingInterval {
    private static final int MAX_GAPS = 1 << 16;

    private SamplingInterval() {
    }

    /** Nanoseconds, or 0 when there are too few samples to say. */
    static long estimate(SampleTable t) {
        int stride = Math.max(1, t.size() / (4 * MAX_GAPS));
        long[] last = new long[256];
        long[] gaps = new long[Math.min(MAX_GAPS, t.size())];
        int n = 0;
        for (int i = 0; i < t.size() && n < gaps.length; i++) {
            int thread = t.thread(i);
            if (thread >= last.length) {
                last = Arrays.copyOf(last, Math.max(thread + 1, last.length * 2));
            }
            long time = t.time(i);
            long previous = last[thread];
            last[thread] = time;
            if (previous != 0 && time > previous && i % stride == 0) {
                gaps[n++] = time - previous;
            }
        }
        if (n < 20) {
            return 0;
        }
        Arrays.sort(gaps, 0, n);
        return gaps[n / 4];
    }
}
