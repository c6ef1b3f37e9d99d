package org.jfrworkbench.analysis;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntPredicate;

import org.jfrworkbench.model.ClassCount;
import org.jfrworkbench.model.GcEvent;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.SampleTable;

/**
 * G1's heap counts at a concurrent cycle's remark, made usable: an estimate of the live heap by class at the young GC
 * before the remark.
 *
 * <p>Why: at the remark HotSpot counts an object as live when marking found it live or it lies above its region's
 * top-at-mark-start (G1ObjectCountIsAliveClosure: {@code !is_obj_dead}), and eden and survivor regions lie above it
 * whole. So the count is the old objects live when marking began, those copied or promoted since, and all of eden, the
 * young garbage included. Eden at the remark holds exactly what was allocated since the end of the last young GC,
 * which the allocation samples (upscaled) estimate by class: {@code count(class) - allocated(class)} is what that
 * young GC left of the class, as it was at the marking's start for the old ones. Its error is the allocation
 * estimate's, {@code allocated / sqrt(its samples)}, relative to what is left; a class left with nothing is dropped.
 * A recording without allocation samples has no correction, and its remark counts stay unused.
 */
final class RemarkCounts {
    /** A remark's counts corrected, as counts at the young GC base, with each class's relative error. */
    record Corrected(GcEvent base, List<ClassCount> counts, Map<String, Double> errors, long countedBytes,
                     long allocatedBytes) {
    }

    private RemarkCounts() {
    }

    /** The corrected counts of the recording's remarks (counts under an id no collection of the timeline has), oldest first. */
    static List<Corrected> of(ProfileData data, Map<Long, List<ClassCount>> counts) {
        Profile p = data.profile();
        List<GcEvent> gcs = p.heap().gcs();
        Set<Long> collections = new HashSet<>();
        boolean g1 = false;
        for (GcEvent g : gcs) {
            collections.add(g.gcId());
            g1 |= g.name() != null && g.name().startsWith("G1");
        }
        SampleTable alloc = p.kinds().get(Kind.ALLOC);
        if (!g1 || alloc == null || alloc.size() == 0) {
            return List.of();
        }
        List<Window> windows = new ArrayList<>();
        for (Map.Entry<Long, List<ClassCount>> e : counts.entrySet()) {
            if (collections.contains(e.getKey())) {
                continue;
            }
            long remark = Long.MIN_VALUE;
            for (ClassCount c : e.getValue()) {
                remark = Math.max(remark, c.timeNanos());
            }
            GcEvent base = null;
            for (GcEvent g : gcs) {
                if (g.startNanos() + Math.max(0, g.durationNanos()) <= remark && g.heapUsedAfter() >= 0) {
                    base = g;
                }
            }
            if (base != null) {
                windows.add(new Window(base, base.startNanos() + Math.max(0, base.durationNanos()), remark, e.getValue()));
            }
        }
        if (windows.isEmpty()) {
            return List.of();
        }
        // one pass over the allocation samples: the windows sorted by their remark have their starts (their young GCs'
        // ends) in the same order, so a sample's windows follow the first that ends at or after it
        windows.sort((a, b) -> Long.compare(a.remark, b.remark));
        long[] ends = new long[windows.size()];
        for (int w = 0; w < ends.length; w++) {
            ends[w] = windows.get(w).remark;
        }
        IntPredicate source = Selection.of(Kind.ALLOC).on(data);
        for (int i = 0; i < alloc.size(); i++) {
            if ((i & 0xffff) == 0xffff) {
                QueryLimits.check();
            }
            long t = alloc.time(i);
            int w = java.util.Arrays.binarySearch(ends, t);
            if (w < 0) {
                w = -w - 1;
            } else {
                while (w > 0 && ends[w - 1] == t) {
                    w--;
                }
            }
            if (w == ends.length || windows.get(w).from >= t || !source.test(i)) {
                continue;
            }
            String cls = OlderObjects.className(p, alloc.objectClass(i));
            for (; w < ends.length && windows.get(w).from < t; w++) {
                windows.get(w).add(cls, alloc.weight(i));
            }
        }
        List<Corrected> out = new ArrayList<>();
        for (Window w : windows) {
            out.add(w.corrected());
        }
        out.sort((a, b) -> Long.compare(a.base().startNanos(), b.base().startNanos()));
        return out;
    }

    /** Eden at a remark: (the end of the young GC base, the remark], with the allocation samples' bytes in it by class. */
    private static final class Window {
        final GcEvent base;
        final long from;
        final long remark;
        final List<ClassCount> count;
        final Map<String, double[]> allocated = new HashMap<>();
        double allBytes;
        long allSamples;

        Window(GcEvent base, long from, long remark, List<ClassCount> count) {
            this.base = base;
            this.from = from;
            this.remark = remark;
            this.count = count;
        }

        void add(String cls, long weight) {
            double[] a = allocated.computeIfAbsent(cls, k -> new double[2]);
            a[0] += weight;
            a[1]++;
            allBytes += weight;
            allSamples++;
        }

        Corrected corrected() {
            // a class without a sample in eden may still have allocated up to about one sample's bytes there
            double resolution = allSamples == 0 ? 0 : allBytes / allSamples;
            List<ClassCount> corrected = new ArrayList<>();
            Map<String, Double> errors = new HashMap<>();
            long countedBytes = 0;
            for (ClassCount c : count) {
                countedBytes += c.bytes();
                double[] a = allocated.getOrDefault(c.className(), new double[2]);
                double left = c.bytes() - a[0];
                if (left <= 0) {
                    continue;
                }
                double error = a[1] == 0 ? resolution : a[0] / Math.sqrt(a[1]);
                corrected.add(new ClassCount(base.gcId(), c.timeNanos(), c.className(),
                        c.bytes() == 0 ? 0 : Math.round(c.count() * left / c.bytes()), Math.round(left)));
                errors.put(c.className(), Math.min(1, error / left));
            }
            return new Corrected(base, corrected, errors, countedBytes, Math.round(allBytes));
        }
    }
}
