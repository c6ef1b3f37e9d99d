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
        if (inv != null) {
            return fromPart(data, tree, inv);
        }
        TreeWeights w = selection.weigh(data, tree);
        try {
            boolean[] matches = search == null ? null : data.matches(naming, search);
            if (!inverted) {
                return FlameLayout.of(w, selection, search, matches, scale, Cut.of(w, maxNodes, null));
            }
            return BoundedTree.inverted(w, maxNodes).graph(selection, true, matches, found(w, matches), scale);
        } finally {
            w.release();
        }
    }

    /**
     * An inverted graph from the tree's kept part: the slots' sums go straight to the part's nodes, so no weights on
     * the call tree are made but where a search's matched weight needs the tree's totals.
     */
    private FlameGraph fromPart(ProfileData data, CallTree tree, InvertedTree inv) {
        Selection.Slots slots = selection.slots(data, tree);
        TreeWeights w = null;
        try {
            Emitted e = BoundedTree.inverted(inv, slots, maxNodes);
            boolean[] matches = null;
            if (search != null) {
                matches = data.matches(naming, search);
                w = slots.onTree(true);
            }
            return e.graph(selection, true, matches, found(w, matches), scale);
        } finally {
            slots.release();
            if (w != null) {
                w.release();
            }
        }
    }

    /** The search's matched weight beside an inverted graph, null without a search. */
    private FlameGraph.Search found(TreeWeights w, boolean[] matches) {
        if (search == null) {
            return null;
        }
        long matched = FlameLayout.matchedWeight(w, matches);
        return new FlameGraph.Search(search.pattern(), search.matchCase(), search.literal(),
                FlameLayout.scaled(matched, scale), w.totalWeight() == 0 ? 0 : (double) matched / w.totalWeight(), null);
    }
}
