package org.jfrworkbench.analysis;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntPredicate;

import org.jfrworkbench.model.ClassCount;
import org.jfrworkbench.model.GcEvent;
import org.jfrworkbench.model.HeapTimeline;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.SampleTable;

/**
 * The live heap by class at a GC, with the objects older than the chunk's samples carried from the chunks before.
 *
 * <p>Why: async-profiler tracks the sampled objects of one chunk, so a chunk's live samples stand for the objects
 * allocated during it; a class whose objects were all allocated earlier (a map's entries built at start) has none, and
 * scaling the samples to the heap used after the GC would give its bytes to the other classes. Each chunk's samples
 * are reported together, so the last GC they met ({@link HeapTimeline#survivedUntil}) names their chunk: a
 * <em>snapshot</em>. Where the JVM counted the heap by class at a GC (jdk.ObjectCountAfterGC, at full
 * collections), that count is the estimate at it, and the GCs after it carry the counted classes that have no sample
 * at them, each at its counted bytes, through the snapshots in between (found the same way); the GC's own samples
 * share the rest of the used heap. A G1 concurrent cycle's count, at its remark, is such a count too once the young
 * garbage it holds is taken out ({@link RemarkCounts}): an estimate at the young GC before the remark, carried the same
 * way with its error. A class with new objects is taken as replaced by them (a cache, a map's values, a
 * list rebuilt), a class without (the map's entries) as kept. Only counted classes are carried: an earlier chunk's
 * samples can hold garbage its last GC had not cleared (under ZGC, most of them), and a class carried from them would
 * stay for good; carrying them changed nothing measurable on the accuracy benchmark's collectors that clear it. Where
 * nothing is left to carry the samples are scaled to the used bytes as they are.
 */
final class OlderObjects {
    /** A class's figures: bytes at the GC, of which carried from before the chunk; its own and the carried samples. */
    static final class ClassBytes {
        double bytes;
        double carried;
        long samples;
        long carriedSamples;
        long sampledWeight;
        /** Counted by the JVM at the GC, not estimated. */
        boolean exact;
        /** Its bytes come from a count: at this GC, or carried from an earlier one. */
        boolean counted;
        /**
         * Where its bytes come from a G1 remark's count corrected by the allocation samples ({@link RemarkCounts}): that
         * estimate's relative error; -1 otherwise.
         */
        double countError = -1;

        /**
         * Its relative error as the live view states it: 0 where counted exactly; a remark's estimate's error; else
         * 1/sqrt of the samples behind it (its own and those of a count it is carried from; 1 without any).
         */
        double error() {
            long n = samples + carriedSamples;
            return exact ? 0 : countError >= 0 ? countError : n == 0 ? 1 : 1 / Math.sqrt(n);
        }
    }

    /**
     * The estimate at a GC: by class name, the scale of its own samples, the bytes carried in all, and whether the
     * classes come from the JVM's exact count at that GC.
     */
    record Estimate(Map<String, ClassBytes> byClass, double scale, double carried, boolean counted) {
    }

    private OlderObjects() {
    }

    /**
     * The estimate at GC g, whose own samples are those alive selects, adding up to its used-after bytes. A recording
     * without counts gets the samples scaled as they are.
     */
    static Estimate at(ProfileData data, GcEvent g, IntPredicate alive) {
        Profile p = data.profile();
        return along(data, List.of(g), List.of(classes(p, data.samples(Kind.LIVE), alive)))[0];
    }

