package org.jfrworkbench.analysis;

import java.util.Arrays;

import org.jfrworkbench.model.FrameNaming;

/**
 * The sandwich view of one method ({@link Sandwich}), named as the collapsed export writes frames. Where a stack
 * holds the method more than once, both trees start at its outermost (root-most) occurrence: the callers are those
 * from outside, and the callees include the recursive calls.
 */
public record SandwichQuery(Selection selection, String method, FrameNaming naming, int maxNodes) {

    public Sandwich run(ProfileData data) {
        data.samples(selection.kind());
        CallTree tree = data.tree(naming);
        int m = find(tree.names(), method);
        if (m < 0) {
            throw new UnknownMethodException("recording " + data.id() + " has no frame named '" + method + "'");
        }
        TreeWeights w = selection.weigh(data, tree);
        try {
            return run(tree, m, w);
        } finally {
            w.release();
        }
    }

    private Sandwich run(CallTree tree, int m, TreeWeights w) {
        int[] outermost = new int[16];
        int count = 0;
        long total = 0;
        long self = 0;
        long samples = 0;
        for (int i = 1, n = tree.size(); i < n; ) {
            if (w.totalSamples(i) == 0) {
                i = tree.end(i);
                continue;
            }
            if (tree.name(i) == m) {
                self += w.self(i);
                if (!tree.recursive(i)) {
                    if (count == outermost.length) {
                        outermost = Arrays.copyOf(outermost, count * 2);
                    }
                    outermost[count++] = i;
                    total += w.total(i);
                    samples += w.totalSamples(i);
                }
            }
            i++;
        }
        int[] occurrences = Arrays.copyOf(outermost, count);
        return new Sandwich(selection.kind().id(), selection.unit(), method, total, self, samples,
                BoundedTree.callers(w, occurrences, m, maxNodes).graph(selection, false, null, null, 1.0),
                BoundedTree.callees(w, occurrences, m, maxNodes).graph(selection, false, null, null, 1.0));
    }

    /** The name id of a frame as the collapsed export writes it (names with ';' are written with ':'). */
    private static int find(FrameNames names, String method) {
        int exact = names.find(method);
        if (exact >= 0) {
            return exact;
        }
        for (int i = 0; i < names.size(); i++) {
            if (org.jfrworkbench.importer.CollapsedFormat.escapeFrame(names.name(i)).equals(method)) {
                return i;
            }
        }
        return -1;
    }
}
