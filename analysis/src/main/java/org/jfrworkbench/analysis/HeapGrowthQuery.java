package org.jfrworkbench.analysis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.IntPredicate;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.jfrworkbench.model.GcEvent;
import org.jfrworkbench.model.HeapTimeline;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.SampleTable;

/**
 * The live set over time and the classes whose live bytes grow: at every GC that states its used-after bytes and at
 * which a live sample is known alive, each class's live bytes by the rule of {@link LiveHeapQuery} (the samples known
 * alive there, scaled to the heap used after it); then per class a least-squares line of those bytes over time. Its
 * slope ranks the classes; its confidence is {@code (1 - p) * (1 - 1/sqrt(samples))}, p the one-sided p-value of
 * Student's t for a slope above zero (n - 2 degrees of freedom over n GCs), samples the class's live samples behind
 * the series: a line that fits and many samples, or neither (0 for a series of no slope at all). Series of fewer
 * than {@link #MIN_SAMPLES} samples rank after the others, whatever their slope: one or two samples make a step, not
 * a trend.
 */
public final class HeapGrowthQuery {
    public static final int DEFAULT_LIMIT = 20;
    public static final int MAX_LIMIT = 200;
    /** GCs a series holds at most: a longer recording's GCs are thinned evenly (the first and last kept). */
    public static final int MAX_POINTS = 2048;

    /** Live samples behind a series below which it cannot show a trend: such series rank after the others. */
    static final int MIN_SAMPLES = 3;
    /** Series with enough samples first, each group by slope, largest first. */
    static final java.util.Comparator<Suspect> RANKING = java.util.Comparator
            .comparing(HeapGrowthQuery::weak)
            .thenComparing(java.util.Comparator.comparingDouble(Suspect::bytesPerSecond).reversed())
            .thenComparing(Suspect::className).thenComparing(s -> String.join(";", s.stack()));

    private final int limit;
    private final boolean bySite;

    /**
     * Too little behind a series to show a trend: fewer than {@link #MIN_SAMPLES} live samples and fewer than as many
     * GCs at which the JVM counted the class (a count is the class's bytes there, not a sample of them).
     */
    static boolean weak(Suspect s) {
        return s.samples() < MIN_SAMPLES && s.countedPoints() < MIN_SAMPLES;
    }

    /** One series per class, with the stack that holds most of it. */
    public HeapGrowthQuery(int limit) {
        this(limit, false);
    }

