package org.jfrworkbench.analysis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Two call trees merged by frame path: both are in pre-order with children sorted by name, so a merged node's
 * children are the two sides' child lists merged by (merged) name id, emitted depth first. Only nodes that selected
 * samples pass through on either side are visited, and the lightest may be left out into "[other]".
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
    private int otherName = -1;

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

    /**
     * Merges two weighed trees; a pair of children is kept when either side's child weighs at least that side's
     * threshold ({@link FlameLayout#threshold}), and what is left out under a node becomes its last child,
     * "[other]", with both sides' weights.
     */
    static DiffTree merge(TreeWeights a, TreeWeights b, MergedNames merged, long baseThreshold, long targetThreshold) {
        CallTree ta = a.tree();
        CallTree tb = b.tree();
        DiffTree out = new DiffTree(1024);
        int[] remap = new int[merged.size()];
        Arrays.fill(remap, -1);
        out.names.add("all");
        // pending pairs (a node or -1, b node or -1, output parent), depth first; OTHER_PAIR pairs carry left-out weight
        Pending stack = new Pending();
        stack.push(0, 0, -1);
        while (stack.size > 0) {
            int top = --stack.size;
            int x = stack.a[top];
            int y = stack.b[top];
            if (x == OTHER_PAIR) {
                out.addOther(stack, top);
                continue;
            }
            int node = out.add(x, y, stack.parent[top], a, b, merged, remap);
            int first = stack.size;
            // an "[other]" entry first, so that it comes out after the kept children
            stack.push(OTHER_PAIR, OTHER_PAIR, node);
            int otherAt = first;
            int cx = x < 0 ? -1 : next(a, x + 1, ta.end(x));
            int cy = y < 0 ? -1 : next(b, y + 1, tb.end(y));
            while (cx >= 0 || cy >= 0) {
                int nx = cx < 0 ? Integer.MAX_VALUE : merged.baseMap()[ta.name(cx)];
                int ny = cy < 0 ? Integer.MAX_VALUE : merged.targetMap()[tb.name(cy)];
                int px = nx <= ny ? cx : -1;
                int py = ny <= nx ? cy : -1;
                boolean kept = (px >= 0 && a.total(px) >= baseThreshold) || (py >= 0 && b.total(py) >= targetThreshold);
                if (kept) {
                    stack.push(px, py, node);
                } else {
                    stack.leaveOut(otherAt, a, px, b, py);
                }
                if (px >= 0) {
                    cx = next(a, ta.end(cx), ta.end(x));
                }
                if (py >= 0) {
                    cy = next(b, tb.end(cy), tb.end(y));
                }
            }
            if (!stack.hasOther(otherAt)) {
                // nothing left out: drop the entry, the kept children move down one place
                stack.remove(otherAt);
            }
            stack.reverse(otherAt + (stack.hasOther(otherAt) ? 1 : 0), stack.size);
        }
        return out;
    }

    private static final int OTHER_PAIR = -2;

    /** The DFS stack of pairs, with the left-out weights of "[other]" entries. */
    private static final class Pending {
        int[] a = new int[64];
        int[] b = new int[64];
        int[] parent = new int[64];
        long[] baseLeft = new long[64];
        long[] targetLeft = new long[64];
        int[] baseLeftSamples = new int[64];
        int[] targetLeftSamples = new int[64];
        int size;

        void push(int x, int y, int p) {
            if (size == a.length) {
                int cap = size * 2;
                a = Arrays.copyOf(a, cap);
                b = Arrays.copyOf(b, cap);
                parent = Arrays.copyOf(parent, cap);
                baseLeft = Arrays.copyOf(baseLeft, cap);
                targetLeft = Arrays.copyOf(targetLeft, cap);
                baseLeftSamples = Arrays.copyOf(baseLeftSamples, cap);
                targetLeftSamples = Arrays.copyOf(targetLeftSamples, cap);
            }
            a[size] = x;
            b[size] = y;
            parent[size] = p;
            baseLeft[size] = 0;
            targetLeft[size] = 0;
            baseLeftSamples[size] = 0;
            targetLeftSamples[size++] = 0;
        }

        void leaveOut(int at, TreeWeights wa, int x, TreeWeights wb, int y) {
            if (x >= 0) {
                baseLeft[at] += wa.total(x);
                baseLeftSamples[at] += wa.totalSamples(x);
            }
            if (y >= 0) {
                targetLeft[at] += wb.total(y);
                targetLeftSamples[at] += wb.totalSamples(y);
            }
        }

        boolean hasOther(int at) {
            return baseLeftSamples[at] + targetLeftSamples[at] > 0;
        }

        void remove(int at) {
            for (int i = at; i < size - 1; i++) {
                a[i] = a[i + 1];
                b[i] = b[i + 1];
                parent[i] = parent[i + 1];
            }
            size--;
        }

        /** Reverses [from, to): children were pushed first by name first, and must pop first by name first. */
        void reverse(int from, int to) {
            for (int i = from, j = to - 1; i < j; i++, j--) {
                int t = a[i];
                a[i] = a[j];
                a[j] = t;
                t = b[i];
                b[i] = b[j];
                b[j] = t;
            }
        }
    }

    private void addOther(Pending p, int at) {
        grow();
        int i = size++;
        if (otherName < 0) {
            otherName = names.size();
            names.add(BoundedTree.OTHER);
        }
        name[i] = otherName;
        parent[i] = p.parent[at];
        type[i] = "";
        base[i] = p.baseLeft[at];
        target[i] = p.targetLeft[at];
        baseSelf[i] = base[i];
        targetSelf[i] = target[i];
        baseSamples[i] = p.baseLeftSamples[at];
        targetSamples[i] = p.targetLeftSamples[at];
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
        grow();
        return fill(size++, x, y, parentIndex, a, b, merged, remap);
    }

    private void grow() {
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
    }

    private int fill(int i, int x, int y, int parentIndex, TreeWeights a, TreeWeights b, MergedNames merged, int[] remap) {
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
