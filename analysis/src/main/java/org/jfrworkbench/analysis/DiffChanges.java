package org.jfrworkbench.analysis;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The method rows of a diff: one per method, except that methods on exactly the same stacks without self weight
 * (the frames of one call chain) fold into one row; each row's total and self changes tested, Bonferroni-corrected
 * over all tests; rows without any change dropped; significant changes first, largest first.
 */
final class DiffChanges {
    static final double ALPHA = 0.05;
    static final int MAX_ROWS = 500;

    private DiffChanges() {
    }

    /** One method's figures on both sides. */
    private static final class Row {
        final String method;
        long baseTotal;
        long targetTotal;
        long baseSelf;
        long targetSelf;
        long baseSamples;
        long targetSamples;
        long baseSelfSamples;
        long targetSelfSamples;
        long baseFingerprint;
        long targetFingerprint;
        int depth = Integer.MAX_VALUE;
        final List<String> same = new ArrayList<>();

        Row(String method) {
            this.method = method;
        }

        boolean passThrough() {
            return baseSelfSamples == 0 && targetSelfSamples == 0;
        }
    }

    private record GroupKey(long baseFingerprint, long targetFingerprint, long baseSamples, long targetSamples) {
    }

    record Rows(List<DiffResult.Change> changes, int tests) {
    }

    static Rows of(SampleSets fa, SampleSets fb, MergedNames merged, DiffMode mode, double baseSeconds,
                   double targetSeconds) {
        Row[] rows = new Row[merged.size()];
        fill(rows, fa, merged.baseMap(), merged, true);
        fill(rows, fb, merged.targetMap(), merged, false);
        Map<GroupKey, List<Row>> groups = new HashMap<>();
        for (Row r : rows) {
            if (r != null) {
                groups.computeIfAbsent(new GroupKey(r.baseFingerprint, r.targetFingerprint, r.baseSamples, r.targetSamples),
                        k -> new ArrayList<>(1)).add(r);
            }
        }
        List<Row> kept = new ArrayList<>();
        for (List<Row> group : groups.values()) {
            kept.addAll(fold(group));
        }
        int tests = Math.max(1, 2 * kept.size());
        long n1 = fa.samples();
        long n2 = fb.samples();
        List<DiffResult.Change> out = new ArrayList<>();
        for (Row r : kept) {
            double p = Math.min(1, Statistics.pValue(mode.z(r.baseSamples, n1, baseSeconds, r.targetSamples, n2, targetSeconds)) * tests);
            double selfP = Math.min(1, Statistics.pValue(mode.z(r.baseSelfSamples, n1, baseSeconds, r.targetSelfSamples, n2,
                    targetSeconds)) * tests);
            double baseShare = share(r.baseTotal, fa.totalWeight());
            double targetShare = share(r.targetTotal, fb.totalWeight());
            double baseSelfShare = share(r.baseSelf, fa.totalWeight());
            double targetSelfShare = share(r.targetSelf, fb.totalWeight());
            double basePerSecond = r.baseTotal / baseSeconds;
            double targetPerSecond = r.targetTotal / targetSeconds;
            double baseSelfPerSecond = r.baseSelf / baseSeconds;
            double targetSelfPerSecond = r.targetSelf / targetSeconds;
            boolean unchanged = mode == DiffMode.RELATIVE
                    ? baseShare == targetShare && baseSelfShare == targetSelfShare
                    : basePerSecond == targetPerSecond && baseSelfPerSecond == targetSelfPerSecond;
            if (unchanged) {
                continue;
            }
            List<String> same = r.same;
            same.sort(null);
            out.add(new DiffResult.Change(r.method, baseShare, targetShare, targetShare - baseShare, baseSelfShare,
                    targetSelfShare, targetSelfShare - baseSelfShare, r.baseSamples, r.targetSamples, p, p < ALPHA,
                    r.baseSelfSamples, r.targetSelfSamples, selfP, selfP < ALPHA, basePerSecond, targetPerSecond,
                    targetPerSecond - basePerSecond, baseSelfPerSecond, targetSelfPerSecond,
                    targetSelfPerSecond - baseSelfPerSecond, same.isEmpty() ? List.of() : List.copyOf(same)));
        }
        out.sort((x, y) -> {
            boolean sx = x.significant() || x.selfSignificant();
            boolean sy = y.significant() || y.selfSignificant();
            if (sx != sy) {
                return sx ? -1 : 1;
            }
            int c = Double.compare(size(y, mode, true), size(x, mode, true));
            c = c != 0 ? c : Double.compare(size(y, mode, false), size(x, mode, false));
            return c != 0 ? c : x.method().compareTo(y.method());
        });
        return new Rows(out.size() > MAX_ROWS ? new ArrayList<>(out.subList(0, MAX_ROWS)) : out, tests);
    }

