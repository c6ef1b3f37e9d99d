package org.jfrworkbench.analysis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

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
        double p;
        double selfP;
        /** The ranking: rows with a significant change first, by the size of that, then of any change. */
        boolean significantFirst;
        double significantSize;
        double size;

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
        // every row is tested and ranked, but only the rows shown become changes
        List<Row> changed = new ArrayList<>();
        for (Row r : kept) {
            r.p = Math.min(1, Statistics.pValue(mode.z(r.baseSamples, n1, baseSeconds, r.targetSamples, n2, targetSeconds)) * tests);
            r.selfP = Math.min(1, Statistics.pValue(mode.z(r.baseSelfSamples, n1, baseSeconds, r.targetSelfSamples, n2,
                    targetSeconds)) * tests);
            double total;
            double self;
            if (mode == DiffMode.RELATIVE) {
                double baseShare = share(r.baseTotal, fa.totalWeight());
                double targetShare = share(r.targetTotal, fb.totalWeight());
                double baseSelfShare = share(r.baseSelf, fa.totalWeight());
                double targetSelfShare = share(r.targetSelf, fb.totalWeight());
                if (baseShare == targetShare && baseSelfShare == targetSelfShare) {
                    continue;
                }
                total = Math.abs(targetShare - baseShare);
                self = Math.abs(targetSelfShare - baseSelfShare);
            } else {
                double basePerSecond = r.baseTotal / baseSeconds;
                double targetPerSecond = r.targetTotal / targetSeconds;
                double baseSelfPerSecond = r.baseSelf / baseSeconds;
                double targetSelfPerSecond = r.targetSelf / targetSeconds;
                if (basePerSecond == targetPerSecond && baseSelfPerSecond == targetSelfPerSecond) {
                    continue;
                }
                total = Math.abs(targetPerSecond - basePerSecond);
                self = Math.abs(targetSelfPerSecond - baseSelfPerSecond);
            }
            boolean significant = r.p < ALPHA;
            boolean selfSignificant = r.selfP < ALPHA;
            // the size of the change in the mode's measure: of its significant parts, and of both
            r.significantFirst = significant || selfSignificant;
            r.significantSize = Math.max(significant ? total : 0, selfSignificant ? self : 0);
            r.size = Math.max(total, self);
            changed.add(r);
        }
        List<DiffResult.Change> out = new ArrayList<>(Math.min(MAX_ROWS, changed.size()));
        for (Row r : first(changed, MAX_ROWS)) {
            r.same.sort(null);
            out.add(change(r, fa, fb, baseSeconds, targetSeconds));
        }
        return new Rows(out, tests);
    }

    /** The ranking: significant changes first, larger first, then by method (rows have one method each). */
    private static final Comparator<Row> RANK = (x, y) -> {
        if (x.significantFirst != y.significantFirst) {
            return x.significantFirst ? -1 : 1;
        }
        int c = Double.compare(y.significantSize, x.significantSize);
        c = c != 0 ? c : Double.compare(y.size, x.size);
        return c != 0 ? c : x.method.compareTo(y.method);
    };

    /**
     * The first k rows by {@link #RANK}, in that order: the k best kept in a heap whose head is the worst of them,
     * so that most rows cost one comparison, not the log of all rows that a sort of them takes.
     */
    private static List<Row> first(List<Row> rows, int k) {
        if (rows.size() <= k) {
            rows.sort(RANK);
            return rows;
        }
        PriorityQueue<Row> best = new PriorityQueue<>(k, RANK.reversed());
        for (Row r : rows) {
            if (best.size() < k) {
                best.add(r);
            } else if (RANK.compare(r, best.peek()) < 0) {
                best.poll();
                best.add(r);
            }
        }
        List<Row> out = new ArrayList<>(best);
        out.sort(RANK);
        return out;
    }

    /** A row's change, its p-values already found. */
    private static DiffResult.Change change(Row r, SampleSets fa, SampleSets fb, double baseSeconds, double targetSeconds) {
        double baseShare = share(r.baseTotal, fa.totalWeight());
        double targetShare = share(r.targetTotal, fb.totalWeight());
        double baseSelfShare = share(r.baseSelf, fa.totalWeight());
        double targetSelfShare = share(r.targetSelf, fb.totalWeight());
        double basePerSecond = r.baseTotal / baseSeconds;
        double targetPerSecond = r.targetTotal / targetSeconds;
        double baseSelfPerSecond = r.baseSelf / baseSeconds;
        double targetSelfPerSecond = r.targetSelf / targetSeconds;
        return new DiffResult.Change(r.method, baseShare, targetShare, targetShare - baseShare, baseSelfShare,
                targetSelfShare, targetSelfShare - baseSelfShare, r.baseSamples, r.targetSamples, r.p, r.p < ALPHA,
                r.baseSelfSamples, r.targetSelfSamples, r.selfP, r.selfP < ALPHA, basePerSecond, targetPerSecond,
                targetPerSecond - basePerSecond, baseSelfPerSecond, targetSelfPerSecond,
                targetSelfPerSecond - baseSelfPerSecond, r.same.isEmpty() ? List.of() : List.copyOf(r.same));
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
