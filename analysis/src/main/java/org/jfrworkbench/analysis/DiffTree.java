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
 * so that the walk reads memory forward, as a flame graph's layout does. Where a processor is spare, the walk is
 * split ({@link DiffItems}): the caller walks the heavy nodes, each light kept node's subtree becomes an item, and the
 * items are walked by the caller and a helper at once, each into its own columns, joined in pre-order after.
 */
final class DiffTree {
    /**
     * A kept node at most this fraction of each side's whole weight is walked as an item of its own, apart from the
     * heavy nodes above it: small enough that the items balance between two threads, large enough that the heavy
     * walk, which no helper shares, stays a small part.
     */
    private static final int SPLIT = 32;

    final List<String> names = new ArrayList<>();
    /** The rows: while walking, this walker's (a name is its merged id, -1 the root's, -2 "[other]"); then the answer's. */
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

    private final TreeWeights a;
    private final TreeWeights b;
    private final MergedNames merged;
    private final int[] aName;
    private final int[] bName;
    private final long[] aUnordered;
    private final long[] bUnordered;
    private final long baseThreshold;
    private final long targetThreshold;
    private final int cap;
    /** The answer's name of "[other]", once it has one. */
    private int otherName = -1;
    /** While the heavy nodes are walked: where the light ones go; null in an item's walk and where not split. */
    private DiffItems items;
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

    private DiffTree(TreeWeights a, TreeWeights b, MergedNames merged, long baseThreshold, long targetThreshold,
                     int expected) {
        this.a = a;
        this.b = b;
        this.merged = merged;
        this.aName = merged.baseIds();
        this.bName = merged.targetIds();
        this.aUnordered = a.tree().unordered();
        this.bUnordered = b.tree().unordered();
        this.baseThreshold = baseThreshold;
        this.targetThreshold = targetThreshold;
        // the columns made at the size the answer is expected to reach, not doubled up to it: a power of two from
        // 1,024, the lengths that growing columns pass through, so that the arrays come back from the pool
        this.cap = Math.max(1024, Integer.highestOneBit(Math.max(1, expected - 1)) << 1);
        columns();
    }

    /**
     * A second walker of the same merge, for the items a helper walks (columns of the pool's), or the answer's columns
     * (exact: exact, empty, at that size).
     */
    private DiffTree(DiffTree of, int exact) {
        this.a = of.a;
        this.b = of.b;
        this.merged = of.merged;
        this.aName = of.aName;
        this.bName = of.bName;
        this.aUnordered = of.aUnordered;
        this.bUnordered = of.bUnordered;
        this.baseThreshold = of.baseThreshold;
        this.targetThreshold = of.targetThreshold;
        if (exact < 0) {
            this.cap = of.cap;
            columns();
        } else {
            this.cap = exact;
            name = new int[exact];
            parent = new int[exact];
            type = new String[exact];
            base = new long[exact];
            target = new long[exact];
            baseSelf = new long[exact];
            targetSelf = new long[exact];
            baseSamples = new int[exact];
            targetSamples = new int[exact];
            names.add("all");
        }
    }

    private void columns() {
        name = QueryArrays.intsToWrite(cap);
        parent = QueryArrays.intsToWrite(cap);
        type = new String[cap];
        base = QueryArrays.longsToWrite(cap);
        target = QueryArrays.longsToWrite(cap);
        baseSelf = QueryArrays.longsToWrite(cap);
        targetSelf = QueryArrays.longsToWrite(cap);
        baseSamples = QueryArrays.intsToWrite(cap);
        targetSamples = QueryArrays.intsToWrite(cap);
    }

    /**
     * expected: the nodes the answer is expected to have (each side's cut answer has about as many); parallel: whether
     * the walk is split, its items walked at once by the caller and a helper.
     */
    static DiffTree merge(TreeWeights a, TreeWeights b, MergedNames merged, long baseThreshold, long targetThreshold,
                          int expected, Parallel parallel) {
        DiffTree out = new DiffTree(a, b, merged, baseThreshold, targetThreshold, expected);
        DiffTree helper = null;
        // the walkers' columns go back to the pool whether the walk answers or throws (a tree past the caller's
        // bound, a client gone): a query that fails must not leave the next one to allocate them anew
        try {
            DiffItems items = parallel.offers() ? new DiffItems(a.totalWeight() / SPLIT, b.totalWeight() / SPLIT) : null;
            out.items = items;
            out.members[0] = 0;
            out.members[1] = 0;
            out.used = 2;
            out.open(out.add(0, 1, 1, 1, -1), 0, 1, 1, 1);
            out.walk();
            out.items = null;
            int heavy = out.size;
            if (items != null && items.count > 0) {
                items.walked();
                // whichever thread is free takes the next item; the helper's walker made only if one is left for it
                helper = Parallel.both(() -> out.walk(items),
                        () -> items.left() ? new DiffTree(out, -1).walkOrGiveBack(items) : null, true,
                        caller -> { }, walker -> {
                            if (walker != null) {
                                walker.give();
                            }
                        }).second();
            }
            return out.join(heavy, items, helper);
        } finally {
            out.give();
            if (helper != null) {
                helper.give();
            }
        }
    }

