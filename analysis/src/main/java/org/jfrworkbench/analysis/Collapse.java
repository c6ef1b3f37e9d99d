package org.jfrworkbench.analysis;

import java.io.IOException;

import org.jfrworkbench.importer.CollapsedFormat;
import org.jfrworkbench.model.FrameNaming;

/**
 * Collapsed stacks of the selected samples ({@code root;...;leaf weight}, one line per distinct printed stack, in
 * the call tree's order: depth first, children by name), what {@code workbench collapse} and
 * {@code GET /api/recordings/{id}/collapsed} write. Frame names are written by {@link CollapsedFormat}.
 */
public final class Collapse {
    private Collapse() {
    }

    public static void write(ProfileData data, Selection selection, FrameNaming naming, Appendable out) throws IOException {
        data.samples(selection.kind());
        TreeWeights w = selection.weigh(data, data.tree(naming));
        try {
            write(w.tree(), new PathWriter(w.tree()), out, (node, line) -> {
                if (w.selfSamples(node) > 0) {
                    line.append(' ').append(w.self(node)).append('\n');
                    return true;
                }
                return false;
            }, node -> w.totalSamples(node) > 0);
        } finally {
            w.release();
        }
    }

    /** Writes what follows a node's path on its line (and returns true), or nothing (false). */
    interface LineEnd {
        boolean append(int node, StringBuilder line);
    }

    /** Whether a subtree holds anything to write. */
    interface Selected {
        boolean test(int node);
    }

    /** Walks a pre-order tree keeping the current path's text, and writes a line where end says so. */
    static void write(CallTree tree, PathWriter paths, Appendable out, LineEnd end, Selected selected) throws IOException {
        for (int i = 1, n = tree.size(); i < n; ) {
            if (!selected.test(i)) {
                i = tree.end(i);
                continue;
            }
            StringBuilder line = paths.enter(i);
            int length = line.length();
            if (end.append(i, line)) {
                out.append(line);
                line.setLength(length);
            }
            i++;
        }
    }

    /** The text of the path to a node, kept incrementally as a pre-order walk enters nodes. */
    static final class PathWriter {
        private final CallTree tree;
        private final StringBuilder path = new StringBuilder(256);
        private int[] openNode = new int[64];
        private int[] openLength = new int[64];
        private int depth;

        PathWriter(CallTree tree) {
            this.tree = tree;
        }

        /** The path of node (entered after its ancestors, in pre-order), as a builder the caller may extend and trim. */
        StringBuilder enter(int node) {
            while (depth > 0 && tree.end(openNode[depth - 1]) <= node) {
                depth--;
            }
            path.setLength(depth == 0 ? 0 : openLength[depth - 1]);
            if (depth > 0) {
                path.append(';');
            }
            path.append(CollapsedFormat.escapeFrame(tree.names().name(tree.name(node))));
            if (depth == openNode.length) {
                openNode = java.util.Arrays.copyOf(openNode, depth * 2);
                openLength = java.util.Arrays.copyOf(openLength, depth * 2);
            }
            openNode[depth] = node;
            openLength[depth++] = path.length();
            return path;
        }
    }
}
