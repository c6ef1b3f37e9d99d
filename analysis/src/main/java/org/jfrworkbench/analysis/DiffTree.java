package org.jfrworkbench.analysis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Two call trees merged by frame path: both are in pre-order with children sorted by name, so a merged node's
 * children are the two sides' child lists merged by (merged) name id, emitted depth first. Only nodes that selected
 * samples pass through on either side are visited.
 */
final class DiffTree {
    final List<String> names = new ArrayList<>();
    int size;
    int[] name;
    int[] parent;
    String[] type;
    long[] base;
    long[] target;
    long[] baseSelf;
    long[] targetSelf;
    int[] baseSamples;
    int[] targetSamples;

    private DiffTree(int capacity) {
        name = new int[capacity];
        parent = new int[capacity];
        type = new String[capacity];
        base = new long[capacity];
        target = new long[capacity];
        baseSelf = new long[capacity];
        targetSelf = new long[capacity];
        baseSamples = new int[capacity];
        targetSamples = new int[capacity];
    }

    static DiffTree merge(TreeWeights a, TreeWeights b, MergedNames merged) {
        CallTree ta = a.tree();
        CallTree tb = b.tree();
        DiffTree out = new DiffTree(1024);
        int[] remap = new int[merged.size()];
        Arrays.fill(remap, -1);
        out.names.add("all");
        // pending pairs (a node or -1, b node or -1, output parent), depth first
        int[] sa = new int[64];
        int[] sb = new int[64];
        int[] sp = new int[64];
        int top = 0;
        sa[top] = 0;
        sb[top] = 0;
        sp[top++] = -1;
        int[] ca = new int[64];
        int[] cb = new int[64];
        while (top > 0) {
            top--;
            int x = sa[top];
            int y = sb[top];
            int node = out.add(x, y, sp[top], a, b, merged, remap);
            // the two sorted child lists, merged by name id
            int k = 0;
            int cx = x < 0 ? -1 : next(a, x + 1, ta.end(x));
            int cy = y < 0 ? -1 : next(b, y + 1, tb.end(y));
            while (cx >= 0 || cy >= 0) {
                int nx = cx < 0 ? Integer.MAX_VALUE : merged.baseMap()[ta.name(cx)];
                int ny = cy < 0 ? Integer.MAX_VALUE : merged.targetMap()[tb.name(cy)];
                if (k == ca.length) {
                    ca = Arrays.copyOf(ca, k * 2);
                    cb = Arrays.copyOf(cb, k * 2);
                }
                ca[k] = nx <= ny ? cx : -1;
                cb[k++] = ny <= nx ? cy : -1;
                if (nx <= ny) {
                    cx = next(a, ta.end(cx), ta.end(x));
                }
                if (ny <= nx) {
                    cy = next(b, tb.end(cy), tb.end(y));
                }
            }
            if (top + k > sa.length) {
                int cap = Math.max(sa.length * 2, top + k);
                sa = Arrays.copyOf(sa, cap);
                sb = Arrays.copyOf(sb, cap);
                sp = Arrays.copyOf(sp, cap);
            }
            for (int c = k - 1; c >= 0; c--) {
                sa[top] = ca[c];
                sb[top] = cb[c];
                sp[top++] = node;
            }
        }
        return out;
    }

    /** The first sibling at or after from (before end) that selected samples pass through, or -1. */
    private static int next(TreeWeights w, int from, int end) {
        CallTree t = w.tree();
        for (int c = from; c < end; c = t.end(c)) {
            if (w.totalSamples(c) > 0) {
                return c;
            }
        }
        return -1;
    }

    private int add(int x, int y, int parentIndex, TreeWeights a, TreeWeights b, MergedNames merged, int[] remap) {
        if (size == name.length) {
            int cap = size * 2;
            name = Arrays.copyOf(name, cap);
            parent = Arrays.copyOf(parent, cap);
            type = Arrays.copyOf(type, cap);
            base = Arrays.copyOf(base, cap);
            target = Arrays.copyOf(target, cap);
            baseSelf = Arrays.copyOf(baseSelf, cap);
            targetSelf = Arrays.copyOf(targetSelf, cap);
            baseSamples = Arrays.copyOf(baseSamples, cap);
            targetSamples = Arrays.copyOf(targetSamples, cap);
        }
        int i = size++;
        int id = x > 0 ? merged.baseMap()[a.tree().name(x)] : y > 0 ? merged.targetMap()[b.tree().name(y)] : -1;
        if (id < 0) {
            name[i] = 0;
        } else {
            if (remap[id] < 0) {
                remap[id] = names.size();
                names.add(merged.names()[id]);
            }
            name[i] = remap[id];
        }
        parent[i] = parentIndex;
        type[i] = x >= 0 ? a.tree().typeName(x) : b.tree().typeName(y);
        if (x >= 0) {
            base[i] = a.total(x);
            baseSelf[i] = a.self(x);
            baseSamples[i] = a.totalSamples(x);
        }
        if (y >= 0) {
            target[i] = b.total(y);
            targetSelf[i] = b.self(y);
            targetSamples[i] = b.totalSamples(y);
        }
        return i;
    }

    /** Subtree sizes, from the parents (children follow their parent in pre-order). */
    int[] counts() {
        int[] count = new int[size];
        for (int i = size - 1; i >= 0; i--) {
            count[i]++;
            if (parent[i] >= 0) {
                count[parent[i]] += count[i];
            }
        }
        return count;
    }
}
