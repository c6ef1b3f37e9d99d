package org.jfrworkbench.analysis;

import java.util.List;

/**
 * One run's part of a query over several recordings: the recording and which of its samples count (the time range
 * translated onto the recording's own axis). A query weighs each part on its recording's call tree and merges them.
 */
public record RunSelection(ProfileData data, Selection selection) {

    /** What one run gave: its samples and weight in the selection. */
    public record Contribution(String id, long samples, long weight) {
    }

    /** Each part's weighed default call tree, with its contribution; parallel: whether a part's pass may go in halves. */
    static List<TreeWeights> weigh(List<RunSelection> runs, List<Contribution> contributions, Parallel parallel) {
        List<TreeWeights> out = new java.util.ArrayList<>();
        for (RunSelection r : runs) {
            r.data.samples(r.selection.kind());
            TreeWeights w = r.selection.weigh(r.data, r.data.tree(), true, parallel);
            out.add(w);
            if (w.samples() > 0) {
                contributions.add(new Contribution(r.data.id(), w.samples(), w.totalWeight()));
            }
        }
        return out;
    }

    /** The time the parts span, summed (run-seconds: two runs side by side count twice), at least a millisecond. */
    static double seconds(List<RunSelection> runs) {
        double sum = 0;
        for (RunSelection r : runs) {
            sum += r.selection.seconds(r.data.profile());
        }
        return Math.max(0.001, sum);
    }

    /** The first part's estimated sampling interval of the kind, 0 if there is none. */
    static long samplingInterval(List<RunSelection> runs) {
        for (RunSelection r : runs) {
            long i = r.data.samplingInterval(r.selection.kind());
            if (i > 0) {
                return i;
            }
        }
        return 0;
    }
}