    /**
     * The estimates at several GCs, each as {@link #at} gives it, in one pass over the snapshots: targets in the order
     * of their start, each with a used-after figure; own.get(k) the k-th target's own samples by class (as
     * {@link #add} sums them), which the estimate takes over.
     */
    static Estimate[] along(ProfileData data, List<GcEvent> targets, List<Map<String, ClassBytes>> own) {
        Profile p = data.profile();
        // a recording may have the JVM's counts and no live samples (a JDK recording with jdk.ObjectCountAfterGC on)
        SampleTable live = p.kinds().get(Kind.LIVE);
        HeapTimeline heap = p.heap();
        Map<Long, List<ClassCount>> counts = counts(p);
        Estimate[] out = new Estimate[targets.size()];
        if (counts.isEmpty()) {
            for (int k = 0; k < out.length; k++) {
                out[k] = combine(own.get(k), null, targets.get(k).heapUsedAfter());
            }
            return out;
        }
        TreeMap<Long, List<Integer>> snapshots = live == null ? new TreeMap<>() : snapshots(data);
        Map<Long, GcEvent> gcs = new HashMap<>();
        for (GcEvent e : heap.gcs()) {
            gcs.putIfAbsent(e.startNanos(), e);
        }
        // the counts at GCs are snapshots too, the truest ones
        Map<Long, List<ClassCount>> countAt = new HashMap<>();
        Map<Long, Map<String, Double>> errorsAt = new HashMap<>();
        for (GcEvent e : heap.gcs()) {
            if (counts.containsKey(e.gcId())) {
                snapshots.putIfAbsent(e.startNanos(), List.of());
                countAt.put(e.startNanos(), counts.get(e.gcId()));
            }
        }
        // a G1 concurrent cycle's count (at its remark, no GC of the timeline) holds eden whole, garbage too: less the
        // allocation since the young GC before it, an estimate at that GC, below the exact counts where both are
        for (RemarkCounts.Corrected r : RemarkCounts.of(data, counts)) {
            if (!countAt.containsKey(r.base().startNanos())) {
                snapshots.putIfAbsent(r.base().startNanos(), List.of());
                countAt.put(r.base().startNanos(), r.counts());
                errorsAt.put(r.base().startNanos(), r.errors());
            }
        }
        // each target takes the snapshots before its start, the earlier targets' among them: one walk for them all
        java.util.Iterator<Map.Entry<Long, List<Integer>>> next = snapshots.entrySet().iterator();
        Map.Entry<Long, List<Integer>> pending = next.hasNext() ? next.next() : null;
        Estimate previous = null;
        for (int k = 0; k < out.length; k++) {
            GcEvent g = targets.get(k);
            while (pending != null && pending.getKey() < g.startNanos()) {
                GcEvent at = gcs.get(pending.getKey());
                List<ClassCount> count = countAt.get(pending.getKey());
                if (at != null && at.heapUsedAfter() >= 0) {
                    Map<String, ClassBytes> mine = new HashMap<>();
                    for (int i : pending.getValue()) {
                        add(p, mine, live, i);
                    }
                    previous = count != null ? counted(p, count, errorsAt.get(pending.getKey()), mine, at.heapUsedAfter())
                            : combine(mine, previous, at.heapUsedAfter());
                    QueryLimits.check();
                }
                pending = next.hasNext() ? next.next() : null;
            }
            List<ClassCount> exact = counts.get(g.gcId());
            out[k] = exact != null ? counted(p, exact, null, own.get(k), g.heapUsedAfter())
                    : combine(own.get(k), previous, g.heapUsedAfter());
        }
        return out;
    }

    /** The recording's class counts by GC id (a G1 remark's under its concurrent cycle's). */
    private static Map<Long, List<ClassCount>> counts(Profile p) {
        Map<Long, List<ClassCount>> byGc = new HashMap<>();
        for (ClassCount c : p.heap().classCounts()) {
            byGc.computeIfAbsent(c.gcId(), k -> new ArrayList<>()).add(c);
        }
        return byGc;
    }

    /**
     * The estimate at a GC the JVM counted: its classes exactly; the rest of the used bytes (the classes under the
     * count's threshold, 0.5 % of the heap each) shared out by the GC's own samples of the other classes. errors: null
     * for an exact count; for an estimated one ({@link RemarkCounts}) each class's relative error.
     */
    private static Estimate counted(Profile p, List<ClassCount> counts, Map<String, Double> errors,
                                    Map<String, ClassBytes> own, long usedAfter) {
        Map<String, ClassBytes> byClass = new HashMap<>();
        double countedBytes = 0;
        for (ClassCount c : counts) {
            String id = c.className();
            ClassBytes b = byClass.computeIfAbsent(id, k -> new ClassBytes());
            ClassBytes sampled = own.get(id);
            if (sampled != null) {
                b.samples = sampled.samples;
                b.sampledWeight = sampled.sampledWeight;
            }
            b.bytes += c.bytes();
            b.exact = errors == null;
            b.counted = true;
            b.countError = errors == null ? -1 : errors.getOrDefault(id, 1.0);
            countedBytes += c.bytes();
        }
        double otherWeight = 0;
        double ownWeight = 0;
        for (Map.Entry<String, ClassBytes> e : own.entrySet()) {
            ownWeight += e.getValue().bytes;
            if (!byClass.containsKey(e.getKey())) {
                otherWeight += e.getValue().bytes;
            }
        }
        double rest = Math.max(0, usedAfter - countedBytes);
        double scale = otherWeight == 0 ? 0 : rest / otherWeight;
        for (Map.Entry<String, ClassBytes> e : own.entrySet()) {
            if (!byClass.containsKey(e.getKey())) {
                ClassBytes c = e.getValue();
                c.bytes *= scale;
                byClass.put(e.getKey(), c);
            }
        }
        // the stacks (and a range's classes) keep the samples' own scale to the used bytes
        return new Estimate(byClass, ownWeight == 0 ? 0 : usedAfter / ownWeight, 0, errors == null);
    }

