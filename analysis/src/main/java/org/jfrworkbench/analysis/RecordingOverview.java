package org.jfrworkbench.analysis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.SampleTable;

/** The extra parts of {@code GET /api/recordings/{id}}: threads, heap summary, per-kind sample timelines. */
public final class RecordingOverview {
    private static final long[] STEPS = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 30_000, 60_000,
            120_000, 300_000, 600_000, 1_800_000, 3_600_000};
    private static final int MAX_BUCKETS = 600;

    private RecordingOverview() {
    }

    public record ThreadOut(int id, String name, long javaId, long samples, Map<String, Long> kinds) {
    }

    public record TimelineOut(long bucketMillis, long[] counts) {
    }

    public static Map<String, Object> of(ProfileData data) {
        Profile p = data.profile();
        long[] total = new long[p.threads().size()];
        List<Map<String, Long>> perKind = new ArrayList<>();
        for (int i = 0; i < total.length; i++) {
            perKind.add(new LinkedHashMap<>());
        }
        Map<String, TimelineOut> timeline = new LinkedHashMap<>();
        long start = p.startNanos();
        long duration = Math.max(0, p.durationMillis());
        long bucket = STEPS[STEPS.length - 1];
        for (long s : STEPS) {
            if (duration / s < MAX_BUCKETS) {
                bucket = s;
                break;
            }
        }
        int buckets = (int) Math.min(MAX_BUCKETS * 4L, duration / bucket + 1);
        for (Map.Entry<Kind, SampleTable> e : p.kinds().entrySet()) {
            SampleTable t = e.getValue();
            long[] threadCounts = new long[total.length];
            long[] counts = new long[buckets];
            // the default source only: two samplers' samples are never added up
            java.util.function.IntPredicate shown = SampleFilter.ALL.on(t);
            for (int i = 0; i < t.size(); i++) {
                if (!shown.test(i)) {
                    continue;
                }
                int th = t.thread(i);
                if (th >= 0 && th < total.length) {
                    threadCounts[th]++;
                }
                long ms = (t.time(i) - start) / 1_000_000;
                counts[(int) Math.max(0, Math.min(buckets - 1, ms / bucket))]++;
            }
            for (int th = 0; th < total.length; th++) {
                if (threadCounts[th] > 0) {
                    total[th] += threadCounts[th];
                    perKind.get(th).put(e.getKey().id(), threadCounts[th]);
                }
            }
            timeline.put(e.getKey().id(), new TimelineOut(bucket, counts));
        }
        List<ThreadOut> threads = new ArrayList<>();
        for (int th = 0; th < total.length; th++) {
            if (total[th] > 0) {
                var info = p.threads().get(th);
                threads.add(new ThreadOut(th, info.name(), info.javaId(), total[th], perKind.get(th)));
            }
        }
        threads.sort((a, b) -> Long.compare(b.samples(), a.samples()));
        Map<String, Object> heap = new LinkedHashMap<>();
        heap.put("gcs", p.heap().gcs().size());
        heap.put("hasLive", p.kinds().containsKey(Kind.LIVE));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("threads", threads);
        out.put("heap", heap);
        out.put("timeline", timeline);
        out.put("sourceEvents", p.sourceEvents());
        out.put("warnings", p.warnings());
        return out;
    }
}
