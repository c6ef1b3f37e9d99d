package org.jfrworkbench.analysis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
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

    record Rows(List<DiffResult.Change> changes, int tests) {
    }

    static Rows of(SampleSets fa, SampleSets fb, MergedNames merged, DiffMode mode, double baseSeconds,
                   double targetSeconds) {
        Methods m = new Methods(fa, fb, merged);
        try {
            m.group();
            int kept = m.fold();
            int tests = Math.max(1, 2 * kept);
            // every row is tested and ranked, but only the rows shown become changes
            int[] changed = m.rank(mode, baseSeconds, targetSeconds, tests);
            List<DiffResult.Change> out = new ArrayList<>(Math.min(MAX_ROWS, changed.length));
            for (int r : first(changed, MAX_ROWS, m)) {
                out.add(m.change(r, mode, baseSeconds, targetSeconds, tests));
            }
            return new Rows(out, tests);
        } finally {
            m.release();
        }
    }

    /**
     * The first k rows by {@link Methods#rank(int, int)}, in that order: the k best kept in a heap whose head is the
     * worst of them, so that most rows cost one comparison, not the log of all rows that a sort of them takes.
     */
    private static List<Integer> first(int[] rows, int k, Methods m) {
        Comparator<Integer> rank = m::rank;
        if (rows.length <= k) {
            List<Integer> out = new ArrayList<>(rows.length);
            for (int r : rows) {
                out.add(r);
            }
            out.sort(rank);
            return out;
        }
        PriorityQueue<Integer> best = new PriorityQueue<>(k, rank.reversed());
        for (int r : rows) {
            if (best.size() < k) {
                best.add(r);
            } else if (m.rank(r, best.peek()) < 0) {
                best.poll();
                best.add(r);
            }
        }
        List<Integer> out = new ArrayList<>(best);
        out.sort(rank);
        return out;
    }

    /**
     * The methods either side selects, one row each, in merged order (a row's number r here), their figures read from
     * the sides' sums where they lie (no object per method: a diff of a recording of hundreds of thousands of methods
     * made one row object, one key and two lists per method, and grouped them in a hash map of objects), grouped by
     * the stacks they lie on in a hash table of row numbers, each group a list of its rows in merged order.
     */
    private static final class Methods {
        private final SampleSets fa;
        private final SampleSets fb;
        private final MergedNames merged;
        private final int count;
        /** Per row: each side's method id (-1 where that side has none) and the merged id. */
        private final int[] base;
        private final int[] target;
        private final int[] id;
        /** Per row: the first row of its group, the next row of its group (-1 at its last), and its group's last. */
        private final int[] head;
        private final int[] next;
        private final int[] last;
        /** Per row: 0 where it is kept, else the row it folds into plus one. */
        private int[] into;
        /** The ranking of a changed row: a significant change first, by its size, then of any change. */
        private boolean[] significantFirst;
        private long[] significantSize;
        private long[] size;

        Methods(SampleSets fa, SampleSets fb, MergedNames merged) {
            this.fa = fa;
            this.fb = fb;
            this.merged = merged;
            int n = merged.size();
            base = QueryArrays.intsToWrite(n);
            target = QueryArrays.intsToWrite(n);
            id = QueryArrays.intsToWrite(n);
            int[] aMap = merged.baseMap();
            int[] bMap = merged.targetMap();
            // both maps keep their side's order (a merged id is a rank): one merge of the two sides' selected methods
            int i = present(fa, 0);
            int j = present(fb, 0);
            int k = 0;
            while (i < fa.size() || j < fb.size()) {
                int mi = i < fa.size() ? aMap[i] : Integer.MAX_VALUE;
                int mj = j < fb.size() ? bMap[j] : Integer.MAX_VALUE;
                int at = Math.min(mi, mj);
                base[k] = mi == at ? i : -1;
                target[k] = mj == at ? j : -1;
                id[k++] = at;
                if (mi == at) {
                    i = present(fa, i + 1);
                }
                if (mj == at) {
                    j = present(fb, j + 1);
                }
            }
            count = k;
            head = QueryArrays.intsToWrite(n);
            next = QueryArrays.intsToWrite(n);
            last = QueryArrays.intsToWrite(n);
        }

        /** The first method from i on that the side selects (its size where none). */
        private static int present(SampleSets s, int i) {
            while (i < s.size() && s.totalSamples(i) == 0 && s.selfSamples(i) == 0) {
                i++;
            }
            return i;
        }

        /** Rows with the same fingerprints and sample counts on both sides, each group's rows in merged order. */
        void group() {
            int cap = Integer.highestOneBit(Math.max(2, count) * 2 - 1) << 1;
            int[] table = QueryArrays.ints(cap);
            try {
                for (int r = 0; r < count; r++) {
                    int slot = hash(r) & (cap - 1);
                    while (table[slot] != 0 && !sameKey(table[slot] - 1, r)) {
                        slot = (slot + 1) & (cap - 1);
                    }
                    next[r] = -1;
                    if (table[slot] == 0) {
                        table[slot] = r + 1;
                        head[r] = r;
                    } else {
                        int g = table[slot] - 1;
                        head[r] = g;
                        next[last[g]] = r;
                    }
                    last[head[r]] = r;
                }
            } finally {
                QueryArrays.give(table);
            }
        }

        private int hash(int r) {
            long h = baseFingerprint(r) * 0x9E3779B97F4A7C15L + targetFingerprint(r);
            h = h * 0xC2B2AE3D27D4EB4FL + baseSamples(r);
            h = h * 0x165667B19E3779F9L + targetSamples(r);
            h *= 0x9E3779B97F4A7C15L;
            return (int) (h ^ h >>> 32);
        }

        private boolean sameKey(int x, int y) {
            return baseFingerprint(x) == baseFingerprint(y) && targetFingerprint(x) == targetFingerprint(y)
                    && baseSamples(x) == baseSamples(y) && targetSamples(x) == targetSamples(y);
        }

        /**
         * Methods on the same stacks: those with self weight keep their rows; the pass-through ones fold into the one
         * with the most self samples (the first of them in merged order), or, when none has any, into the deepest of
         * them (the one nearest the work; of equal depths the first by name). The rows kept.
         */
        int fold() {
            into = QueryArrays.ints(Math.max(1, merged.size()));
            int kept = 0;
            for (int g = 0; g < count; g++) {
                if (head[g] != g) {
                    continue;
                }
                if (next[g] < 0) {
                    kept++;
                    continue;
                }
                int to = -1;
                for (int r = g; r >= 0; r = next[r]) {
                    if (!passThrough(r) && (to < 0 || selfSamplesBoth(r) > selfSamplesBoth(to))) {
                        to = r;
                    }
                }
                if (to < 0) {
                    for (int r = g; r >= 0; r = next[r]) {
                        if (to < 0 || depth(r) > depth(to) || (depth(r) == depth(to) && id[r] < id[to])) {
                            to = r;
                        }
                    }
                }
                for (int r = g; r >= 0; r = next[r]) {
                    if (r == to || !passThrough(r)) {
                        kept++;
                    } else {
                        into[r] = to + 1;
                    }
                }
            }
            return kept;
        }

        /** The kept rows with any change, each one's ranking noted. */
        int[] rank(DiffMode mode, double baseSeconds, double targetSeconds, int tests) {
            int n = Math.max(1, merged.size());
            significantFirst = QueryArrays.booleans(n);
            significantSize = QueryArrays.longsToWrite(n);
            size = QueryArrays.longsToWrite(n);
            int[] changed = new int[count];
            int c = 0;
            long n1 = fa.samples();
            long n2 = fb.samples();
            for (int r = 0; r < count; r++) {
                if (into[r] != 0) {
                    continue;
                }
                double total;
                double self;
                if (mode == DiffMode.RELATIVE) {
                    double baseShare = share(baseTotal(r), fa.totalWeight());
                    double targetShare = share(targetTotal(r), fb.totalWeight());
                    double baseSelfShare = share(baseSelf(r), fa.totalWeight());
                    double targetSelfShare = share(targetSelf(r), fb.totalWeight());
                    if (baseShare == targetShare && baseSelfShare == targetSelfShare) {
                        continue;
                    }
                    total = Math.abs(targetShare - baseShare);
                    self = Math.abs(targetSelfShare - baseSelfShare);
                } else {
                    double basePerSecond = baseTotal(r) / baseSeconds;
                    double targetPerSecond = targetTotal(r) / targetSeconds;
                    double baseSelfPerSecond = baseSelf(r) / baseSeconds;
                    double targetSelfPerSecond = targetSelf(r) / targetSeconds;
                    if (basePerSecond == targetPerSecond && baseSelfPerSecond == targetSelfPerSecond) {
                        continue;
                    }
                    total = Math.abs(targetPerSecond - basePerSecond);
                    self = Math.abs(targetSelfPerSecond - baseSelfPerSecond);
                }
                boolean significant = p(r, mode, n1, n2, baseSeconds, targetSeconds, tests) < ALPHA;
                boolean selfSignificant = selfP(r, mode, n1, n2, baseSeconds, targetSeconds, tests) < ALPHA;
                // the size of the change in the mode's measure: of its significant parts, and of both
                significantFirst[r] = significant || selfSignificant;
                significantSize[r] = Double.doubleToRawLongBits(
                        Math.max(significant ? total : 0, selfSignificant ? self : 0));
                size[r] = Double.doubleToRawLongBits(Math.max(total, self));
                changed[c++] = r;
            }
            return Arrays.copyOf(changed, c);
        }

        /** The ranking: significant changes first, larger first, then by method (a merged id is its name's rank). */
        int rank(int x, int y) {
            if (significantFirst[x] != significantFirst[y]) {
                return significantFirst[x] ? -1 : 1;
            }
            int c = Double.compare(Double.longBitsToDouble(significantSize[y]),
                    Double.longBitsToDouble(significantSize[x]));
            c = c != 0 ? c : Double.compare(Double.longBitsToDouble(size[y]), Double.longBitsToDouble(size[x]));
            return c != 0 ? c : Integer.compare(id[x], id[y]);
        }

        private double p(int r, DiffMode mode, long n1, long n2, double baseSeconds, double targetSeconds, int tests) {
            return Math.min(1, Statistics.pValue(mode.z(baseSamples(r), n1, baseSeconds, targetSamples(r), n2,
                    targetSeconds)) * tests);
        }

        private double selfP(int r, DiffMode mode, long n1, long n2, double baseSeconds, double targetSeconds,
                             int tests) {
            return Math.min(1, Statistics.pValue(mode.z(baseSelfSamples(r), n1, baseSeconds, targetSelfSamples(r), n2,
                    targetSeconds)) * tests);
        }

        /** A row's change; the methods folded into it are its group's others that fold into it, in name order. */
        DiffResult.Change change(int r, DiffMode mode, double baseSeconds, double targetSeconds, int tests) {
            long n1 = fa.samples();
            long n2 = fb.samples();
            double p = p(r, mode, n1, n2, baseSeconds, targetSeconds, tests);
            double selfP = selfP(r, mode, n1, n2, baseSeconds, targetSeconds, tests);
            List<String> same = new ArrayList<>();
            for (int o = head[r]; o >= 0; o = next[o]) {
                if (into[o] == r + 1) {
                    same.add(merged.names()[id[o]]);
                }
            }
            double baseShare = share(baseTotal(r), fa.totalWeight());
            double targetShare = share(targetTotal(r), fb.totalWeight());
            double baseSelfShare = share(baseSelf(r), fa.totalWeight());
            double targetSelfShare = share(targetSelf(r), fb.totalWeight());
            double basePerSecond = baseTotal(r) / baseSeconds;
            double targetPerSecond = targetTotal(r) / targetSeconds;
            double baseSelfPerSecond = baseSelf(r) / baseSeconds;
            double targetSelfPerSecond = targetSelf(r) / targetSeconds;
            return new DiffResult.Change(merged.names()[id[r]], baseShare, targetShare, targetShare - baseShare,
                    baseSelfShare, targetSelfShare, targetSelfShare - baseSelfShare, baseSamples(r), targetSamples(r),
                    p, p < ALPHA, baseSelfSamples(r), targetSelfSamples(r), selfP, selfP < ALPHA, basePerSecond,
                    targetPerSecond, targetPerSecond - basePerSecond, baseSelfPerSecond, targetSelfPerSecond,
                    targetSelfPerSecond - baseSelfPerSecond, same.isEmpty() ? List.of() : List.copyOf(same));
        }

        private boolean passThrough(int r) {
            return baseSelfSamples(r) == 0 && targetSelfSamples(r) == 0;
        }

        private long selfSamplesBoth(int r) {
            return baseSelfSamples(r) + targetSelfSamples(r);
        }

        /** The shallower of its sides' first outermost occurrences (Integer.MAX_VALUE where neither has one). */
        private int depth(int r) {
            return Math.min(base[r] < 0 ? Integer.MAX_VALUE : fa.depth(base[r]),
                    target[r] < 0 ? Integer.MAX_VALUE : fb.depth(target[r]));
        }

        private long baseTotal(int r) {
            return base[r] < 0 ? 0 : fa.total(base[r]);
        }

        private long targetTotal(int r) {
            return target[r] < 0 ? 0 : fb.total(target[r]);
        }

        private long baseSelf(int r) {
            return base[r] < 0 ? 0 : fa.self(base[r]);
        }

        private long targetSelf(int r) {
            return target[r] < 0 ? 0 : fb.self(target[r]);
        }

        private long baseSamples(int r) {
            return base[r] < 0 ? 0 : fa.totalSamples(base[r]);
        }

        private long targetSamples(int r) {
            return target[r] < 0 ? 0 : fb.totalSamples(target[r]);
        }

        private long baseSelfSamples(int r) {
            return base[r] < 0 ? 0 : fa.selfSamples(base[r]);
        }

        private long targetSelfSamples(int r) {
            return target[r] < 0 ? 0 : fb.selfSamples(target[r]);
        }

        private long baseFingerprint(int r) {
            return base[r] < 0 ? 0 : fa.fingerprint(base[r]);
        }

        private long targetFingerprint(int r) {
            return target[r] < 0 ? 0 : fb.fingerprint(target[r]);
        }

        /** Its arrays back to {@link QueryArrays}. */
        void release() {
            for (Object a : new Object[] {base, target, id, head, next, last, into, significantFirst, significantSize,
                    size}) {
                if (a != null) {
                    QueryArrays.give(a);
                }
            }
        }
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
