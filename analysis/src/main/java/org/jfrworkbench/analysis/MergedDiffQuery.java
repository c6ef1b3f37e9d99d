package org.jfrworkbench.analysis;

import java.util.ArrayList;
import java.util.List;

/**
 * A diff of two sets of runs (each its runs' samples in a time range, merged by {@link MergedTree}) in the shape and
 * with the significance rules of {@link DiffQuery}. "Per second" divides by run-seconds: the time each side's runs
 * span in its range, summed.
 */
public record MergedDiffQuery(Selection baseShape, Selection targetShape, DiffMode mode, int maxNodes) {

    /** The diff and the runs that contributed samples to each side. */
    public record Result(DiffResult diff, List<RunSelection.Contribution> base, List<RunSelection.Contribution> target) {
    }

    public Result run(List<RunSelection> baseRuns, List<RunSelection> targetRuns) {
        return run(baseRuns, targetRuns, Parallel.WHEN_SPARE);
    }

    /** The same, its independent halves at once as parallel says ({@link DiffQuery#run(ProfileData, ProfileData, Parallel)}). */
    Result run(List<RunSelection> baseRuns, List<RunSelection> targetRuns, Parallel parallel) {
        List<RunSelection.Contribution> baseContributions = new ArrayList<>();
        List<RunSelection.Contribution> targetContributions = new ArrayList<>();
        // the sides are independent until they are compared: each weighed, merged, cut and summed per method at once
        // (each run then weighed in one pass, as a side of DiffQuery is)
        Parallel.Both<DiffQuery.Side, DiffQuery.Side> sides = parallel.both(
                () -> side(RunSelection.weigh(baseRuns, baseContributions, Parallel.NEVER)),
                () -> side(RunSelection.weigh(targetRuns, targetContributions, Parallel.NEVER)),
                DiffQuery.Side::release, DiffQuery.Side::release);
        try {
            DiffResult diff = DiffQuery.compare(baseShape, targetShape, sides.first(), sides.second(),
                    RunSelection.seconds(baseRuns), RunSelection.seconds(targetRuns), mode,
                    () -> RunSelection.samplingInterval(baseRuns), () -> RunSelection.samplingInterval(targetRuns),
                    parallel);
            return new Result(diff, baseContributions, targetContributions);
        } finally {
            sides.first().release();
            sides.second().release();
        }
    }

    private DiffQuery.Side side(List<TreeWeights> runs) {
        return DiffQuery.Side.of(MergedTree.of(runs), maxNodes);
    }
}
