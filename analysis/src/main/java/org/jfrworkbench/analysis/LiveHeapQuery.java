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
 * The GC timeline and the live heap upscaled to one GC: the live samples known alive at that GC (allocated at or
 * before its end, and reported live after it started: {@link org.jfrworkbench.model.HeapTimeline#survivedUntil}) keep
 * their relative weights, scaled so they add up to the heap used after it:
 * {@code estimate(site) = usedAfterGC * w(site) / sum(w)}. Raw sample counts travel beside every figure. The GCs are
 * the recording's collections only (the importer leaves out rows that collected nothing).
 */
public final class LiveHeapQuery {
    private LiveHeapQuery() {
    }

    public record Gc(int index, long gcId, long startMillis, long durationMillis, String name, String cause,
                     long usedBefore, long usedAfter, long committed, long longestPauseNanos) {
    }

    public record HeapSampleOut(long timeMillis, long used, long committed, String source) {
    }

    /**
     * A memory pool's usage after each GC: [timeMillis, used, committed, gcId] (-1 where not stated), evenly thinned.
     */
    public record Pool(String pool, List<long[]> after) {
    }

    public record Timeline(List<Gc> gcs, List<HeapSampleOut> samples, long liveSamples, List<Pool> pools) {
    }

    /** Readings a pool's series holds at most: a recording with more GCs has its readings thinned evenly. */
    static final int MAX_POOL_POINTS = 2048;

    /**
     * One class's estimate; {@code error} is its relative sampling error, {@code 1/sqrt(samples + carriedSamples)} (0.1
     * = about ±10 % of {@code bytes}), since the class's sample count is about Poisson; where its bytes come from a G1
     * remark's count, that estimate's error ({@link RemarkCounts}). {@code carriedBytes}: the part
     * of {@code bytes} that stands for objects older than the GC's chunk, carried from the JVM's count at an earlier GC
     * ({@link OlderObjects}), with {@code carriedSamples} that GC's samples of the class; {@code samples} are the GC's own.
     */
    public record ClassShare(@com.fasterxml.jackson.annotation.JsonProperty("class") String className, long bytes, double share, long samples,
                             long sampledWeight, double error, long carriedBytes, long carriedSamples) {
    }

    /**
     * liveSamples and sampledWeight: every sample alive at the GC (what the bytes are scaled by); byClass, flame,
     * rangeSamples and rangeBytes: those allocated in [fromMillis, toMillis) (all of them without a range).
     * carriedBytes: the part of usedAfter that stands for objects older than the GC's chunk, the classes an earlier
     * GC's count names and this GC has no sample of ({@link OlderObjects}); the flame graph shows the GC's own samples,
     * which share the rest.
     * counted: the JVM counted the heap by class at this GC (jdk.ObjectCountAfterGC): the classes of its count are
     * exact (their {@code error} 0), the others' samples share the rest of the used bytes.
     */
    public record LiveHeap(Gc gc, long usedAfter, long liveSamples, long sampledWeight, List<ClassShare> byClass,
                           FlameGraph flame, Long fromMillis, Long toMillis, long rangeSamples, long rangeBytes,
                           long carriedBytes, boolean counted) {
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
        Map<String, List<long[]>> byPool = new java.util.TreeMap<>();
        for (org.jfrworkbench.model.PoolUsage u : p.heap().pools()) {
            if (u.afterGc()) {
                byPool.computeIfAbsent(u.pool(), k -> new ArrayList<>())
                        .add(new long[] {u.timeNanos() / 1_000_000, u.used(), u.committed(), u.gcId()});
            }
        }
        List<Pool> pools = new ArrayList<>();
        byPool.forEach((name, readings) -> {
            List<long[]> kept = readings;
            if (readings.size() > MAX_POOL_POINTS) {
                kept = new ArrayList<>(MAX_POOL_POINTS);
                for (int j = 0; j < MAX_POOL_POINTS; j++) {
                    kept.add(readings.get((int) ((long) j * (readings.size() - 1) / (MAX_POOL_POINTS - 1))));
                }
            }
            pools.add(new Pool(name, kept));
        });
        return new Timeline(gcs, samples, live == null ? 0 : live.size(), pools);
    }

    static Gc gc(int i, GcEvent g) {
        return new Gc(i, g.gcId(), g.startNanos() / 1_000_000, g.durationNanos() / 1_000_000, g.name(), g.cause(),
                g.heapUsedBefore(), g.heapUsedAfter(), g.heapCommitted(), g.longestPauseNanos());
    }

    /**
     * The live heap at GC index gcIndex (null = the last GC that reports its used-after bytes and at which a live sample
     * is known alive, or the last that reports them when none is). Its flame graph ends
     * in the allocated classes and weighs upscaled bytes, or raw sample counts when countSamples.
     */
    public static LiveHeap at(ProfileData data, Integer gcIndex, boolean countSamples) {
        return at(data, gcIndex, countSamples, null, null);
    }

    /**
     * The live heap at a GC, as {@link #at(ProfileData, Integer, boolean)}, showing only the live samples allocated in
     * [fromMillis, toMillis) since the recording's start (null leaves that end open): they keep the scale of all the
     * samples alive at the GC, so their bytes are their part of the heap used after it.
     */
    public static LiveHeap at(ProfileData data, Integer gcIndex, boolean countSamples, Long fromMillis, Long toMillis) {
        Profile p = data.profile();
        int index = gcIndex(data, gcIndex);
        GcEvent g = p.heap().gcs().get(index);
        SampleTable live = data.samples(Kind.LIVE);
        Selection all = aliveAt(p, g, countSamples);
        Selection selection = all;
        if (fromMillis != null || toMillis != null) {
            Selection.millis(Kind.LIVE, fromMillis, toMillis, null, countSamples); // checks the range's order
            long from = fromMillis == null ? Long.MIN_VALUE : Math.max(all.fromNanos(), fromMillis * 1_000_000);
            long to = toMillis == null ? all.toNanos() : Math.min(all.toNanos(), toMillis * 1_000_000);
            selection = new Selection(Kind.LIVE, from, Math.max(from, to), null, countSamples).aliveAt(g.startNanos());
        }
        java.util.function.IntPredicate alive = all.on(data);
        java.util.function.IntPredicate selected = selection.on(data);
        boolean ranged = selection != all;
        OlderObjects.Estimate estimate = OlderObjects.at(data, g, alive);
        double scale = estimate.scale();
        long sum = 0;
        long count = 0;
        long rangeCount = 0;
        Map<Integer, long[]> inRange = new HashMap<>();
        for (int i = 0; i < live.size(); i++) {
            if (!alive.test(i)) {
                continue;
            }
            sum += live.weight(i);
            count++;
            if (ranged && selected.test(i)) {
                rangeCount++;
                long[] c = inRange.computeIfAbsent(live.objectClass(i), k -> new long[2]);
                c[0] += live.weight(i);
                c[1]++;
            }
        }
        List<ClassShare> classes = new ArrayList<>();
        long rangeBytes = 0;
        long usedAfter = g.heapUsedAfter();
        if (ranged) {
            // a range holds the samples allocated in it; the older objects carried from earlier chunks have no time
            for (Map.Entry<Integer, long[]> e : inRange.entrySet()) {
                long w = e.getValue()[0];
                long n = e.getValue()[1];
                long bytes = Math.round(w * scale);
                classes.add(new ClassShare(OlderObjects.className(p, e.getKey()), bytes, usedAfter <= 0 ? 0 : (double) bytes / usedAfter,
                        n, w, 1 / Math.sqrt(n), 0, 0));
                rangeBytes += bytes;
            }
        } else {
            rangeCount = count;
            for (Map.Entry<String, OlderObjects.ClassBytes> e : estimate.byClass().entrySet()) {
                OlderObjects.ClassBytes c = e.getValue();
                long bytes = Math.round(c.bytes);
                classes.add(new ClassShare(e.getKey(), bytes, usedAfter <= 0 ? 0 : (double) bytes / usedAfter,
                        c.samples, c.sampledWeight, c.error(), Math.round(c.carried), c.carriedSamples));
                rangeBytes += bytes;
            }
        }
        classes.sort((a, b) -> Long.compare(b.bytes(), a.bytes()));
        FlameGraph flame = new FlameGraphQuery(selection, null, false, org.jfrworkbench.model.FrameNaming.DEFAULT,
                countSamples ? 1.0 : scale, FlameGraphQuery.DEFAULT_MAX_NODES).run(data);
        return new LiveHeap(gc(index, g), g.heapUsedAfter(), count, sum, classes, flame, fromMillis, toMillis, rangeCount,
                rangeBytes, Math.round(estimate.carried()), estimate.counted());
    }

    /**
     * The GC a live-heap query is at: gcIndex checked against the recording's GCs (null = the default GC), with a
     * used-after figure to scale to; BadQueryException (400) naming the problem otherwise.
     */
    static int gcIndex(ProfileData data, Integer gcIndex) {
        List<GcEvent> gcs = data.profile().heap().gcs();
        if (gcs.isEmpty()) {
            throw new BadQueryException("recording " + data.id() + " has no GC events, so the live heap cannot be scaled");
        }
        int index;
        if (gcIndex == null) {
            index = defaultGc(data, gcs);
        } else {
            if (gcIndex < 0 || gcIndex >= gcs.size()) {
                throw new BadQueryException("gc must be between 0 and " + (gcs.size() - 1) + " for recording " + data.id());
            }
            index = gcIndex;
        }
        if (gcs.get(index).heapUsedAfter() < 0) {
            throw new BadQueryException("GC " + index + " has no heap-used-after figure");
        }
        return index;
    }

    /** Whether live sample i (by index) is known alive at GC g: the rule of every live-heap figure. */
    static java.util.function.IntPredicate aliveAt(ProfileData data, GcEvent g) {
        return aliveAt(data.profile(), g, false).on(data);
    }

    /** The live samples known alive at GC g: allocated at or before its end ([start, end + 1 ns)), reported after it. */
    private static Selection aliveAt(Profile p, GcEvent g, boolean countSamples) {
        long cutoff = g.startNanos() + Math.max(0, g.durationNanos());
        return new Selection(Kind.LIVE, Long.MIN_VALUE, cutoff - p.startNanos() + 1, null, countSamples).aliveAt(g.startNanos());
    }

    private static int defaultGc(ProfileData data, List<GcEvent> gcs) {
        int lastWithUsed = -1;
        SampleTable live = data.samples(Kind.LIVE);
        for (int index = gcs.size() - 1; index >= 0; index--) {
            GcEvent g = gcs.get(index);
            if (g.heapUsedAfter() < 0) {
                continue;
            }
            if (lastWithUsed < 0) {
                lastWithUsed = index;
            }
            java.util.function.IntPredicate selected = aliveAt(data.profile(), g, false).on(data);
            for (int i = 0; i < live.size(); i++) {
                if (selected.test(i)) {
                    return index;
                }
            }
        }
        return Math.max(0, lastWithUsed);
    }
}