    /** A helper's walk of the items: its columns go back to the pool if it throws, since nobody else holds it then. */
    private DiffTree walkOrGiveBack(DiffItems items) {
        try {
            return walk(items);
        } catch (RuntimeException | Error e) {
            give();
            throw e;
        }
    }

    /** The open nodes' children, until none is open. */
    private void walk() {
        CallTree ta = a.tree();
        CallTree tb = b.tree();
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
            if (kept && items != null && items.light(aTotal, bTotal)) {
                items.add(size, this.node[f], members, childAFrom, childALength, childBFrom, childBLength, aTotal,
                        bTotal);
                if (listEnd[f] < 0) {
                    used = childAFrom;
                }
            } else if (kept) {
                int node = add(childAFrom, childALength, childBFrom, childBLength, this.node[f]);
                open(node, childAFrom, childALength, childBFrom, childBLength);
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
    private void open(int node, int aFrom, int aLength, int bFrom, int bLength) {
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
            name[i] = -1;
            type[i] = "";
        } else {
            name[i] = aLength > 0 ? aName[t.name(first)] : bName[t.name(first)];
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
        name[i] = -2;
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

    /**
     * Walks the items the next free thread takes (as {@link DiffItems#next} hands them out), each into this walker's
     * columns: each group's merged node as the child of its heavy node, then its subtree.
     */
    private DiffTree walk(DiffItems items) {
        for (int k; (k = items.next.getAndIncrement()) < items.count; ) {
            int start = size;
            for (int g = items.from[k]; g < items.to[k]; ) {
                int aLength = items.members[g];
                int bLength = items.members[g + 1];
                grow(aLength + bLength);
                System.arraycopy(items.members, g + 2, members, 0, aLength + bLength);
                used = aLength + bLength;
                g += 2 + aLength + bLength;
                open(add(0, aLength, aLength, bLength, -2 - items.parent[k]), 0, aLength, aLength, bLength);
                walk();
            }
            items.walker[k] = this;
            items.start[k] = start;
            items.end[k] = size;
        }
        return this;
    }

    /**
     * The answer, its columns at their exact size (none of the pool's), in pre-order: the first heavy rows of this
     * walker, each item's rows spliced in where it was met (a row's parent renumbered), and names numbered as they
     * first occur. The walkers keep their columns, for the caller to give back.
     */
    private DiffTree join(int heavy, DiffItems items, DiffTree helper) {
        int count = items == null ? 0 : items.count;
        int total = heavy;
        for (int k = 0; k < count; k++) {
            total += items.end[k] - items.start[k];
        }
        // each walker checked its own size as it grew: the answer made of them all is checked as a whole
        QueryLimits.nodes(total);
        DiffTree out = new DiffTree(this, total);
        int[] remap = new int[merged.size()];
        Arrays.fill(remap, -1);
        int[] heavyAt = new int[heavy];
        int k = 0;
        for (int h = 0; h <= heavy; h++) {
            for (; k < count && items.position[k] == h; k++) {
                DiffTree w = items.walker[k];
                int first = out.size;
                for (int j = items.start[k]; j < items.end[k]; j++) {
                    int p = w.parent[j];
                    out.copy(w, j, p <= -2 ? heavyAt[-2 - p] : p - items.start[k] + first, remap);
                }
            }
            if (h < heavy) {
                heavyAt[h] = out.size;
                out.copy(this, h, parent[h] < 0 ? -1 : heavyAt[parent[h]], remap);
            }
        }
        return out;
    }

    /** Appends row j of a walker, its parent given, its name numbered where it first occurs. */
    private void copy(DiffTree w, int j, int parentIndex, int[] remap) {
        int i = size++;
        int id = w.name[j];
        if (id == -1) {
            name[i] = 0;
        } else if (id == -2) {
            if (otherName < 0) {
                otherName = names.size();
                names.add(BoundedTree.OTHER);
            }
            name[i] = otherName;
        } else {
            if (remap[id] < 0) {
                remap[id] = names.size();
                names.add(w.merged.names()[id]);
            }
            name[i] = remap[id];
        }
        parent[i] = parentIndex;
        type[i] = w.type[j];
        base[i] = w.base[j];
        target[i] = w.target[j];
        baseSelf[i] = w.baseSelf[j];
        targetSelf[i] = w.targetSelf[j];
        baseSamples[i] = w.baseSamples[j];
        targetSamples[i] = w.targetSamples[j];
    }

    /** A walker's columns and members back to {@link QueryArrays}. */
    private void give() {
        for (int[] x : new int[][] {name, parent, baseSamples, targetSamples, members}) {
            QueryArrays.give(x);
        }
        for (long[] x : new long[][] {base, target, baseSelf, targetSelf}) {
            QueryArrays.give(x);
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