    /** bySite: one series per allocation site (stack and class) instead of per class. */
    public HeapGrowthQuery(int limit, boolean bySite) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new BadQueryException("limit must be between 1 and " + MAX_LIMIT);
        }
        this.limit = limit;
        this.bySite = bySite;
    }

    /** The live set at one GC: the heap used after it and the live samples known alive there. */
    public record LiveSetPoint(int index, long timeMillis, long usedAfter, long liveSamples) {
    }

    /**
     * One class's live bytes over time: the fitted growth, the first and last figure of its series, and the allocation
     * stack (root to leaf) that holds most of its live samples' weight.
     */
    public record Suspect(@JsonProperty("class") String className, double bytesPerSecond, long firstBytes, long lastBytes,
                          double confidence, double pValue, double rSquared, int points, long samples,
                          int countedPoints, List<String> stack, long stackSamples, List<long[]> series) {
    }

    /** by: "class" or "stack" (a series per allocation site); classes: how many series there were to rank. */
    public record Growth(String by, List<LiveSetPoint> gcs, double liveSetBytesPerSecond, int classes,
                         List<Suspect> suspects, String method, List<String> warnings, HeapFindings.Findings findings) {
    }

    public Growth run(ProfileData data) {
        Profile p = data.profile();
        List<GcEvent> all = p.heap().gcs();
        if (all.isEmpty()) {
            throw new BadQueryException("recording " + data.id() + " has no GC events, so there is no live set over time");
        }
        // without live samples the live set's total and the findings still stand, and the classes the JVM counted
        SampleTable live = p.kinds().get(Kind.LIVE) == null ? new SampleTable(Kind.LIVE) : data.samples(Kind.LIVE);
        // where the JVM counted the heap by class, a class's bytes at a GC are the live view's (OlderObjects): its
        // count there, carried to the GCs after it, the samples sharing the rest; counts name classes, not stacks
        boolean withCounts = !bySite && !p.heap().classCounts().isEmpty();
        int[] candidates = thin(all);
        if (candidates.length == 0) {
            throw new BadQueryException("no GC of recording " + data.id() + " states the heap used after it");
        }
        int n = candidates.length;
        long[] start = new long[n];
        long[] end = new long[n];
        for (int k = 0; k < n; k++) {
            GcEvent g = all.get(candidates[k]);
            start[k] = g.startNanos();
            end[k] = g.startNanos() + Math.max(0, g.durationNanos());
        }
        long longest = 0;
        for (int k = 0; k < n; k++) {
            longest = Math.max(longest, end[k] - start[k]);
        }
        // the same source filter as every live view; the GC condition is applied below per GC
        IntPredicate ofSource = live.size() == 0 ? i -> false : Selection.of(Kind.LIVE).on(data);
        HeapTimeline heap = p.heap();
        Map<Long, IntList> groups = new HashMap<>();
        long[] totalWeight = new long[n];
        long[] totalSamples = new long[n];
        List<Map<String, OlderObjects.ClassBytes>> own = new ArrayList<>(withCounts ? n : 0);
        for (int k = 0; withCounts && k < n; k++) {
            own.add(new HashMap<>());
        }
        int[] firstPoint = new int[live.size()];
        int[] lastPoint = new int[live.size()];
        for (int i = 0; i < live.size(); i++) {
            if ((i & 0xfff) == 0xfff) {
                QueryLimits.check();
            }
            firstPoint[i] = -1;
            if (!ofSource.test(i)) {
                continue;
            }
            // alive at GC k when allocated at or before its end and reported after it started (LiveHeapQuery's rule)
            long allocated = live.time(i);
            long until = heap.survivedUntil(i);
            int hi = upperBound(start, until) - 1;
            // starts are sorted, ends nearly so: from the first GC that may have ended by then, walk to the first that did
            int lo = upperBound(start, allocated - longest - 1);
            while (lo <= hi && end[lo] < allocated) {
                lo++;
            }
            if (lo > hi) {
                continue;
            }
            firstPoint[i] = lo;
            lastPoint[i] = hi;
            for (int k = lo; k <= hi; k++) {
                if (end[k] >= allocated) {
                    totalWeight[k] += live.weight(i);
                    totalSamples[k]++;
                    if (withCounts) {
                        OlderObjects.add(p, own.get(k), live, i);
                    }
                }
            }
            long group = bySite ? (long) live.stack(i) << 32 | (live.objectClass(i) & 0xffffffffL) : live.objectClass(i);
            groups.computeIfAbsent(group, c -> new IntList()).add(i);
        }
        OlderObjects.Estimate[] estimates = null;
        if (withCounts) {
            List<GcEvent> targets = new ArrayList<>(n);
            for (int k = 0; k < n; k++) {
                targets.add(all.get(candidates[k]));
            }
            estimates = OlderObjects.along(data, targets, own);
        }
        List<LiveSetPoint> gcs = new ArrayList<>(n);
        List<Integer> used = new ArrayList<>();
        double[] usedX = new double[n];
        double[] usedY = new double[n];
        for (int k = 0; k < n; k++) {
            GcEvent g = all.get(candidates[k]);
            gcs.add(new LiveSetPoint(candidates[k], g.startNanos() / 1_000_000, g.heapUsedAfter(), totalSamples[k]));
            usedX[k] = (start[k] - start[0]) / 1e9;
            usedY[k] = g.heapUsedAfter();
            if (withCounts ? bytes(estimates[k]) > 0 : totalWeight[k] > 0) {
                used.add(k);
            }
        }
        Fit liveSet = Fit.of(usedX, usedY, n);
        List<String> warnings = new ArrayList<>();
        if (candidates.length < countWithUsedAfter(all)) {
            warnings.add("the recording has " + all.size() + " GCs; " + n + " of them, evenly spread, make the series");
        }
        if (live.size() == 0 && !withCounts) {
            warnings.add("the recording has no live-object samples, so no class can be followed over time");
        } else if (used.size() < 3) {
            warnings.add(used.size() + " GC" + (used.size() == 1 ? "" : "s") + " with a live sample known alive"
                    + (withCounts ? " or a count of the JVM's before it" : "") + ": a growth needs at least 3 to be tested");
        }
        int m = used.size();
        double[] x = new double[m];
        for (int j = 0; j < m; j++) {
            x[j] = (start[used.get(j)] - start[used.get(0)]) / 1e9;
        }
        if (withCounts) {
            List<Suspect> suspects = counted(p, live, groups, estimates, used, x, start);
            return new Growth("class", gcs, liveSet.slope, suspects.size(), suspects.subList(0, Math.min(limit,
                    suspects.size())), COUNTED_METHOD, warnings, HeapFindings.of(data, liveSet.slope));
        }
        // one series at a time, so memory stays at one series however many classes, sites and GCs there are
        PriorityQueue<Suspect> top = new PriorityQueue<>(RANKING.reversed());
        long[] weight = new long[n];
        double[] y = new double[m];
        int classes = 0;
        for (Map.Entry<Long, IntList> e : groups.entrySet()) {
            QueryLimits.check();
            classes++;
            Arrays.fill(weight, 0);
            IntList samples = e.getValue();
            Map<Integer, long[]> stacks = new HashMap<>();
            for (int s = 0; s < samples.size; s++) {
                int i = samples.values[s];
                long allocated = live.time(i);
                for (int k = firstPoint[i]; k <= lastPoint[i]; k++) {
                    if (end[k] >= allocated) {
                        weight[k] += live.weight(i);
                    }
                }
                long[] st = stacks.computeIfAbsent(live.stack(i), k -> new long[2]);
                st[0] += live.weight(i);
                st[1]++;
            }
            for (int j = 0; j < m; j++) {
                int k = used.get(j);
                y[j] = (double) all.get(candidates[k]).heapUsedAfter() * weight[k] / totalWeight[k];
            }
            Fit fit = Fit.of(x, y, m);
            Map.Entry<Integer, long[]> heaviest = heaviest(stacks);
            int topStack = heaviest == null ? -1 : heaviest.getKey();
            long[] best = heaviest == null ? null : heaviest.getValue();
            int cls = (int) (long) e.getKey();
            String name = cls == 0 ? "[unknown class]" : p.strings().get(cls);
            List<String> stack = stackNames(p, topStack);
            Suspect ranked = new Suspect(name, fit.slope, 0, 0, 0, 1, 0, m, samples.size, 0, stack, 0, List.of());
            if (top.size() == limit && RANKING.compare(ranked, top.peek()) >= 0) {
                continue; // ranks below every suspect kept: its series is not built
            }
            List<long[]> series = new ArrayList<>(m);
            for (int j = 0; j < m; j++) {
                series.add(new long[] {start[used.get(j)] / 1_000_000, Math.round(y[j])});
            }
            double confidence = Fit.confidence(fit, m, 1 / Math.sqrt(samples.size));
            top.add(new Suspect(name, fit.slope, m == 0 ? 0 : Math.round(y[0]), m == 0 ? 0 : Math.round(y[m - 1]),
                    confidence, m < 3 ? 1 : fit.pValue, fit.rSquared, m, samples.size, 0, stack,
                    best == null ? 0 : best[1], series));
            if (top.size() > limit) {
                top.poll();
            }
        }
        List<Suspect> suspects = new ArrayList<>(top);
        suspects.sort(RANKING);
        return new Growth(bySite ? "stack" : "class", gcs, liveSet.slope, classes, suspects, "least-squares slope of each"
                + " class's upscaled live bytes over the GCs at which a live sample is known alive, series of fewer than "
                + MIN_SAMPLES + " samples last; confidence = (1 - one-sided p of Student's t for a positive slope)"
                + " * (1 - 1/sqrt(live samples of the class))", warnings, HeapFindings.of(data, liveSet.slope));
    }

    private static final String COUNTED_METHOD = "least-squares slope of each class's live bytes over the GCs at which a"
            + " live sample is known alive or a count of the JVM's precedes, each GC's bytes those of the live view (the"
            + " JVM's count where it counted, carried to the GCs after it, the samples sharing the rest; a class no sample"
            + " holds at the GCs that counted it only); series of fewer"
            + " than " + MIN_SAMPLES + " samples and counts last; confidence = (1 - one-sided p of Student's t for a"
            + " positive slope) * (1 - 1/sqrt(live samples of the class)), the second factor 1 for a class the JVM"
            + " counted";

    /** The bytes an estimate gives the heap's classes in all. */
    private static double bytes(OlderObjects.Estimate e) {
        double sum = 0;
        for (OlderObjects.ClassBytes c : e.byClass().values()) {
            sum += c.bytes;
        }
        return sum;
    }

    /**
     * The suspects where the JVM counted the heap by class, ranked: a series per class the live view names at a used
     * point (counted, carried or sampled), the stack from the class's live samples. The classes are as many as the
     * counts name (the JVM's count lists those over 0.5 % of the heap), so every series is built.
     */
    private List<Suspect> counted(Profile p, SampleTable live, Map<Long, IntList> groups,
                                  OlderObjects.Estimate[] estimates, List<Integer> used, double[] x, long[] start) {
        Map<String, IntList> samplesOf = new HashMap<>();
        for (Map.Entry<Long, IntList> e : groups.entrySet()) {
            samplesOf.put(OlderObjects.className(p, (int) (long) e.getKey()), e.getValue());
        }
        java.util.Set<String> names = new java.util.TreeSet<>();
        for (int k : used) {
            names.addAll(estimates[k].byClass().keySet());
        }
        int m = used.size();
        List<Suspect> suspects = new ArrayList<>(names.size());
        for (String name : names) {
            QueryLimits.check();
            double[] y = new double[m];
            boolean[] countedAt = new boolean[m];
            int countedPoints = 0;
            for (int j = 0; j < m; j++) {
                OlderObjects.ClassBytes c = estimates[used.get(j)].byClass().get(name);
                if (c == null) {
                    continue;
                }
                y[j] = c.bytes;
                if (c.exact) {
                    countedAt[j] = true; // the JVM counted it at this GC; a carried figure is no new count
                    countedPoints++;
                }
            }
            IntList samples = samplesOf.get(name);
            int sampleCount = samples == null ? 0 : samples.size;
            Map<Integer, long[]> stacks = new HashMap<>();
            for (int s = 0; samples != null && s < samples.size; s++) {
                int i = samples.values[s];
                long[] st = stacks.computeIfAbsent(live.stack(i), k -> new long[2]);
                st[0] += live.weight(i);
                st[1]++;
            }
            Map.Entry<Integer, long[]> heaviest = heaviest(stacks);
            int topStack = heaviest == null ? -1 : heaviest.getKey();
            long[] best = heaviest == null ? null : heaviest.getValue();
            // a class no live sample holds is known only where the JVM counted it: between counts its figure is the
            // last count carried (scaled with the heap), nothing new about it, which would only bend its line
            boolean countsOnly = sampleCount == 0 && countedPoints > 0;
            int points = countsOnly ? countedPoints : m;
            double[] xs = new double[points];
            double[] ys = new double[points];
            List<long[]> series = new ArrayList<>(points);
            for (int j = 0, q = 0; j < m; j++) {
                if (!countsOnly || countedAt[j]) {
                    xs[q] = x[j];
                    ys[q++] = y[j];
                    series.add(new long[] {start[used.get(j)] / 1_000_000, Math.round(y[j])});
                }
            }
            Fit fit = Fit.of(xs, ys, points);
            // a class the JVM counted has its bytes pinned by the counts: the slope's test alone says how sure the
            // growth is; the others have their samples' error
            double error = countedPoints > 0 ? 0 : sampleCount == 0 ? 1 : 1 / Math.sqrt(sampleCount);
            double confidence = Fit.confidence(fit, points, error);
            suspects.add(new Suspect(name, fit.slope, points == 0 ? 0 : Math.round(ys[0]),
                    points == 0 ? 0 : Math.round(ys[points - 1]), confidence, points < 3 ? 1 : fit.pValue, fit.rSquared,
                    points, sampleCount, countedPoints, stackNames(p, topStack), best == null ? 0 : best[1], series));
        }
        suspects.sort(RANKING);
        return suspects;
    }

    /**
     * Of a class's allocation stacks ({weight, samples} by stack), the one with most weight, the lowest stack id among
     * equals so that the answer does not depend on the map's order; null without any.
     */
    private static Map.Entry<Integer, long[]> heaviest(Map<Integer, long[]> stacks) {
        Map.Entry<Integer, long[]> best = null;
        for (Map.Entry<Integer, long[]> st : stacks.entrySet()) {
            if (best == null || st.getValue()[0] > best.getValue()[0]
                    || st.getValue()[0] == best.getValue()[0] && st.getKey() < best.getKey()) {
                best = st;
            }
        }
        return best;
    }

    /** Frame names of a stack, root first; empty for samples without one. */
    static List<String> stackNames(Profile p, int stack) {
        if (stack < 0 || stack >= p.stacks().size()) {
            return List.of();
        }
        int depth = p.stacks().depth(stack);
        List<String> names = new ArrayList<>(depth);
        for (int d = depth - 1; d >= 0; d--) {
            names.add(p.frameName(p.stacks().frame(stack, d)));
        }
        return names;
    }

    /** The indices of the GCs with a used-after figure, at most MAX_POINTS of them evenly spread. */
    private static int[] thin(List<GcEvent> gcs) {
        int[] withUsed = new int[gcs.size()];
        int count = 0;
        for (int i = 0; i < gcs.size(); i++) {
            if (gcs.get(i).heapUsedAfter() >= 0) {
                withUsed[count++] = i;
            }
        }
        if (count <= MAX_POINTS) {
            return Arrays.copyOf(withUsed, count);
        }
        int[] out = new int[MAX_POINTS];
        for (int j = 0; j < MAX_POINTS; j++) {
            out[j] = withUsed[(int) ((long) j * (count - 1) / (MAX_POINTS - 1))];
        }
        return out;
    }

    private static int countWithUsedAfter(List<GcEvent> gcs) {
        return (int) gcs.stream().filter(g -> g.heapUsedAfter() >= 0).count();
    }

    /** The first index whose value is above key (values sorted). */
    private static int upperBound(long[] values, long key) {
        int lo = 0;
        int hi = values.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (values[mid] <= key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** An ordinary least-squares line y = a + slope * x with its R^2 and the two-sided p-value of its slope. */
    record Fit(double slope, double rSquared, double pValue) {
        /**
         * How sure a series grows: (1 - the one-sided p of a positive slope) * (1 - the figures' relative error); 0
         * for fewer than 3 points or no slope at all. A flat series (exact counts that did not move) has nothing to
         * test, and its p of 1 is not the one-sided 0.5 of a slope estimated at zero: it showed confidence 0.5.
         */
        static double confidence(Fit fit, int points, double error) {
            if (points < 3 || fit.slope == 0) {
                return 0;
            }
            double oneSided = fit.slope > 0 ? fit.pValue / 2 : 1 - fit.pValue / 2;
            return (1 - oneSided) * (1 - error);
        }

        static Fit of(double[] x, double[] y, int n) {
            if (n < 2) {
                return new Fit(0, 0, 1);
            }
            double mx = 0;
            double my = 0;
            for (int i = 0; i < n; i++) {
                mx += x[i];
                my += y[i];
            }
            mx /= n;
            my /= n;
            double sxx = 0;
            double sxy = 0;
            double syy = 0;
            for (int i = 0; i < n; i++) {
                sxx += (x[i] - mx) * (x[i] - mx);
                sxy += (x[i] - mx) * (y[i] - my);
                syy += (y[i] - my) * (y[i] - my);
            }
            if (sxx == 0) {
                return new Fit(0, 0, 1);
            }
            double slope = sxy / sxx;
            if (syy == 0) {
                return new Fit(0, 0, 1); // a flat series: no growth, and nothing to test
            }
            double residual = Math.max(0, syy - slope * sxy);
            double r2 = 1 - residual / syy;
            if (n < 3) {
                return new Fit(slope, r2, 1);
            }
            double se = Math.sqrt(residual / (n - 2) / sxx);
            double t = se == 0 ? Double.POSITIVE_INFINITY : Math.abs(slope) / se;
            return new Fit(slope, r2, Statistics.tPValue(t, n - 2));
        }
    }

    /** A growable int array: the sample indices of one class. */
    private static final class IntList {
        int[] values = new int[8];
        int size;

        void add(int v) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = v;
        }
    }
}
