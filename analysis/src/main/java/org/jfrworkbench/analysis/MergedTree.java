package org.jfrworkbench.analysis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jfrworkbench.model.FrameNaming;

/**
 * The selected samples of several recordings on one call tree: their weighed trees merged by path of stable names
 * ({@link FrameNames#stableName}), so the same code in several runs of a service is one frame however its lambdas
 * were numbered in each. Only nodes that selected samples pass through are merged, so the cost follows the
 * selection, not the recordings' sizes. The result is a {@link CallTree} of its own (pre-order, children by name, as
 * a recording's), so the flame layout, the bounded inverted graph and the diff run on it unchanged.
 */
final class MergedTree {
    private int size = 1;
    private int[] parent = new int[1024];
    private int[] name = new int[1024];
    private byte[] type = new byte[1024];
    private long[] self = new long[1024];
    private int[] selfSamples = new int[1024];
    /** Child lookup, (parent, name) packed in a long to node, open addressing: no object per node. */
    private long[] keys = new long[2048];
    private int[] values = new int[2048];
    private int entries;

    private MergedTree() {
        parent[0] = -1;
        name[0] = -1;
    }

    /** One weighed tree of the parts' samples; parts may be empty (a root of weight 0). The parts are released. */
    static TreeWeights of(List<TreeWeights> parts) {
        // the stable names the selected nodes have, in sorted order: a merged name id is its rank
        Map<String, Integer> ids = new HashMap<>();
        List<String> list = new ArrayList<>();
        List<int[]> partNames = new ArrayList<>();
        for (TreeWeights w : parts) {
            CallTree tree = w.tree();
            FrameNames names = tree.names();
            int[] stable = names.stableIds();
            int[] toMerged = new int[names.stableSize()];
            Arrays.fill(toMerged, -1);
            for (int i = 1, n = tree.size(); i < n; ) {
                if (w.totalSamples(i) == 0) {
                    i = tree.end(i);
                    continue;
                }
                int s = stable[tree.name(i)];
                if (toMerged[s] < 0) {
                    toMerged[s] = ids.computeIfAbsent(names.stableName(s), k -> {
                        list.add(k);
                        return list.size() - 1;
                    });
                }
                i++;
            }
            partNames.add(toMerged);
        }
        String[] sorted = list.toArray(String[]::new);
        Arrays.sort(sorted);
        int[] rank = new int[sorted.length];
        for (int r = 0; r < sorted.length; r++) {
            rank[ids.get(sorted[r])] = r;
        }
        MergedTree m = new MergedTree();
        for (int p = 0; p < parts.size(); p++) {
            m.add(parts.get(p), partNames.get(p), rank);
            parts.get(p).release();
        }
        return m.build(FrameNames.ofSorted(sorted));
    }

    private void add(TreeWeights w, int[] toMerged, int[] rank) {
        CallTree tree = w.tree();
        int[] stable = tree.names().stableIds();
        int[] node = QueryArrays.ints(tree.size());
        self[0] += w.self(0);
        selfSamples[0] += w.selfSamples(0);
        for (int i = 1, n = tree.size(); i < n; ) {
            if (w.totalSamples(i) == 0) {
                i = tree.end(i);
                continue;
            }
            if ((i & 0xfff) == 0) {
                QueryLimits.check();
            }
            int p = node[tree.parent(i)];
            int nm = rank[toMerged[stable[tree.name(i)]]];
            int c = child(p, nm, tree.rawType(i));
            node[i] = c;
            self[c] += w.self(i);
            selfSamples[c] += w.selfSamples(i);
            i++;
        }
        QueryArrays.give(node);
    }

    /** The child of p named nm, added when it is new. Keys are never 0: a child's name is at least 0, so key + 1. */
    private int child(int p, int nm, byte t) {
        long key = ((long) p << 32 | nm) + 1;
        int mask = keys.length - 1;
        int h = (int) mix(key) & mask;
        while (keys[h] != 0) {
            if (keys[h] == key) {
                return values[h];
            }
            h = (h + 1) & mask;
        }
        int c = node(p, nm, t);
        keys[h] = key;
        values[h] = c;
        if (++entries * 2 > keys.length) {
            rehash();
        }
        return c;
    }

    private void rehash() {
        long[] oldKeys = keys;
        int[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        values = new int[keys.length];
        int mask = keys.length - 1;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != 0) {
                int h = (int) mix(oldKeys[i]) & mask;
                while (keys[h] != 0) {
                    h = (h + 1) & mask;
                }
                keys[h] = oldKeys[i];
                values[h] = oldValues[i];
            }
        }
    }

    private static long mix(long k) {
        k *= 0x9E3779B97F4A7C15L;
        return k ^ (k >>> 29);
    }

    private int node(int p, int nm, byte t) {
        if (size == parent.length) {
            QueryLimits.nodes(size); // before the copies: a tree too large for the caller's heap stops here
            int cap = size * 2;
            parent = Arrays.copyOf(parent, cap);
            name = Arrays.copyOf(name, cap);
            type = Arrays.copyOf(type, cap);
            self = Arrays.copyOf(self, cap);
            selfSamples = Arrays.copyOf(selfSamples, cap);
        }
        parent[size] = p;
        name[size] = nm;
        type[size] = t;
        return size++;
    }

    /** The nodes renumbered in pre-order with children sorted by name, as every call tree is. */
    private TreeWeights build(FrameNames names) {
        int n = size;
        int[] first = new int[n + 1];
        for (int i = 1; i < n; i++) {
            first[parent[i] + 1]++;
        }
        for (int i = 0; i < n; i++) {
            first[i + 1] += first[i];
        }
        long[] kids = new long[Math.max(0, n - 1)];
        int[] fill = Arrays.copyOf(first, n);
        for (int i = 1; i < n; i++) {
            kids[fill[parent[i]]++] = (long) name[i] << 32 | i;
        }
        for (int i = 0; i < n; i++) {
            Arrays.sort(kids, first[i], first[i + 1]);
        }
        int[] order = new int[n];
        int[] renumber = new int[n];
        int[] stack = new int[n];
        int top = 0;
        int next = 0;
        stack[top++] = 0;
        while (top > 0) {
            int old = stack[--top];
            renumber[old] = next;
            order[next++] = old;
            // pushed last first, so the first by name comes out first
            for (int k = first[old + 1] - 1; k >= first[old]; k--) {
                stack[top++] = (int) kids[k];
            }
        }
        int[] newParent = new int[n];
        int[] newName = new int[n];
        byte[] newType = new byte[n];
        long[] newSelf = new long[n];
        int[] newSelfSamples = new int[n];
        for (int k = 0; k < n; k++) {
            int old = order[k];
            newParent[k] = old == 0 ? -1 : renumber[parent[old]];
            newName[k] = name[old];
            newType[k] = type[old];
            newSelf[k] = self[old];
            newSelfSamples[k] = selfSamples[old];
        }
        int[] end = new int[n];
        int[] count = new int[n];
        for (int k = n - 1; k >= 0; k--) {
            count[k]++;
            end[k] = k + count[k];
            if (newParent[k] >= 0) {
                count[newParent[k]] += count[k];
            }
        }
        CallTree tree = new CallTree(FrameNaming.DEFAULT, names, null, newParent, newName, end, newType, new int[0],
                new int[0]);
        return new TreeWeights(tree, newSelf, newSelfSamples);
    }
}
