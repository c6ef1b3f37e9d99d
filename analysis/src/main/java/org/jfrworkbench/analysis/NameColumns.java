package org.jfrworkbench.analysis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The name and type columns of a laid-out tree, with the name dictionary cut down to the names the tree uses
 * (in order of first use, "all" first).
 */
record NameColumns(int[] name, String[] type, List<String> names) {
    static NameColumns of(TreeBuilder tree, TreeBuilder.Layout layout, String[] dict) {
        int n = layout.order().length;
        int[] nameCol = new int[n];
        String[] type = new String[n];
        List<String> outNames = new ArrayList<>();
        outNames.add("all");
        int[] remap = new int[dict.length];
        Arrays.fill(remap, -1);
        for (int i = 0; i < n; i++) {
            int node = layout.order()[i];
            int nm = tree.name(node);
            if (nm < 0) {
                type[i] = "";
            } else {
                if (remap[nm] < 0) {
                    remap[nm] = outNames.size();
                    outNames.add(dict[nm]);
                }
                nameCol[i] = remap[nm];
                type[i] = FlameGraphQuery.TYPE_NAMES[tree.type(node)];
            }
        }
        return new NameColumns(nameCol, type, outNames);
    }
}
