package org.jfrworkbench.analysis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntPredicate;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.jfrworkbench.model.GcEvent;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.SampleTable;
import org.jfrworkbench.model.StableNames;

/**
 * The live heap at one GC against another (two GCs of one recording, or of two recordings), by class and by
 * allocation stack: each side's figures by the rule of {@link LiveHeapQuery}, each row's change tested with the CPU
 * diff's tests on the sample counts, Bonferroni-corrected over the rows of its table. ABSOLUTE (the default) tests
 * the bytes: a side's samples are a Poisson count over its heap used after the GC (n samples per usedAfter bytes),
 * so comparing the two rates compares the two byte estimates. RELATIVE tests the share of the side's samples (the
 * composition: when one class grows, the others' shares shrink). Stacks are compared by their frames' stable names.
 * Where a side's recording has the JVM's counts by class, its classes' bytes are the live view's ({@link OlderObjects}:
 * the count at a counted GC, carried to the GCs after it), and a class whose bytes come from a count on either side is
 * tested on the two estimates and their errors instead ({@link #COUNTED_TEST}): two exact counts differ or they do not.
 */
public final class HeapDiffQuery {
    public static final int DEFAULT_LIMIT = 200;
    public static final int MAX_LIMIT = 2_000;

    static final String COUNTED_TEST = "for a class whose bytes come from the JVM's count on either side: two-sided z"
            + " test of the difference of the two estimates over the root of the sum of their variances ((bytes *"
            + " relative error)^2, 0 where counted exactly); two exact counts differ or not";

    static final String BYTES_TEST = "two-sided comparison of Poisson rates (live samples per byte of the heap used after"
            + " the GC, that is the bytes; binomial given both counts, normal approximation)";

    private final Integer baseGc;
    private final Integer targetGc;
    private final DiffMode mode;
    private final int limit;

