package org.jfrworkbench.analysis;

import java.lang.ref.WeakReference;
import java.util.Arrays;

/**
 * The stable names ({@link FrameNames#stableName}) of two dictionaries merged in sorted order, so a merged id is
 * its own sort rank; baseMap and targetMap take a side's stable name id to the merged one, baseIds and targetIds a
 * side's name id. Built by one merge of the two sorted lists, and kept for the last two dictionaries merged: the
 * diffs of two recordings over other ranges or threads merge the same ones again.
 */
record MergedNames(String[] names, int[] baseMap, int[] targetMap, int[] baseIds, int[] targetIds) {
    /** The last pair merged; its dictionaries only weakly held, so a recording let go is not kept for it. */
    private static volatile Last last;

    private record Last(WeakReference<FrameNames> a, WeakReference<FrameNames> b, MergedNames merged) {
    }

    static MergedNames of(FrameNames a, FrameNames b) {
        Last l = last;
        if (l != null && l.a.get() == a && l.b.get() == b) {
            return l.merged;
        }
        MergedNames m = merge(a, b);
        last = new Last(new WeakReference<>(a), new WeakReference<>(b), m);
        return m;
    }

    private static MergedNames merge(FrameNames a, FrameNames b) {
        // both lists are sorted (an id is a rank): one merge
        int na = a.stableSize();
        int nb = b.stableSize();
        int[] aMap = new int[na];
        int[] bMap = new int[nb];
        String[] out = new String[na + nb];
        int n = 0;
        int i = 0;
        int j = 0;
        while (i < na || j < nb) {
            int c = i == na ? 1 : j == nb ? -1 : a.stableName(i).compareTo(b.stableName(j));
            out[n++] = c <= 0 ? a.stableName(i) : b.stableName(j);
            if (c <= 0) {
                aMap[i++] = n - 1;
            }
            if (c >= 0) {
                bMap[j++] = n - 1;
            }
        }
        return new MergedNames(Arrays.copyOf(out, n), aMap, bMap, ids(a, aMap), ids(b, bMap));
    }

    /** Per name id of a dictionary, its merged stable name id. */
    private static int[] ids(FrameNames names, int[] stableToMerged) {
        int[] stable = names.stableIds();
        int[] out = new int[stable.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = stableToMerged[stable[i]];
        }
        return out;
    }

    int size() {
        return names.length;
    }
}
