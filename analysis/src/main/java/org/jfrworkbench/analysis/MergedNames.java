package org.jfrworkbench.analysis;

import java.util.Arrays;

/**
 * The stable names ({@link FrameNames#stableName}) of two dictionaries merged in sorted order, so a merged id is
 * its own sort rank; baseMap and targetMap take a side's stable name id to the merged one. Built by one merge of
 * the two sorted lists.
 */
record MergedNames(String[] names, int[] baseMap, int[] targetMap) {

    static MergedNames of(FrameNames a, FrameNames b) {
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
        return new MergedNames(Arrays.copyOf(out, n), aMap, bMap);
    }

    int size() {
        return names.length;
    }
}
