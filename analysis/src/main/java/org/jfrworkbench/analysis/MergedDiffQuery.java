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
        List<RunSelection.Contribution> baseContributions = new ArrayList<>();
        List<RunSelection.Contribution> targetContributions = new ArrayList<>();
        TreeWeights wa = MergedTree.of(RunSelection.weigh(baseRuns, baseContributions));
        TreeWeights wb = MergedTree.of(RunSelection.weigh(targetRuns, targetContributions));
        DiffResult diff = DiffQuery.compare(baseShape, targetShape, DiffQuery.Side.of(wa, maxNodes),
                DiffQuery.Side.of(wb, maxNodes), RunSelection.seconds(baseRuns),
                RunSelection.seconds(targetRuns), mode, () -> RunSelection.samplingInterval(baseRuns),
                () -> RunSelection.samplingInterval(targetRuns));
        return new Result(diff, baseContributions, targetContributions);
    }
}