    public HeapDiffQuery(Integer baseGc, Integer targetGc, DiffMode mode, int limit) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new BadQueryException("limit must be between 1 and " + MAX_LIMIT);
        }
        this.baseGc = baseGc;
        this.targetGc = targetGc;
        this.mode = mode;
        this.limit = limit;
    }

    public record Side(String id, LiveHeapQuery.Gc gc, long usedAfter, long liveSamples, long sampledWeight) {
    }

    /** A class's (or, with stack, an allocation site's) live bytes on both sides and the test of its change. */
    public record Row(@JsonProperty("class") String className, @JsonInclude(JsonInclude.Include.NON_NULL) List<String> stack,
                      long baseBytes, long targetBytes, long delta, double baseShare, double targetShare,
                      long baseSamples, long targetSamples, double pValue, boolean significant, int significance) {
    }

    public record HeapDiff(Side base, Side target, String mode, List<Row> byClass, List<Row> byStack, int classRows,
                           int stackRows, DiffResult.Test test, List<String> warnings) {
    }

    public HeapDiff run(ProfileData base, ProfileData target) {
        Tally a = tally(base, baseGc, "base");
        Tally b = tally(target, targetGc, "target");
        List<Row> byClass = rows(a.byClass, b.byClass, a, b, mode, true);
        List<Row> byStack = rows(a.bySite, b.bySite, a, b, mode, false);
        List<String> warnings = new ArrayList<>();
        if (a.side.id().equals(b.side.id()) && a.side.gc().index() == b.side.gc().index()) {
            warnings.add("both sides are GC " + a.side.gc().index() + " of one recording");
        }
        if (a.side.liveSamples() < 30 || b.side.liveSamples() < 30) {
            warnings.add("few live samples (base " + a.side.liveSamples() + ", target " + b.side.liveSamples()
                    + "): only large changes can be significant");
        }
        int classRows = byClass.size();
        int stackRows = byStack.size();
        String name = mode == DiffMode.ABSOLUTE ? BYTES_TEST : mode.test();
        DiffResult.Test test = new DiffResult.Test(a.estimate != null || b.estimate != null ? name + "; " + COUNTED_TEST
                : name, "Bonferroni", classRows, stackRows, DiffChanges.ALPHA);
        return new HeapDiff(a.side, b.side, mode.id(), byClass.subList(0, Math.min(limit, classRows)),
                byStack.subList(0, Math.min(limit, stackRows)), classRows, stackRows, test, warnings);
    }

    /** One side's live samples at its GC, summed by class and by (stack, class). */
    private record Tally(Side side, double scale, Map<Key, long[]> byClass, Map<Key, long[]> bySite,
                         Map<String, OlderObjects.ClassBytes> estimate) {
    }

    private record Key(String className, List<String> stack) {
    }

    private static Tally tally(ProfileData data, Integer gcIndex, String which) {
        Profile p = data.profile();
        int index;
        try {
            index = LiveHeapQuery.gcIndex(data, gcIndex);
        } catch (BadQueryException e) {
            throw new BadQueryException(which + ": " + e.getMessage());
        }
        GcEvent g = p.heap().gcs().get(index);
        if (p.kinds().get(Kind.LIVE) == null) {
            throw new BadQueryException(which + ": recording " + data.id() + " has no live-object samples");
        }
        SampleTable live = data.samples(Kind.LIVE);
        IntPredicate alive = LiveHeapQuery.aliveAt(data, g);
        Map<Key, long[]> byClass = new HashMap<>();
        Map<Key, long[]> bySite = new HashMap<>();
        Map<Integer, List<String>> stackNames = new HashMap<>();
        long sum = 0;
        long count = 0;
        for (int i = 0; i < live.size(); i++) {
            if ((i & 0xfff) == 0xfff) {
                QueryLimits.check();
            }
            if (!alive.test(i)) {
                continue;
            }
            long w = live.weight(i);
            sum += w;
            count++;
            String cls = live.objectClass(i) == 0 ? "[unknown class]" : p.strings().get(live.objectClass(i));
            add(byClass.computeIfAbsent(new Key(cls, null), k -> new long[2]), w);
            List<String> stack = stackNames.computeIfAbsent(live.stack(i),
                    s -> stable(HeapGrowthQuery.stackNames(p, s)));
            add(bySite.computeIfAbsent(new Key(cls, stack), k -> new long[2]), w);
        }
        if (count == 0) {
            throw new BadQueryException(which + ": no live sample is known alive at GC " + index + " of recording "
                    + data.id() + "; pick a later GC");
        }
        Side side = new Side(data.id(), LiveHeapQuery.gc(index, g), g.heapUsedAfter(), count, sum);
        Map<String, OlderObjects.ClassBytes> estimate = null;
        if (!p.heap().classCounts().isEmpty()) {
            estimate = OlderObjects.at(data, g, alive).byClass();
            for (String cls : estimate.keySet()) {
                byClass.computeIfAbsent(new Key(cls, null), k -> new long[2]); // a class only the count names
            }
        }
        return new Tally(side, (double) g.heapUsedAfter() / sum, byClass, bySite, estimate);
    }

    private static List<String> stable(List<String> names) {
        return names.stream().map(StableNames::of).toList();
    }

    private static void add(long[] c, long w) {
        c[0] += w;
        c[1]++;
    }

    private static List<Row> rows(Map<Key, long[]> base, Map<Key, long[]> target, Tally a, Tally b, DiffMode mode,
                                  boolean classes) {
        Set<Key> keys = new LinkedHashSet<>(base.keySet());
        keys.addAll(target.keySet());
        int tests = Math.max(1, keys.size());
        long n1 = a.side.liveSamples();
        long n2 = b.side.liveSamples();
        // a side's exposure: its samples per byte of heap, so that a count over it is bytes
        double baseExposure = (double) n1 / Math.max(1, a.side.usedAfter());
        double targetExposure = (double) n2 / Math.max(1, b.side.usedAfter());
        long[] none = new long[2];
        List<Row> rows = new ArrayList<>(keys.size());
        for (Key k : keys) {
            QueryLimits.check();
            long[] x = base.getOrDefault(k, none);
            long[] y = target.getOrDefault(k, none);
            OlderObjects.ClassBytes ea = classes && a.estimate != null ? a.estimate.get(k.className()) : null;
            OlderObjects.ClassBytes eb = classes && b.estimate != null ? b.estimate.get(k.className()) : null;
            double p;
            long baseBytes;
            long targetBytes;
            double baseShare;
            double targetShare;
            double change;
            if (classes && (a.estimate != null || b.estimate != null)) {
                // the live view's bytes where a side has counts; a side without keeps its samples' scale
                baseBytes = ea != null ? Math.round(ea.bytes) : a.estimate != null ? 0 : Math.round(x[0] * a.scale);
                targetBytes = eb != null ? Math.round(eb.bytes) : b.estimate != null ? 0 : Math.round(y[0] * b.scale);
                baseShare = (double) baseBytes / Math.max(1, a.side.usedAfter());
                targetShare = (double) targetBytes / Math.max(1, b.side.usedAfter());
            } else {
                baseBytes = Math.round(x[0] * a.scale);
                targetBytes = Math.round(y[0] * b.scale);
                baseShare = (double) x[0] / a.side.sampledWeight();
                targetShare = (double) y[0] / b.side.sampledWeight();
            }
            if (ea != null && ea.counted || eb != null && eb.counted) {
                // a count has no sample count to compare: the two estimates and their errors (a side without the
                // class: none of it, known as well as the other classes of its side)
                double va = ea == null ? 0 : Math.pow(baseBytes * ea.error(), 2);
                double vb = eb == null ? 0 : Math.pow(targetBytes * eb.error(), 2);
                double d = mode == DiffMode.ABSOLUTE ? targetBytes - baseBytes : targetShare - baseShare;
                double sd = mode == DiffMode.ABSOLUTE ? Math.sqrt(va + vb) : Math.sqrt(
                        va / Math.pow(Math.max(1, a.side.usedAfter()), 2) + vb / Math.pow(Math.max(1, b.side.usedAfter()), 2));
                p = sd == 0 ? (d == 0 ? 1 : 0) : Math.min(1, Statistics.pValue(Math.abs(d) / sd) * tests);
                change = d;
            } else {
                p = Math.min(1, Statistics.pValue(mode.z(x[1], n1, baseExposure, y[1], n2, targetExposure)) * tests);
                change = mode == DiffMode.ABSOLUTE ? y[1] / targetExposure - x[1] / baseExposure
                        : (double) y[1] / n2 - (double) x[1] / n1;
            }
            boolean significant = p < DiffChanges.ALPHA;
            rows.add(new Row(k.className(), k.stack(), baseBytes, targetBytes, targetBytes - baseBytes, baseShare,
                    targetShare, x[1], y[1], p, significant, significant ? (change > 0 ? 1 : -1) : 0));
        }
        // significant changes first, by their size in bytes; then the rest by size
        rows.sort(Comparator.comparing((Row r) -> !r.significant())
                .thenComparing(Comparator.comparingLong((Row r) -> Math.abs(r.delta())).reversed())
                .thenComparing(Row::className));
        return rows;
    }
}
