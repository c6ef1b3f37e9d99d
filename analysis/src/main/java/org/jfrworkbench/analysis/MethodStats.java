package org.jfrworkbench.analysis;

import org.jfrworkbench.model.FrameNaming;

/**
 * Per frame name ({@link FrameNames} id): self weight (as the leaf), total weight (anywhere on the stack, each sample
 * counted once however often the name occurs on its stack) and the sample counts behind both. One pass over the
 * tree: a node adds its self weight to its name, and its subtree's total unless its name is on an ancestor (whose
 * total holds these samples already).
 */
public record MethodStats(FrameNames names, long[] self, long[] total, long[] selfSamples, long[] totalSamples,
                          long totalWeight, long samples) {

    public static MethodStats compute(ProfileData data, Selection selection) {
        CallTree tree = data.tree();
        return of(selection.weigh(data, tree));
    }

    static MethodStats of(TreeWeights w) {
        CallTree tree = w.tree();
        int names = tree.names().size();
        long[] self = new long[names];
        long[] total = new long[names];
        long[] selfSamples = new long[names];
        long[] totalSamples = new long[names];
        for (int i = 1, n = tree.size(); i < n; ) {
            if (w.totalSamples(i) == 0) {
                i = tree.end(i);
                continue;
            }
            int nm = tree.name(i);
            self[nm] += w.self(i);
            selfSamples[nm] += w.selfSamples(i);
            if (!tree.recursive(i)) {
                total[nm] += w.total(i);
                totalSamples[nm] += w.totalSamples(i);
            }
            i++;
        }
        return new MethodStats(tree.names(), self, total, selfSamples, totalSamples, w.totalWeight(), w.samples());
    }

    public String name(int id) {
        return names.name(id);
    }

    public int size() {
        return self.length;
    }
}
