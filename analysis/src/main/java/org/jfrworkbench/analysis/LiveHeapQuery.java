package org.jfrworkbench.analysis;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jfrworkbench.model.GcEvent;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.SampleTable;

/**
 * The GC timeline and the live heap upscaled to one GC: the live samples allocated at or before the end of that
 * GC keep their relative weights, scaled so they add up to the heap used after it:
 * {@code estimate(site) = usedAfterGC * w(site) / sum(w)}. Raw sample counts travel beside every figure.
 */
public final class LiveHeapQuery {
    private LiveHeapQuery() {
    }

    public record Gc(int index, long gcId, long startMillis, long durationMillis, String name, String cause,
                     long usedBefore, long usedAfter, long committed, long longestPauseNanos) {
    }

    public record HeapSampleOut(long timeMillis, long used, long committed, String source) {
    }

    public record Timeline(List<Gc> gcs, List<HeapSampleOut> samples, long liveSamples) {
    }

    public record ClassShare(@com.fasterxml.jackson.annotation.JsonProperty("class") String className, long bytes, double share, long samples, long sampledWeight) {
    }

    public record LiveHeap(Gc gc, long usedAfter, long liveSamples, long sampledWeight, List<ClassShare> byClass,
                           FlameGraph flame) {
    }

    public static Timeline timeline(Profile p) {
        List<Gc> gcs = new ArrayList<>();
        List<GcEvent> events = p.heap().gcs();
        for (int i = 0; i < events.size(); i++) {
            gcs.add(gc(i, events.get(i)));
        }
        List<HeapSampleOut> samples = p.heap().samples().stream()
                .map(s -> new HeapSampleOut(s.timeNanos() / 1_000_000, s.used(), s.committed(), s.source())).toList();
        SampleTable live = p.kinds().get(Kind.LIVE);
        return new Timeline(gcs, samples, live == null ? 0 : live.size());
    }

    private static Gc gc(int i, GcEvent g) {
        return new Gc(i, g.gcId(), g.startNanos() / 1_000_000, g.durationNanos() / 1_000_000, g.name(), g.cause(),
                g.heapUsedBefore(), g.heapUsedAfter(), g.heapCommitted(), g.longestPauseNanos());
    }

    /** The live heap at GC index gcIndex (null = the last GC that reports its used-after bytes). */
    public static LiveHeap at(ProfileData data, Integer gcIndex) {
        Profile p = data.profile();
        List<GcEvent> gcs = p.heap().gcs();
        if (gcs.isEmpty()) {
            throw new BadQueryException("recording " + data.id() + " has no GC events, so the live heap cannot be scaled");
        }
        int index;
        if (gcIndex == null) {
            index = gcs.size() - 1;
            while (index > 0 && gcs.get(index).heapUsedAfter() < 0) {
                index--;
            }
        } else {
            if (gcIndex < 0 || gcIndex >= gcs.size()) {
                throw new BadQueryException("gc must be between 0 and " + (gcs.size() - 1));
            }
            index = gcIndex;
        }
        GcEvent g = gcs.get(index);
        if (g.heapUsedAfter() < 0) {
            throw new BadQueryException("GC " + index + " has no heap-used-after figure");
        }
        SampleTable live = data.samples(Kind.LIVE);
        long cutoff = g.startNanos() + Math.max(0, g.durationNanos());
        SampleFilter filter = new SampleFilter(Long.MIN_VALUE, cutoff, null);
        long sum = 0;
        long count = 0;
        Map<Integer, long[]> byClass = new HashMap<>();
        java.util.function.IntPredicate selected = filter.on(live);
        for (int i = 0; i < live.size(); i++) {
            if (selected.test(i)) {
                sum += live.weight(i);
                count++;
                long[] c = byClass.computeIfAbsent(live.objectClass(i), k -> new long[2]);
                c[0] += live.weight(i);
                c[1]++;
            }
        }
        double scale = sum == 0 ? 0 : (double) g.heapUsedAfter() / sum;
        List<ClassShare> classes = new ArrayList<>();
        for (Map.Entry<Integer, long[]> e : byClass.entrySet()) {
            String name = e.getKey() == 0 ? "[unknown class]" : p.strings().get(e.getKey());
            long w = e.getValue()[0];
            classes.add(new ClassShare(name, Math.round(w * scale), sum == 0 ? 0 : (double) w / sum, e.getValue()[1], w));
        }
        classes.sort((a, b) -> Long.compare(b.bytes(), a.bytes()));
        FlameGraph flame = new FlameGraphQuery(Kind.LIVE, filter, null, false,
                org.jfrworkbench.model.FrameNaming.DEFAULT, scale).run(data);
        return new LiveHeap(gc(index, g), g.heapUsedAfter(), count, sum, classes, flame);
    }
}
