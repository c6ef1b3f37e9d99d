package org.jfrworkbench.analysis;

import org.jfrworkbench.model.FrameNaming;
import org.jfrworkbench.model.Kind;

/**
 * A flame graph of the selected samples, optionally inverted (leaves at the root, their callers above) and with a
 * search over frame names; at most maxNodes nodes, the lightest left out into "[other]" frames
 * ({@link BoundedTree}). {@code scale} multiplies every output weight (live-heap upscaling).
 */
public record FlameGraphQuery(Selection selection, SearchPattern search, boolean inverted, FrameNaming naming,
                              double scale, int maxNodes) {
    /**
     * Nodes of an answer unless asked otherwise. About what a wide screen can show: a row 2,000 px wide holds a few
     * thousand frames of at least a third of a pixel. It bounds the time, memory and transfer of graphs of deep
     * stacks, whose inverted graph has many times the nodes of the graph itself.
     */
    public static final int DEFAULT_MAX_NODES = 1 << 17;

    public FlameGraphQuery(Kind kind) {
        this(Selection.of(kind), null, false, FrameNaming.DEFAULT, 1.0, DEFAULT_MAX_NODES);
    }

    public Kind kind() {
        return selection.kind();
    }

    public FlameGraph run(ProfileData data) {
        data.samples(selection.kind());
        CallTree tree = data.tree(naming);
        InvertedTree inv = inverted ? tree.inverted() : null;
        // an inverted graph from the kept part reads self weights only, and a search's matched weight the totals
        TreeWeights w = selection.weigh(data, tree, inv == null || search != null);
        try {
            return run(data, inv, w);
        } finally {
            w.release();
        }
    }

    private FlameGraph run(ProfileData data, InvertedTree inv, TreeWeights w) {
        boolean[] matches = search == null ? null : data.matches(naming, search);
        if (!inverted) {
            return FlameLayout.of(w, selection, search, matches, scale, FlameLayout.threshold(w, maxNodes));
        }
        Emitted e = inv == null ? BoundedTree.inverted(w, maxNodes) : BoundedTree.inverted(w, inv, maxNodes);
        FlameGraph.Search found = null;
        if (search != null) {
            long matched = FlameLayout.matchedWeight(w, matches);
            found = new FlameGraph.Search(search.pattern(), search.matchCase(), search.literal(),
                    FlameLayout.scaled(matched, scale), w.totalWeight() == 0 ? 0 : (double) matched / w.totalWeight(), null);
        }
        return e.graph(selection, true, matches, found, scale);
    }
}
