package org.jfrworkbench.server.query;

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
public record DiffQuery(Kind kind, FrameNaming naming) {
    static final double ALPHA = 0.05;

    public DiffResult run(ProfileData base, ProfileData target) {
        Map<String, Integer> merged = new HashMap<>();
        List<String> dict = new ArrayList<>();
        int[] baseMap = mapNames(base.names(naming).names(), merged, dict);
        int[] targetMap = mapNames(target.names(naming).names(), merged, dict);
        String[] names = dict.toArray(String[]::new);
        TreeBuilder tree = new TreeBuilder(names, "all", 2);
        SampleFilter.StackWeights bw = addSide(tree, 0, base, baseMap);
        SampleFilter.StackWeights tw = addSide(tree, 1, target, targetMap);
        TreeBuilder.Layout l = tree.preOrder(0);
        int n = l.order().length;
        NameColumns columns = NameColumns.of(tree, l, names);
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
        List<DiffResult.Change> changes = changes(MethodStats.compute(base, kind, SampleFilter.ALL),
                MethodStats.compute(target, kind, SampleFilter.ALL));
        return new DiffResult(kind.id(), kind.unit(), bw.totalWeight(), tw.totalWeight(), bw.samples(), tw.samples(),
                columns.names(), new DiffResult.Nodes(columns.name(), l.parent(), columns.type(), l.count(), baseCol,
                targetCol, baseSelf, targetSelf),
                changes);
    }

    private SampleFilter.StackWeights addSide(TreeBuilder tree, int side, ProfileData data, int[] map) {
        SampleFilter.StackWeights sw = SampleFilter.ALL.aggregate(data.samples(kind), data.profile().stacks().size());
        StackPaths.forEach(data, data.names(naming), sw, map, false,
                (path, types, depth, w, c) -> tree.add(side, path, types, depth, w, c));
        return sw;
    }

    private static int[] mapNames(String[] names, Map<String, Integer> merged, List<String> dict) {
        int[] map = new int[names.length];
        for (int i = 0; i < names.length; i++) {
            map[i] = merged.computeIfAbsent(names[i], k -> {
                dict.add(k);
                return dict.size() - 1;
            });
        }
        return map;
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