    /** The size of a row's change in the mode's measure: of its significant parts only, or of both. */
    static double size(DiffResult.Change c, DiffMode mode, boolean significantOnly) {
        double total = Math.abs(mode == DiffMode.RELATIVE ? c.delta() : c.perSecondDelta());
        double self = Math.abs(mode == DiffMode.RELATIVE ? c.selfDelta() : c.selfPerSecondDelta());
        if (significantOnly) {
            total = c.significant() ? total : 0;
            self = c.selfSignificant() ? self : 0;
        }
        return Math.max(total, self);
    }

    private static void fill(Row[] rows, SampleSets sets, int[] map, MergedNames merged, boolean base) {
        for (int i = 0; i < sets.size(); i++) {
            long totalSamples = sets.totalSamples(i);
            long selfSamples = sets.selfSamples(i);
            if (totalSamples == 0 && selfSamples == 0) {
                continue;
            }
            int m = map[i];
            Row r = rows[m];
            if (r == null) {
                r = rows[m] = new Row(merged.names()[m]);
            }
            if (base) {
                r.baseTotal = sets.total(i);
                r.baseSelf = sets.self(i);
                r.baseSamples = totalSamples;
                r.baseSelfSamples = selfSamples;
                r.baseFingerprint = sets.fingerprint(i);
            } else {
                r.targetTotal = sets.total(i);
                r.targetSelf = sets.self(i);
                r.targetSamples = totalSamples;
                r.targetSelfSamples = selfSamples;
                r.targetFingerprint = sets.fingerprint(i);
            }
            r.depth = Math.min(r.depth, sets.depth(i));
        }
    }

    /**
     * Methods on the same stacks: those with self weight keep their rows; the pass-through ones fold into the one
     * with the most self samples, or, when none has any, into the deepest of them (the one nearest the work).
     */
    private static List<Row> fold(List<Row> group) {
        if (group.size() == 1) {
            return group;
        }
        Row into = null;
        for (Row r : group) {
            if (!r.passThrough() && (into == null || r.baseSelfSamples + r.targetSelfSamples
                    > into.baseSelfSamples + into.targetSelfSamples)) {
                into = r;
            }
        }
        if (into == null) {
            for (Row r : group) {
                if (into == null || r.depth > into.depth || (r.depth == into.depth && r.method.compareTo(into.method) < 0)) {
                    into = r;
                }
            }
        }
        List<Row> kept = new ArrayList<>();
        for (Row r : group) {
            if (r == into || !r.passThrough()) {
                kept.add(r);
            } else {
                into.same.add(r.method);
            }
        }
        return kept;
    }

    private static double share(long w, long total) {
        return total == 0 ? 0 : (double) w / total;
    }

    /** Per node of the merged tree, +1 / -1 where its total changed significantly, else 0. */
    static int[] nodeSignificance(DiffTree t, DiffMode mode, long n1, long n2, double baseSeconds, double targetSeconds,
                                  long baseTotal, long targetTotal) {
        int[] out = new int[t.size];
        double critical = Statistics.criticalZ(ALPHA / Math.max(1, t.size));
        for (int i = 0; i < t.size; i++) {
            double z = mode.z(t.baseSamples[i], n1, baseSeconds, t.targetSamples[i], n2, targetSeconds);
            if (z >= critical) {
                double before = mode == DiffMode.RELATIVE ? share(t.base[i], baseTotal) : t.base[i] / baseSeconds;
                double after = mode == DiffMode.RELATIVE ? share(t.target[i], targetTotal) : t.target[i] / targetSeconds;
                out[i] = Double.compare(after, before);
            }
        }
        return out;
    }
}