    /**
     * The snapshots, oldest first: the last GC each group of live samples met, with its samples (of the default
     * source); samples no GC bounds ({@link HeapTimeline#survivedUntil} unbounded) are in none.
     */
    private static TreeMap<Long, List<Integer>> snapshots(ProfileData data) {
        SampleTable live = data.samples(Kind.LIVE);
        HeapTimeline heap = data.profile().heap();
        IntPredicate source = Selection.of(Kind.LIVE).on(data);
        TreeMap<Long, List<Integer>> bySurvival = new TreeMap<>();
        for (int i = 0; i < live.size(); i++) {
            long until = heap.survivedUntil(i);
            if (until < Long.MAX_VALUE && source.test(i)) {
                bySurvival.computeIfAbsent(until, k -> new ArrayList<>()).add(i);
            }
        }
        return bySurvival;
    }

    private static Map<String, ClassBytes> classes(Profile p, SampleTable live, IntPredicate selected) {
        Map<String, ClassBytes> byClass = new HashMap<>();
        for (int i = 0; i < live.size(); i++) {
            if (selected.test(i)) {
                add(p, byClass, live, i);
            }
        }
        return byClass;
    }

    /** A live sample's class name, as the view names it. */
    static String className(Profile p, int id) {
        return id == 0 ? "[unknown class]" : p.strings().get(id);
    }

    static void add(Profile p, Map<String, ClassBytes> byClass, SampleTable live, int i) {
        ClassBytes c = byClass.computeIfAbsent(className(p, live.objectClass(i)), k -> new ClassBytes());
        c.bytes += live.weight(i);
        c.sampledWeight += live.weight(i);
        c.samples++;
    }

    /**
     * own: the classes of a GC's own samples at their upscaled bytes; previous: the estimate at the snapshot or count
     * before (null: none). Returns the estimate at the GC, adding up to usedAfter.
     */
    static Estimate combine(Map<String, ClassBytes> own, Estimate previous, long usedAfter) {
        double sum = 0;
        for (ClassBytes c : own.values()) {
            sum += c.bytes;
        }
        Map<String, ClassBytes> older = new HashMap<>();
        double carried = 0;
        if (previous != null) {
            for (Map.Entry<String, ClassBytes> e : previous.byClass().entrySet()) {
                // a class with new objects in the chunk is taken as replaced by them (a cache, a map's values, a list
                // rebuilt): the difference of two sampled figures is mostly noise, and a retained set that swings is
                // not what it was at the earlier GC. Only a count's classes: an earlier chunk's samples may hold
                // garbage its GC had not cleared yet (under ZGC most of them), and a class carried stays for good
                ClassBytes before = e.getValue();
                if (own.containsKey(e.getKey()) || !before.counted) {
                    continue;
                }
                if (before.bytes > 0) {
                    older.put(e.getKey(), before);
                    carried += before.bytes;
                }
            }
        }
        if (carried <= 0 || (sum > 0 && carried >= usedAfter)) {
            double scale = sum == 0 ? 0 : usedAfter / sum;
            for (ClassBytes c : own.values()) {
                c.bytes *= scale;
            }
            return new Estimate(own, scale, 0, false);
        }
        // the older classes keep their counted bytes; the GC's own samples share the rest (a residual
        // usedAfter - sum(own) for the older classes would carry all of the samples' sampling error)
        double keep = sum == 0 ? usedAfter / carried : 1;
        double scale = sum == 0 ? 0 : (usedAfter - carried) / sum;
        for (ClassBytes c : own.values()) {
            c.bytes *= scale;
        }
        for (Map.Entry<String, ClassBytes> e : older.entrySet()) {
            ClassBytes before = e.getValue();
            ClassBytes c = own.computeIfAbsent(e.getKey(), k -> new ClassBytes());
            c.carried = before.bytes * keep;
            c.bytes += c.carried;
            c.carriedSamples = before.samples + before.carriedSamples;
            c.counted = true;
            c.countError = before.countError;
        }
        return new Estimate(own, scale, carried * keep, false);
    }
}
