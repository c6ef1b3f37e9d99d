package org.jfrworkbench.analysis;

import java.util.ArrayList;
import java.util.List;

/**
 * One flame graph of the selected samples of several recordings (the runs of a service in a time range): their call
 * trees merged by path of stable names ({@link MergedTree}), then laid out as a recording's flame graph is, inverted
 * or not, with a search and at most maxNodes nodes. shape gives the kind, unit and weight of the answer (every part
 * selects the same kind, states, source and weight, each in its own time range).
 */
public record MergedFlameQuery(Selection shape, SearchPattern search, boolean inverted, int maxNodes) {

    /** The graph and which runs contributed samples to it. */
    public record Result(FlameGraph graph, List<RunSelection.Contribution> contributions) {
    }

    public Result run(List<RunSelection> runs) {
        List<RunSelection.Contribution> contributions = new ArrayList<>();
        TreeWeights w = MergedTree.of(RunSelection.weigh(runs, contributions, Parallel.WHEN_SPARE));
        boolean[] matches = search == null ? null : search.matchAll(w.tree().names().names());
        if (!inverted) {
            long matched = matches == null ? 0 : FlameLayout.matchedWeight(w, matches);
            return new Result(FlameLayout.of(w, shape, search, matches, matched, 1.0, Cut.of(w, maxNodes, null)),
                    contributions);
        }
        FlameGraph.Search found = null;
        if (search != null) {
            long matched = FlameLayout.matchedWeight(w, matches);
            found = new FlameGraph.Search(search.pattern(), search.matchCase(), search.literal(), matched,
                    w.totalWeight() == 0 ? 0 : (double) matched / w.totalWeight(), null);
        }
        return new Result(BoundedTree.inverted(w, maxNodes).graph(shape, true, matches, found, 1.0), contributions);
    }
}
