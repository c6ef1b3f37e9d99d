package org.jfrworkbench.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;

import org.jfrworkbench.model.FrameNaming;
import org.jfrworkbench.model.Kind;

/**
 * Compares two selections (each with its own recording, time range, threads and kind): their call trees merged by
 * frame path with both sides' weights (at most maxNodes nodes, the lightest left out into "[other]"), per-node significance for colouring, and per-method changes of share
 * (relative mode) or of weight per second (absolute mode). Every change is tested on raw sample counts
 * ({@link DiffMode}), Bonferroni-corrected for the number of tests, significant below 0.05: sampling noise between
 * two runs of the same code is not reported as a regression.
 */
public record DiffQuery(Selection base, Selection target, FrameNaming naming, DiffMode mode, int maxNodes) {

    /** Both whole recordings, one kind, relative mode, the default bound on the merged tree. */
    public DiffQuery(Kind kind, FrameNaming naming) {
        this(Selection.of(kind), Selection.of(kind), naming, DiffMode.RELATIVE, FlameGraphQuery.DEFAULT_MAX_NODES);
    }

    public Kind kind() {
        return base.kind();
    }

    public DiffResult run(ProfileData a, ProfileData b) {
        return run(a, b, Parallel.WHEN_SPARE);
    }

    /** The same, its independent halves at once as parallel says. */
    DiffResult run(ProfileData a, ProfileData b, Parallel parallel) {
        a.samples(base.kind());
        b.samples(target.kind());
        // the two sides are independent until they are merged: each weighed, cut and summed per method at once, and
        // so each weighed in one pass (where its halves are not, the processors are busy); a side's totals are summed
        // in its method sums' pass
        Parallel.Both<Side, Side> sides = parallel.both(
                () -> Side.of(base.weigh(a, a.tree(naming), false, Parallel.NEVER), maxNodes),
                () -> Side.of(target.weigh(b, b.tree(naming), false, Parallel.NEVER), maxNodes), Side::release,
                Side::release);
        try {
            return compare(base, target, sides.first(), sides.second(), base.seconds(a.profile()),
                    target.seconds(b.profile()), mode, () -> a.samplingInterval(base.kind()),
                    () -> b.samplingInterval(target.kind()), parallel);
        } finally {
            sides.first().release();
            sides.second().release();
        }
    }

    /** One side of a diff: its weighed tree, the weight its nodes need to be kept, and its per-method sums. */
    record Side(TreeWeights w, long threshold, int size, SampleSets sets) {
        /** Once the diff is answered: its arrays go back to {@link QueryArrays}. */
        void release() {
            w.release();
            sets.release();
        }

        /**
         * Each side's heaviest nodes in half the budget; counts ranked from the method sums' pass over the tree, which
         * sums w's totals too where it holds self weights only.
         */
        static Side of(TreeWeights w, int maxNodes) {
            Cut.Counts counts = w.unit() > 0 ? new Cut.Counts() : null;
            SampleSets sets = SampleSets.of(w, counts);
            Cut cut = Cut.of(w, maxNodes / 2, counts);
            return new Side(w, cut.threshold(), cut.size(), sets);
        }
    }

    /**
     * The diff of two weighed trees (a recording's or several merged, {@link MergedDiffQuery}); seconds are what
     * "per second" divides by, the intervals each side's sampling interval (0 if unknown), asked only when needed;
     * parallel: whether the merged tree and the method rows are made at once.
     */
    static DiffResult compare(Selection base, Selection target, Side sa, Side sb, double baseSeconds,
                              double targetSeconds, DiffMode mode, LongSupplier baseInterval,
                              LongSupplier targetInterval, Parallel parallel) {
        TreeWeights wa = sa.w();
        TreeWeights wb = sb.w();
        // frames compare by stable name: a lambda of two runs of the same code is one frame, not -100 % and +100 %
        MergedNames merged = MergedNames.of(wa.tree().names(), wb.tree().names());
        // the merged tree and the method rows read the sides but not each other: at once where a core is spare, the
        // tree's walk split too, so that the helper, once the rows are done, takes part of it
        Parallel.Both<DiffTree, DiffChanges.Rows> parts = parallel.both(
                () -> DiffTree.merge(wa, wb, merged, sa.threshold(), sb.threshold(), Math.max(sa.size(), sb.size()),
                        parallel),
                () -> DiffChanges.of(sa.sets(), sb.sets(), merged, mode, baseSeconds, targetSeconds));
        DiffTree tree = parts.first();
        DiffChanges.Rows rows = parts.second();
        int[] significance = DiffChanges.nodeSignificance(tree, mode, wa.samples(), wb.samples(), baseSeconds,
                targetSeconds, wa.totalWeight(), wb.totalWeight());
        int n = tree.size;
        DiffResult.Nodes nodes = new DiffResult.Nodes(tree.name, tree.parent, tree.type, tree.counts(), tree.base,
                tree.target, tree.baseSelf, tree.targetSelf, significance);
        DiffResult.Test test = new DiffResult.Test(mode.test(), "Bonferroni", rows.tests(), n, DiffChanges.ALPHA);
        return new DiffResult(base.kind().id(), target.kind().id(), base.unit(), mode.id(), wa.totalWeight(),
                wb.totalWeight(), wa.samples(), wb.samples(), baseSeconds, targetSeconds, tree.names, nodes,
                rows.changes(), test, warnings(base, target, baseInterval, targetInterval, wa, wb, baseSeconds,
                        targetSeconds));
    }

    /** Why the two sides may not compare: different kinds or units, sampling intervals, durations, too few samples. */
    private static List<String> warnings(Selection base, Selection target, LongSupplier baseInterval,
                                         LongSupplier targetInterval, TreeWeights wa, TreeWeights wb,
                                         double baseSeconds, double targetSeconds) {
        List<String> out = new ArrayList<>();
        if (base.kind() != target.kind()) {
            out.add("different kinds: the base is '" + base.kind().id() + "' (" + base.unit() + "), the target '"
                    + target.kind().id() + "' (" + target.unit() + ")");
        } else if (base.kind().unit().equals("samples")) {
            long ia = baseInterval.getAsLong();
            long ib = targetInterval.getAsLong();
            if (ia > 0 && ib > 0 && Math.max(ia, ib) > 1.5 * Math.min(ia, ib)) {
                out.add(String.format(Locale.ROOT, "different sampling intervals: about %s in the base, %s in the target,"
                        + " so a sample stands for different times", millis(ia), millis(ib)));
            }
        }
        if (Math.max(baseSeconds, targetSeconds) > 2 * Math.min(baseSeconds, targetSeconds)) {
            out.add(String.format(Locale.ROOT, "different durations: the base covers %.1f s, the target %.1f s",
                    baseSeconds, targetSeconds));
        }
        for (TreeWeights w : List.of(wa, wb)) {
            if (w.samples() < 30) {
                out.add((w == wa ? "the base" : "the target") + " has " + w.samples()
                        + " samples: too few for any change to be significant");
            }
        }
        return out;
    }

    private static String millis(long nanos) {
        return String.format(Locale.ROOT, nanos >= 10_000_000 ? "%.0f ms" : "%.2f ms", nanos / 1e6);
    }
}
