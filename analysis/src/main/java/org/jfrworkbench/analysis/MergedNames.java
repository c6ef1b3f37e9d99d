package org.jfrworkbench.analysis;

import java.util.Arrays;

/**
 * The names of two dictionaries merged in sorted order, so a merged id is its own sort rank and the children of
 * two trees (each sorted by name) merge by comparing ints. Built by one merge of the two sorted dictionaries.
 */
record MergedNames(String[] names, int[] baseMap, int[] targetMap) {

    static MergedNames of(FrameNames a, FrameNames b) {
        // both dictionaries are sorted (an id is a rank): one merge
        int[] aMap = new int[a.size()];
        int[] bMap = new int[b.size()];
        String[] out = new String[a.size() + b.size()];
        int n = 0;
        int i = 0;
        int j = 0;
        while (i < a.size() || j < b.size()) {
            int c = i == a.size() ? 1 : j == b.size() ? -1 : a.name(i).compareTo(b.name(j));
            out[n++] = c <= 0 ? a.name(i) : b.name(j);
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
