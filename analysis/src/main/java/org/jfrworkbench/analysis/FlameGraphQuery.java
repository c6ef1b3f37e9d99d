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
        return run(data, Parallel.WHEN_SPARE);
    }

    /**
     * The same, the passes over the samples (and an inverted graph's over the tree's kept part) in halves at once as
     * parallel says (tests and benchmarks: both ways answer alike).
     */
    FlameGraph run(ProfileData data, Parallel parallel) {
        data.samples(selection.kind());
        CallTree tree = data.tree(naming);
        InvertedTree inv = inverted ? tree.inverted() : null;
        if (inv != null) {
            return fromPart(data, tree, inv, parallel);
        }
        if (!inverted) {
            return layout(data, tree, parallel);
        }
        TreeWeights w = selection.weigh(data, tree);
        try {
            boolean[] matches = search == null ? null : data.matches(naming, search);
            FlameGraph.Search found = search == null ? null
                    : found(FlameLayout.matchedWeight(w, matches), w.totalWeight());
            return BoundedTree.inverted(w, maxNodes).graph(selection, true, matches, found, scale);
        } finally {
            w.release();
        }
    }

    /**
     * The graph of the tree, cut to maxNodes: the cut's counts gathered while the totals are summed, the layout read
     * from the nodes the cut's walk kept, a search's matched weight summed over its matching slots. Where the samples
     * weigh alike and the recording's coarse part of the tree is made ({@link CoarseTree}), the weights, the cut and
     * the layout are on that part, the same answer without a pass over every node, unless the cut goes below it; a
     * view of no chosen threads and no search counts its samples straight onto the part (a search's matched weight is
     * summed over its slots, and reading each sample's slot in the pass onto the part cost more than that).
     */
    private FlameGraph layout(ProfileData data, CallTree tree, Parallel parallel) {
        long unit = selection.unit(data);
        CoarseTree coarse = unit > 0 ? data.coarse(tree, selection) : null;
        if (coarse != null && selection.threads() == null && search == null) {
            FlameGraph g = onCoarse(data, coarse, unit, parallel);
            if (g != null) {
                return g;
            }
            coarse = null; // not likely on the part, or its cut went below it: the whole tree
        }
        Selection.Slots slots = selection.slots(data, tree, parallel);
        TreeWeights w;
        Cut.Counts counts;
        long matched = 0;
        try {
            if (search != null) {
                matched = slots.weightOf(data.matchingSlots(tree, naming, search));
            }
            if (coarse != null && coarse.likely(slots)) {
                counts = new Cut.Counts();
                FlameGraph g = cutAndLayout(data, coarse.weigh(slots, counts), counts, matched);
                if (g != null) {
                    return g;
                }
            }
            counts = new Cut.Counts();
            w = slots.onTree(true, counts);
        } finally {
            slots.release();
        }
        return cutAndLayout(data, w, counts, matched);
    }

    /**
     * The graph from the coarse part with the samples counted straight onto it ({@link CoarseTree#weigh(ProfileData,
     * Selection, long, Parallel, Cut.Counts)}); null where the view is not likely there or its cut is not.
     */
    private FlameGraph onCoarse(ProfileData data, CoarseTree coarse, long unit, Parallel parallel) {
        Cut.Counts counts = new Cut.Counts();
        TreeWeights w = coarse.weigh(data, selection, unit, parallel, counts);
        return w == null ? null : cutAndLayout(data, w, counts, 0);
    }

    /** The cut of w and its layout (null where the cut is not known from a coarse part); w is given back. */
    private FlameGraph cutAndLayout(ProfileData data, TreeWeights w, Cut.Counts counts, long matched) {
        Cut.Noted cut = null;
        try {
            boolean[] matches = search == null ? null : data.matches(naming, search);
            cut = Cut.noted(w, maxNodes, w.unit() > 0 ? counts : null);
            return cut == null ? null : FlameLayout.of(w, selection, search, matches, matched, scale, cut);
        } finally {
            if (cut != null) {
                cut.release();
            }
            w.release();
        }
    }

    /**
     * An inverted graph from the tree's kept part: the slots' sums go straight to the part's nodes, so no weights on
     * the call tree are made; a search's matched weight is summed over its matching slots. A view of no chosen
     * threads and no search whose samples weigh alike counts them by their codes in the part ({@link InvertedCodes})
     * where those are made, with no array of the tree's slots.
     */
    private FlameGraph fromPart(ProfileData data, CallTree tree, InvertedTree inv, Parallel parallel) {
        if (selection.threads() == null && search == null) {
            long unit = selection.unit(data);
            InvertedCodes codes = unit > 0 ? data.invertedCodes(tree, inv, selection) : null;
            if (codes != null) {
                Emitted e = BoundedTree.inverted(inv, tree, codes.weigh(data, selection, unit, parallel), maxNodes);
                return e.graph(selection, true, null, null, scale);
            }
        }
        Selection.Slots slots = selection.slots(data, tree, parallel);
        try {
            Emitted e = BoundedTree.inverted(inv, slots, maxNodes, parallel);
            boolean[] matches = null;
            FlameGraph.Search found = null;
            if (search != null) {
                matches = data.matches(naming, search);
                found = found(slots.weightOf(data.matchingSlots(tree, naming, search)), slots.weightOf(null));
            }
            return e.graph(selection, true, matches, found, scale);
        } finally {
            slots.release();
        }
    }

    /** The search's matched weight beside an inverted graph, of the selection's whole weight. */
    private FlameGraph.Search found(long matched, long all) {
        return new FlameGraph.Search(search.pattern(), search.matchCase(), search.literal(),
                FlameLayout.scaled(matched, scale), all == 0 ? 0 : (double) matched / all, null);
    }
}
