package org.jfrworkbench.analysis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Two call trees merged by frame path, frames compared by stable name ({@link FrameNames#stableName}), so the
 * lambdas of two runs of the same code are one frame. A merged node stands for a group of nodes of each side (one
 * each, but for siblings whose names differ only in generated numbers); its children are its members' children
 * by merged name id, grouped, emitted depth first. Only nodes that selected samples pass through on either side are
 * visited; a pair of child groups is kept when either side's weighs at least that side's threshold
 * ({@link Cut}), and what is left out under a node becomes its last child, "[other]". Each side's
 * nodes are read in tree order wherever children's names keep their order as stable names ({@link CallTree#unordered}),
 * so that the walk reads memory forward, as a flame graph's layout does.
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
    /**
     * The open merged nodes, innermost last: each one's output index, its children still to come (in tree order:
     * each side's next child and end; sorted: the next of its groups, at listStart .. listEnd in groups, listEnd -1
     * in tree order), and the weight and samples its left-out children add up to.
     */
    private int open;
    private int[] node = new int[64];
    private int[] aNext = new int[64];
    private int[] aEnd = new int[64];
    private int[] bNext = new int[64];
    private int[] bEnd = new int[64];
    private int[] listStart = new int[64];
    private int[] listEnd = new int[64];
    private long[] baseLeft = new long[64];
    private long[] targetLeft = new long[64];
    private int[] baseLeftSamples = new int[64];
    private int[] targetLeftSamples = new int[64];
    /** The sorted children's groups of the open nodes: members' start and count on each side, four ints a group. */
    private int[] groups = new int[64];
    private int groupsUsed;

    private DiffTree(TreeWeights a, TreeWeights b, MergedNames merged, int expected) {
        // the columns made at the size the answer is expected to reach, not doubled up to it: a power of two from
        // 1,024, the lengths that growing columns pass through, so that the arrays come back from the pool
        int cap = Math.max(1024, Integer.highestOneBit(Math.max(1, expected - 1)) << 1);
        name = QueryArrays.intsToWrite(cap);
        parent = QueryArrays.intsToWrite(cap);
        type = new String[cap];
        base = QueryArrays.longsToWrite(cap);
        target = QueryArrays.longsToWrite(cap);
        baseSelf = QueryArrays.longsToWrite(cap);
        targetSelf = QueryArrays.longsToWrite(cap);
        baseSamples = QueryArrays.intsToWrite(cap);
        targetSamples = QueryArrays.intsToWrite(cap);
        this.a = a;
        this.b = b;
        this.merged = merged;
        this.aName = merged.baseIds();
        this.bName = merged.targetIds();
        this.remap = new int[merged.size()];
        Arrays.fill(remap, -1);
        names.add("all");
    }

    /** expected: the nodes the answer is expected to have (each side's cut answer has about as many). */
    static DiffTree merge(TreeWeights a, TreeWeights b, MergedNames merged, long baseThreshold, long targetThreshold,
                          int expected) {
        DiffTree out = new DiffTree(a, b, merged, expected);
        out.run(baseThreshold, targetThreshold);
        return out;
    }

    private void run(long baseThreshold, long targetThreshold) {
        long[] aUnordered = a.tree().unordered();
        long[] bUnordered = b.tree().unordered();
        CallTree ta = a.tree();
        CallTree tb = b.tree();
        members[0] = 0;
        members[1] = 0;
        used = 2;
        open(add(0, 1, 1, 1, -1), 0, 1, 1, 1, aUnordered, bUnordered);
        while (open > 0) {
            int f = open - 1;
            int childAFrom;
            int childALength;
            int childBFrom;
            int childBLength;
            if (listEnd[f] < 0) {
                // the members' children in tree order, which is their merged names' order: one pair at a time
                int ca = aNext[f];
                int cb = bNext[f];
                while (ca < aEnd[f] && a.totalSamples(ca) == 0) {
                    ca = ta.end(ca);
                }
                while (cb < bEnd[f] && b.totalSamples(cb) == 0) {
                    cb = tb.end(cb);
                }
                int ida = ca < aEnd[f] ? aName[ta.name(ca)] : Integer.MAX_VALUE;
                int idb = cb < bEnd[f] ? bName[tb.name(cb)] : Integer.MAX_VALUE;
                if (ida == Integer.MAX_VALUE && idb == Integer.MAX_VALUE) {
                    close(f);
                    continue;
                }
                grow(used + 2);
                childAFrom = used;
                if (ida <= idb) {
                    members[used++] = ca;
                    ca = ta.end(ca);
                }
                childBFrom = used;
                if (idb <= ida) {
                    members[used++] = cb;
                    cb = tb.end(cb);
                }
                childALength = childBFrom - childAFrom;
                childBLength = used - childBFrom;
                aNext[f] = ca;
                bNext[f] = cb;
            } else {
                int g = aNext[f];
                if (g == listEnd[f]) {
                    groupsUsed = listStart[f];
                    close(f);
                    continue;
                }
                childAFrom = groups[g];
                childALength = groups[g + 1];
                childBFrom = groups[g + 2];
                childBLength = groups[g + 3];
                aNext[f] = g + 4;
            }
            long aTotal = 0;
            long bTotal = 0;
            for (int m = childAFrom; m < childAFrom + childALength; m++) {
                aTotal += a.total(members[m]);
            }
            for (int m = childBFrom; m < childBFrom + childBLength; m++) {
                bTotal += b.total(members[m]);
            }
            boolean kept = (childALength > 0 && aTotal >= baseThreshold) || (childBLength > 0 && bTotal >= targetThreshold);
            if (kept) {
                int node = add(childAFrom, childALength, childBFrom, childBLength, this.node[f]);
                open(node, childAFrom, childALength, childBFrom, childBLength, aUnordered, bUnordered);
            } else {
                baseLeft[f] += aTotal;
                targetLeft[f] += bTotal;
                baseLeftSamples[f] += samples(true, childAFrom, childALength);
                targetLeftSamples[f] += samples(false, childBFrom, childBLength);
                if (listEnd[f] < 0) {
                    // a pair met in tree order and left out: nothing reads its members again
                    used = childAFrom;
                }
            }
        }
    }

    /**
     * Opens a merged node's children. Where each side has at most one member and its children come in the order of
     * their stable names, one each, they are merged as the walk meets them, in tree order (each side's nodes read
     * in increasing order, as a flame graph's layout reads them); elsewhere (generated names grouped, names whose
     * order changes once their numbers are taken out) all its selected children are sorted by merged name and
     * grouped first.
     */
    private void open(int node, int aFrom, int aLength, int bFrom, int bLength, long[] aUnordered, long[] bUnordered) {
        if (open == this.node.length) {
            int cap = open * 2;
            this.node = Arrays.copyOf(this.node, cap);
            aNext = Arrays.copyOf(aNext, cap);
            aEnd = Arrays.copyOf(aEnd, cap);
            bNext = Arrays.copyOf(bNext, cap);
            bEnd = Arrays.copyOf(bEnd, cap);
            listStart = Arrays.copyOf(listStart, cap);
            listEnd = Arrays.copyOf(listEnd, cap);
            baseLeft = Arrays.copyOf(baseLeft, cap);
            targetLeft = Arrays.copyOf(targetLeft, cap);
            baseLeftSamples = Arrays.copyOf(baseLeftSamples, cap);
            targetLeftSamples = Arrays.copyOf(targetLeftSamples, cap);
        }
        int f = open++;
        this.node[f] = node;
        baseLeft[f] = 0;
        targetLeft[f] = 0;
        baseLeftSamples[f] = 0;
        targetLeftSamples[f] = 0;
        int x = aLength > 0 ? members[aFrom] : -1;
        int y = bLength > 0 ? members[bFrom] : -1;
        boolean inOrder = aLength <= 1 && bLength <= 1 && (x < 0 || !bit(aUnordered, x)) && (y < 0 || !bit(bUnordered, y));
        if (inOrder) {
            listEnd[f] = -1;
            aNext[f] = x < 0 ? 0 : x + 1;
            aEnd[f] = x < 0 ? 0 : a.tree().end(x);
            bNext[f] = y < 0 ? 0 : y + 1;
            bEnd[f] = y < 0 ? 0 : b.tree().end(y);
            return;
        }
        int k = allCandidates(aFrom, aLength, bFrom, bLength);
        Arrays.sort(keys, 0, k);
        grow(used + k);
        listStart[f] = groupsUsed;
        for (int g = 0; g < k; ) {
            int mergedName = (int) (keys[g] >>> 32);
            int end = g;
            while (end < k && (int) (keys[end] >>> 32) == mergedName) {
                end++;
            }
            // the run [g, end): side 0 before side 1, as the low bit of each key says
            int childAFrom = used;
            for (int c = g; c < end; c++) {
                int cand = (int) keys[c];
                if ((cand & 1) == 0) {
                    members[used++] = candidates[cand >>> 1];
                }
            }
            int childBFrom = used;
            for (int c = g; c < end; c++) {
                int cand = (int) keys[c];
                if ((cand & 1) == 1) {
                    members[used++] = candidates[cand >>> 1];
                }
            }
            if (groupsUsed + 4 > groups.length) {
                groups = Arrays.copyOf(groups, Math.max(groupsUsed + 4, groups.length * 2));
            }
            groups[groupsUsed++] = childAFrom;
            groups[groupsUsed++] = childBFrom - childAFrom;
            groups[groupsUsed++] = childBFrom;
            groups[groupsUsed++] = used - childBFrom;
            g = end;
        }
        aNext[f] = listStart[f];
        listEnd[f] = groupsUsed;
    }

    /** Closes the innermost open node: what its children left out becomes its last child, "[other]". */
    private void close(int f) {
        if (baseLeftSamples[f] + targetLeftSamples[f] > 0) {
            addOther(node[f], baseLeft[f], targetLeft[f], baseLeftSamples[f], targetLeftSamples[f]);
        }
        open--;
    }

    private static boolean bit(long[] bits, int i) {
        return (bits[i >>> 6] & 1L << i) != 0;
    }

    /** Every selected child of both sides' members, in the order of the members and their children. */
    private int allCandidates(int aFrom, int aLength, int bFrom, int bLength) {
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
        return k;
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
            members = QueryArrays.extend(members, Math.max(needed, members.length * 2));
        }
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
        sums(a, aFrom, aLength, i, base, baseSelf, baseSamples);
        sums(b, bFrom, bLength, i, target, targetSelf, targetSamples);
        return i;
    }

    /**
     * One side's sums over a merged node's members, stored once into row i: the columns grow without zeroing (every
     * row is written whole).
     */
    private void sums(TreeWeights w, int from, int length, int i, long[] totals, long[] selves, int[] sampleCounts) {
        long total = 0;
        long self = 0;
        int samples = 0;
        for (int m = from; m < from + length; m++) {
            total += w.total(members[m]);
            self += w.self(members[m]);
            samples += w.totalSamples(members[m]);
        }
        totals[i] = total;
        selves[i] = self;
        sampleCounts[i] = samples;
    }

    private void addOther(int parentIndex, long baseLeft, long targetLeft, int baseLeftSamples, int targetLeftSamples) {
        growColumns();
        int i = size++;
        if (otherName < 0) {
            otherName = names.size();
            names.add(BoundedTree.OTHER);
        }
        name[i] = otherName;
        parent[i] = parentIndex;
        type[i] = "";
        base[i] = baseLeft;
        target[i] = targetLeft;
        baseSelf[i] = baseLeft;
        targetSelf[i] = targetLeft;
        baseSamples[i] = baseLeftSamples;
        targetSamples[i] = targetLeftSamples;
    }

    private void growColumns() {
        if (size == name.length) {
            int cap = size * 2;
            QueryLimits.nodes(size); // before the copies: a tree too large for the caller's heap stops here
            name = QueryArrays.extend(name, cap);
            parent = QueryArrays.extend(parent, cap);
            type = Arrays.copyOf(type, cap);
            base = QueryArrays.extend(base, cap);
            target = QueryArrays.extend(target, cap);
            baseSelf = QueryArrays.extend(baseSelf, cap);
            targetSelf = QueryArrays.extend(targetSelf, cap);
            baseSamples = QueryArrays.extend(baseSamples, cap);
            targetSamples = QueryArrays.extend(targetSamples, cap);
        }
    }

    /** Once the answer has its copies of the columns: they and the members go back to {@link QueryArrays}. */
    void release() {
        for (int[] a : new int[][] {name, parent, baseSamples, targetSamples, members}) {
            QueryArrays.give(a);
        }
        for (long[] a : new long[][] {base, target, baseSelf, targetSelf}) {
            QueryArrays.give(a);
        }
        name = parent = baseSamples = targetSamples = members = null;
        base = target = baseSelf = targetSelf = null;
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
