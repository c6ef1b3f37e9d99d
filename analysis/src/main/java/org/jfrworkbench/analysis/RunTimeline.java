package org.jfrworkbench.analysis;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.IntPredicate;

import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.SampleTable;

/**
 * Samples over time on an axis that several recordings share: per kind, how many samples of its default source (two
 * sources are never summed) fall into each bucket of {@code [fromMillis, fromMillis + buckets * bucketMillis)},
 * epoch milliseconds. A sample's place on that axis is the recording's start in whole milliseconds plus its offset
 * from the recording's start, the same translation the per-recording {@code from}/{@code to} make, so a bucket's
 * counts are what a flame graph of its range counts.
 */
public final class RunTimeline {
    private RunTimeline() {
    }

    /** The counts of the given kind (null: every kind the recording has), kinds it lacks left out. */
    public static Map<String, long[]> counts(Profile p, Kind only, long fromMillis, long bucketMillis, int buckets) {
        Map<String, long[]> out = new LinkedHashMap<>();
        long start = p.startNanos();
        // nanoseconds from the axis's origin to the recording's first instant
        long offset = (p.startMillis() - fromMillis) * 1_000_000;
        long width = bucketMillis * 1_000_000;
        for (Map.Entry<Kind, SampleTable> e : p.kinds().entrySet()) {
            if (only != null && e.getKey() != only) {
                continue;
            }
            SampleTable t = e.getValue();
            IntPredicate shown = Selection.of(e.getKey()).on(t, start);
            long[] counts = new long[buckets];
            for (int i = 0, n = t.size(); i < n; i++) {
                if ((i & 0xffff) == 0xffff) {
                    QueryLimits.check();
                }
                if (!shown.test(i)) {
                    continue;
                }
                long b = Math.floorDiv(t.time(i) - start + offset, width);
                if (b >= 0 && b < buckets) {
                    counts[(int) b]++;
                }
            }
            out.put(e.getKey().id(), counts);
        }
        return out;
    }
}
