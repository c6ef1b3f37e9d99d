package org.jfrworkbench.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;

import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.SampleTable;

/**
 * Threads over time: per thread, how many of the selected samples fall into each bucket of the recording (the
 * buckets of the recording's own timeline), busiest threads first. The page draws a lane per thread from it.
 */
public final class ThreadTimelines {
    private ThreadTimelines() {
    }

    /** One thread's lane: its sample count and weight, and its samples per bucket. */
    public record Lane(int id, String name, long javaId, long samples, long weight, int[] counts) {
    }

    /**
     * The lanes of the limit busiest threads; {@code otherThreads} and {@code otherSamples} count those left out.
     * {@code samples} is every selected sample of the kind.
     */
    public record Result(String kind, String unit, long bucketMillis, long durationMillis, long samples, List<Lane> threads,
                         int otherThreads, long otherSamples) {
    }

    /** shown: which samples of the kind's table count (a filter's predicate over sample indexes). */
    public static Result of(Profile p, Kind kind, IntPredicate shown, int limit) {
        SampleTable t = p.kinds().get(kind);
        long duration = Math.max(0, p.durationMillis());
        long bucket = RecordingOverview.bucketMillis(duration);
        int buckets = (int) Math.min(RecordingOverview.MAX_BUCKETS * 4L, duration / bucket + 1);
        int threadCount = p.threads().size();
        long[] samples = new long[threadCount];
        long[] weight = new long[threadCount];
        int[][] counts = new int[threadCount][];
        long all = 0;
        long start = p.startNanos();
        for (int i = 0, n = t == null ? 0 : t.size(); i < n; i++) {
            int th = t.thread(i);
            if (th < 0 || th >= threadCount || !shown.test(i)) {
                continue;
            }
            if (counts[th] == null) {
                counts[th] = new int[buckets];
            }
            long ms = (t.time(i) - start) / 1_000_000;
            counts[th][(int) Math.max(0, Math.min(buckets - 1, ms / bucket))]++;
            samples[th]++;
            weight[th] += t.weight(i);
            all++;
        }
        List<Integer> busy = new ArrayList<>();
        for (int th = 0; th < threadCount; th++) {
            if (samples[th] > 0) {
                busy.add(th);
            }
        }
        busy.sort((a, b) -> samples[b] != samples[a] ? Long.compare(samples[b], samples[a]) : Integer.compare(a, b));
        List<Lane> lanes = new ArrayList<>();
        long otherSamples = 0;
        for (int k = 0; k < busy.size(); k++) {
            int th = busy.get(k);
            if (k < limit) {
                var info = p.threads().get(th);
                lanes.add(new Lane(th, info.name(), info.javaId(), samples[th], weight[th], counts[th]));
            } else {
                otherSamples += samples[th];
            }
        }
        return new Result(kind.id(), kind.unit(), bucket, duration, all, lanes, Math.max(0, busy.size() - limit), otherSamples);
    }
}
