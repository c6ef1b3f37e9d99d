package org.jfrworkbench.analysis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Two call trees merged by frame path, frames compared by stable name ({@link FrameNames#stableName}), so the
 * lambdas of two runs of the same code are one frame. A merged node stands for a group of nodes of each side (one
 * each, but for siblings whose names differ only in generated numbers); its children are its members' children,
 * sorted by merged name id and grouped, emitted depth first. Only nodes that selected samples pass through on
 * either side are visited; a pair of child groups is kept when either side's weighs at least that side's threshold
 * ({@link FlameLayout#threshold}), and what is left out under a node becomes its last child, "[other]".
 */
final class DiffTree {
    final List<String> names = new ArrayList<>();
    int size;
    int[] name = new int[1024];
    int[] parent = new int[1024];
    String[] type = new String[1024];
    long[] base = new long[1024];
    long[] target = new long[1024];
    long[] baseSelf = new long[1024];
    long[] targetSelf = new long[1024];
    int[] baseSamples = new int[1024];
    int[] targetSamples = new int[1024];
    private int otherName = -1;

    private final TreeWeights a;
    private final TreeWeights b;
    private final MergedNames merged;
    private final int[] aName;
    private final int[] bName;
    private final int[] remap;
    /** Members of all groups: call-tree nodes of one side; a group is a range. */
    private int[] members = new int[1024];
    private int used;
    private long[] keys = new long[64];
    private int[] candidates = new int[64];

    private DiffTree(TreeWeights a, TreeWeights b, MergedNames merged) {
        this.a = a;
        this.b = b;
        this.merged = merged;
        this.aName = mergedIds(a.tree(), merged.baseMap());
        this.bName = mergedIds(b.tree(), merged.targetMap());
        this.remap = new int[merged.size()];
        Arrays.fill(remap, -1);
        names.add("all");
    }

    /** Per name id of a tree's dictionary, its merged stable name id. */
    private static int[] mergedIds(CallTree tree, int[] stableToMerged) {
        int[] stable = tree.names().stableIds();
        int[] out = new int[stable.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = stableToMerged[stable[i]];
        }
        return out;
    }

    static DiffTree merge(TreeWeights a, TreeWeights b, MergedNames merged, long baseThreshold, long targetThreshold) {
        DiffTree out = new DiffTree(a, b, merged);
        out.run(baseThreshold, targetThreshold);
        return out;
    }

    private void run(long baseThreshold, long targetThreshold) {
        DiffStack stack = new DiffStack();
        members[0] = 0;
        members[1] = 0;
        used = 2;
        stack.push(0, 1, 1, 1, -1);
        while (stack.size > 0) {
            int top = --stack.size;
            if (stack.other[top]) {
                addOther(stack, top);
                continue;
            }
            int aFrom = stack.aFrom[top];
            int aLength = stack.aLength[top];
            int bFrom = stack.bFrom[top];
            int bLength = stack.bLength[top];
            int node = add(aFrom, aLength, bFrom, bLength, stack.parent[top]);
            // an "[other]" entry first, so that it comes out after the kept children
            int first = stack.size;
            stack.pushOther(node);
            // every selected child of both sides' members, by merged name (a side's candidates are tagged by a bit)
            int k = 0;
            for (int side = 0; side < 2; side++) {
                TreeWeights w = side == 0 ? a : b;
                int[] ids = side == 0 ? aName : bName;
                int from = side == 0 ? aFrom : bFrom;
                int length = side == 0 ? aLength : bLength;
                CallTree t = w.tree();
                for (int m = from; m < from + length; m++) {
                    int x = members[m];
                    for (int c = x + 1, end = t.end(x); c < end; c = t.end(c)) {
                        if (w.totalSamples(c) > 0) {
                            k = candidate(k, ids[t.name(c)], c, side);
                        }
                    }
                }
            }
            Arrays.sort(keys, 0, k);
            grow(used + k);
            for (int g = 0; g < k; ) {
                int mergedName = (int) (keys[g] >>> 32);
                int end = g;
                while (end < k && (int) (keys[end] >>> 32) == mergedName) {
                    end++;
                }
                // the run [g, end): side 0 before side 1, as the low bit of each key says
                int childAFrom = used;
                long aTotal = 0;
                long bTotal = 0;
                for (int c = g; c < end; c++) {
                    int cand = (int) keys[c];
                    if ((cand & 1) == 0) {
                        members[used++] = candidates[cand >>> 1];
                        aTotal += a.total(candidates[cand >>> 1]);
                    }
                }
                int childBFrom = used;
                for (int c = g; c < end; c++) {
                    int cand = (int) keys[c];
                    if ((cand & 1) == 1) {
                        members[used++] = candidates[cand >>> 1];
                        bTotal += b.total(candidates[cand >>> 1]);
                    }
                }
                int childALength = childBFrom - childAFrom;
                int childBLength = used - childBFrom;
                boolean kept = (childALength > 0 && aTotal >= baseThreshold) || (childBLength > 0 && bTotal >= targetThreshold);
                if (kept) {
                    stack.push(childAFrom, childALength, childBFrom, childBLength, node);
                } else {
                    stack.leaveOut(first, this, childAFrom, childALength, childBFrom, childBLength);
                }
                g = end;
            }
            boolean keptOther = stack.hasLeftOut(first);
            if (!keptOther) {
                stack.remove(first);
            }
            // children were pushed first name first; the first by name must come out first
            stack.reverse(keptOther ? first + 1 : first, stack.size);
        }
    }

    private int candidate(int k, int mergedName, int node, int side) {
        if (k == keys.length) {
            keys = Arrays.copyOf(keys, k * 2);
            candidates = Arrays.copyOf(candidates, k * 2);
        }
        candidates[k] = node;
        keys[k] = (long) mergedName << 32 | ((long) k << 1 | side);
        return k + 1;
    }

    private void grow(int needed) {
        if (needed > members.length) {
            members = Arrays.copyOf(members, Math.max(needed, members.length * 2));
        }
    }

    long weight(boolean baseSide, int from, int length) {
        TreeWeights w = baseSide ? a : b;
        long sum = 0;
        for (int m = from; m < from + length; m++) {
            sum += w.total(members[m]);
        }
        return sum;
    }

    int samples(boolean baseSide, int from, int length) {
        TreeWeights w = baseSide ? a : b;
        int sum = 0;
        for (int m = from; m < from + length; m++) {
            sum += w.totalSamples(members[m]);
        }
        return sum;
    }

    private int add(int aFrom, int aLength, int bFrom, int bLength, int parentIndex) {
        growColumns();
        int i = size++;
        int first = aLength > 0 ? members[aFrom] : members[bFrom];
        CallTree t = aLength > 0 ? a.tree() : b.tree();
        if (first == 0) {
            name[i] = 0;
            type[i] = "";
        } else {
            int id = aLength > 0 ? aName[t.name(first)] : bName[t.name(first)];
            if (remap[id] < 0) {
                remap[id] = names.size();
                names.add(merged.names()[id]);
            }
            name[i] = remap[id];
            type[i] = t.typeName(first);
        }
        parent[i] = parentIndex;
        for (int m = aFrom; m < aFrom + aLength; m++) {
            base[i] += a.total(members[m]);
            baseSelf[i] += a.self(members[m]);
            baseSamples[i] += a.totalSamples(members[m]);
        }
        for (int m = bFrom; m < bFrom + bLength; m++) {
            target[i] += b.total(members[m]);
            targetSelf[i] += b.self(members[m]);
            targetSamples[i] += b.totalSamples(members[m]);
        }
        return i;
    }

    private void addOther(DiffStack p, int at) {
        growColumns();
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

    private void growColumns() {
        if (size == name.length) {
            int cap = size * 2;
            QueryLimits.nodes(size); // before the copies: a tree too large for the caller's heap stops here
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
