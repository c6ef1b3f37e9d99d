package org.jfrworkbench.analysis;

import org.jfrworkbench.model.FrameNaming;

/**
 * Per method, by stable name ({@link FrameNames#stableName}: generated classes' run-specific numbers taken out, so
 * statistics compare across runs): self weight (as the leaf), total weight (anywhere on the stack, each sample
 * counted once however often the method occurs there) and the sample counts behind both. One pass over the tree:
 * a node adds its self weight to its method, and its subtree's total unless its method is on an open ancestor
 * (whose total holds these samples already).
 */
public record MethodStats(FrameNames names, long[] self, long[] total, long[] selfSamples, long[] totalSamples,
                          long totalWeight, long samples) {

    public static MethodStats compute(ProfileData data, Selection selection) {
        data.samples(selection.kind());
        TreeWeights w = selection.weigh(data, data.tree());
        try {
            return of(w);
        } finally {
            w.release();
        }
    }

    static MethodStats of(TreeWeights w) {
        CallTree tree = w.tree();
        FrameNames names = tree.names();
        int[] stable = names.stableIds();
        int m = names.stableSize();
        long[] self = new long[m];
        long[] total = new long[m];
        long[] selfSamples = new long[m];
        long[] totalSamples = new long[m];
        int[] onPath = new int[m];
        int[] open = new int[64];
        int depth = 0;
        for (int i = 1, n = tree.size(); i < n; ) {
            if (w.totalSamples(i) == 0) {
                i = tree.end(i);
                continue;
            }
            while (depth > 0 && tree.end(open[depth - 1]) <= i) {
                onPath[stable[tree.name(open[--depth])]]--;
            }
            int s = stable[tree.name(i)];
            self[s] += w.self(i);
            selfSamples[s] += w.selfSamples(i);
            if (onPath[s]++ == 0) {
                total[s] += w.total(i);
                totalSamples[s] += w.totalSamples(i);
            }
            if (depth == open.length) {
                open = java.util.Arrays.copyOf(open, depth * 2);
            }
            open[depth++] = i;
            i++;
        }
        return new MethodStats(names, self, total, selfSamples, totalSamples, w.totalWeight(), w.samples());
    }

    /** The stable name of a method id. */
    public String name(int id) {
        return names.stableName(id);
    }

    /** The id of a method by its stable name, or -1. */
    public int find(String stableName) {
        for (int i = 0; i < size(); i++) {
            if (name(i).equals(stableName)) {
                return i;
            }
        }
        return -1;
    }

    public int size() {
        return self.length;
    }
}
