package org.jfrworkbench.analysis;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jfrworkbench.model.FrameNaming;
import org.jfrworkbench.model.Kind;

/**
 * Compares two recordings of one kind: a merged call tree with both sides' weights, and per-method changes of
 * the share of samples containing the method. Each change is tested with a two-proportion z-test on the raw
 * sample counts (pooled variance, two-sided); p-values are Bonferroni-corrected for the number of methods
 * tested, and a change is significant when the corrected p-value is below 0.05. So sampling noise between two
 * runs of the same code is not reported as a regression.
 */
public record DiffQuery(Kind kind, FrameNaming naming, SampleFilter filter) {
    static final double ALPHA = 0.05;

    /** Every sample of the kind's default source on both sides. */
    public DiffQuery(Kind kind, FrameNaming naming) {
        this(kind, naming, SampleFilter.ALL);
    }

    public DiffResult run(ProfileData base, ProfileData target) {
        // stable names: a lambda or proxy of two runs of the same code is one frame, not -100 % and +100 %
        ProfileData.Names bn = base.stableNames(naming);
        ProfileData.Names tn = target.stableNames(naming);
        // both sides' dictionaries merged in sorted order, so a merged id is its own sort rank: no string sort
        Merged m = Merged.of(bn.names(), base.stableNameRanks(naming), tn.names(), target.stableNameRanks(naming));
        SampleFilter.StackWeights bw = filter.aggregate(base.samples(kind), base.profile().stacks().size());
        SampleFilter.StackWeights tw = filter.aggregate(target.samples(kind), target.profile().stacks().size());
        // presized like the flame graph's builder: growing from a small start rehashed the child map ten times
        long expected = FlameGraphQuery.frames(base.profile().stacks(), bw) + FlameGraphQuery.frames(target.profile().stacks(), tw);
        TreeBuilder tree = new TreeBuilder(m.names(), m.ranks(), "all", 2, expected);
        StackPaths.forEach(base, bn, bw, m.baseMap(), false, (path, types, depth, w, c) -> tree.add(0, path, types, depth, w, c));
        StackPaths.forEach(target, tn, tw, m.targetMap(), false, (path, types, depth, w, c) -> tree.add(1, path, types, depth, w, c));
        TreeBuilder.Layout l = tree.preOrder(0);
        int n = l.order().length;
        NameColumns columns = NameColumns.of(tree, l, m.names());
        long[] baseCol = new long[n];
        long[] targetCol = new long[n];
        long[] baseSelf = new long[n];
        long[] targetSelf = new long[n];
        for (int i = 0; i < n; i++) {
            int node = l.order()[i];
            baseCol[i] = tree.total(0, node);
            targetCol[i] = tree.total(1, node);
            baseSelf[i] = tree.self(0, node);
            targetSelf[i] = tree.self(1, node);
        }
        List<DiffResult.Change> changes = changes(MethodStats.compute(base, kind, filter),
                MethodStats.compute(target, kind, filter));
        return new DiffResult(kind.id(), kind.unit(), bw.totalWeight(), tw.totalWeight(), bw.samples(), tw.samples(),
                columns.names(), new DiffResult.Nodes(columns.name(), l.parent(), columns.type(), l.count(), baseCol,
                targetCol, baseSelf, targetSelf),
                changes);
    }

    /** A dictionary of both sides' names in sorted order (so ranks are the identity) and each side's id map. */
    record Merged(String[] names, int[] ranks, int[] baseMap, int[] targetMap) {
        static Merged of(String[] a, int[] aRanks, String[] b, int[] bRanks) {
            int[] aSorted = sortedIds(aRanks);
            int[] bSorted = sortedIds(bRanks);
            int[] aMap = new int[a.length];
            int[] bMap = new int[b.length];
            String[] out = new String[a.length + b.length];
            int n = 0;
            int i = 0;
            int j = 0;
            while (i < a.length || j < b.length) {
                int c = i == a.length ? 1 : j == b.length ? -1 : a[aSorted[i]].compareTo(b[bSorted[j]]);
                String next = c <= 0 ? a[aSorted[i]] : b[bSorted[j]];
                // equal names share one id (also within a side, should a dictionary hold a name twice)
                if (n == 0 || !out[n - 1].equals(next)) {
                    out[n++] = next;
                }
                if (c <= 0) {
                    aMap[aSorted[i++]] = n - 1;
                }
                if (c >= 0) {
                    bMap[bSorted[j++]] = n - 1;
                }
            }
            int[] ranks = new int[n];
            for (int k = 0; k < n; k++) {
                ranks[k] = k;
            }
            return new Merged(java.util.Arrays.copyOf(out, n), ranks, aMap, bMap);
        }

        private static int[] sortedIds(int[] ranks) {
            int[] ids = new int[ranks.length];
            for (int k = 0; k < ranks.length; k++) {
                ids[ranks[k]] = k;
            }
            return ids;
        }
    }

    /** Methods whose share of samples changed, significant ones first, each group by absolute change. */
    static List<DiffResult.Change> changes(MethodStats a, MethodStats b) {
        Map<String, Integer> bIndex = new HashMap<>();
        for (int i = 0; i < b.names().length; i++) {
            if (b.totalSamples()[i] > 0) {
                bIndex.put(b.names()[i], i);
            }
        }
        List<String> methods = new ArrayList<>();
        List<long[]> counts = new ArrayList<>();
        for (int i = 0; i < a.names().length; i++) {
            if (a.totalSamples()[i] > 0) {
                Integer j = bIndex.remove(a.names()[i]);
                methods.add(a.names()[i]);
                counts.add(new long[] {i, j == null ? -1 : j});
            }
        }
        for (Map.Entry<String, Integer> e : bIndex.entrySet()) {
            methods.add(e.getKey());
            counts.add(new long[] {-1, e.getValue()});
        }
        int tests = Math.max(1, methods.size());
        List<DiffResult.Change> out = new ArrayList<>(methods.size());
        for (int k = 0; k < methods.size(); k++) {
            int i = (int) counts.get(k)[0];
            int j = (int) counts.get(k)[1];
            long x1 = i < 0 ? 0 : a.totalSamples()[i];
            long x2 = j < 0 ? 0 : b.totalSamples()[j];
            double baseShare = share(i < 0 ? 0 : a.total()[i], a.totalWeight());
            double targetShare = share(j < 0 ? 0 : b.total()[j], b.totalWeight());
            double baseSelf = share(i < 0 ? 0 : a.self()[i], a.totalWeight());
            double targetSelf = share(j < 0 ? 0 : b.self()[j], b.totalWeight());
            double p = Math.min(1.0, Statistics.twoProportionPValue(x1, a.samples(), x2, b.samples()) * tests);
            out.add(new DiffResult.Change(methods.get(k), baseShare, targetShare, targetShare - baseShare,
                    baseSelf, targetSelf, targetSelf - baseSelf, x1, x2, p, p < ALPHA));
        }
        out.sort((x, y) -> x.significant() != y.significant() ? (x.significant() ? -1 : 1)
                : Double.compare(Math.abs(y.delta()) + Math.abs(y.selfDelta()), Math.abs(x.delta()) + Math.abs(x.selfDelta())));
        return out.size() > 500 ? new ArrayList<>(out.subList(0, 500)) : out;
    }

    private static double share(long w, long total) {
        return total == 0 ? 0 : (double) w / total;
    }
}
