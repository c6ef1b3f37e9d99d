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
 * ({@link FlameLayout#threshold}), and what is left out under a node becomes its last child, "[other]". Each side's
 * nodes are read in tree order wherever children's names keep their order as stable names ({@link CallTree#unordered}),
 * so that the walk reads memory forward, as a flame graph's layout does. Where a side has its kept nodes gathered
 * ({@link KeptNodes}), its members are entries there (a node's figures in one place, its children a few entries
 * on), and call-tree nodes, as ~node, only under a node the side leaves out but the other side keeps.
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

    private final Reader a;
    private final Reader b;
    private final MergedNames merged;
    private final int[] remap;
    /** Members of all groups: entries of one side's {@link Reader}; a group is a range. */
    private int[] members = new int[1024];
    private int used;
    private long[] keys = new long[64];
    private int[] candidates = new int[64];
    /**
     * The open merged nodes, innermost last: each one's output index, its children still to come (in tree order:
     * each side's next child and end, gathered entries or call-tree nodes as aGathered says; sorted: the next of its
     * groups, at listStart .. listEnd in groups, listEnd -1 in tree order), and the weight and samples its left-out
     * children add up to.
     */
    private int open;
    private int[] node = new int[64];
    private int[] aNext = new int[64];
    private int[] aEnd = new int[64];
    private int[] bNext = new int[64];
    private int[] bEnd = new int[64];
    private boolean[] aGathered = new boolean[64];
    private boolean[] bGathered = new boolean[64];
    private int[] listStart = new int[64];
    private int[] listEnd = new int[64];
    private long[] baseLeft = new long[64];
    private long[] targetLeft = new long[64];
    private int[] baseLeftSamples = new int[64];
    private int[] targetLeftSamples = new int[64];
    /** The sorted children's groups of the open nodes: members' start and count on each side, four ints a group. */
    private int[] groups = new int[64];
    private int groupsUsed;

    private DiffTree(Reader a, Reader b, MergedNames merged, int expected) {
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
        this.remap = new int[merged.size()];
        Arrays.fill(remap, -1);
        names.add("all");
    }

    /**
     * expected: the nodes the answer is expected to have (each side's cut answer has about as many); keptA, keptB:
     * each side's nodes gathered at a floor not above its threshold, or null.
     */
    static DiffTree merge(TreeWeights a, TreeWeights b, KeptNodes keptA, KeptNodes keptB, MergedNames merged,
                          long baseThreshold, long targetThreshold, int expected) {
        DiffTree out = new DiffTree(new Reader(a, keptA, merged.baseIds()), new Reader(b, keptB, merged.targetIds()),
                merged, expected);
        out.run(baseThreshold, targetThreshold);
        return out;
    }

    private void run(long baseThreshold, long targetThreshold) {
        long[] aUnordered = a.t.unordered();
        long[] bUnordered = b.t.unordered();
        members[0] = a.root();
        members[1] = b.root();
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
                boolean ga = aGathered[f];
                boolean gb = bGathered[f];
                int ca = a.selected(ga, aNext[f], aEnd[f]);
                int cb = b.selected(gb, bNext[f], bEnd[f]);
                int ida = ca < aEnd[f] ? a.name(ga, ca) : Integer.MAX_VALUE;
                int idb = cb < bEnd[f] ? b.name(gb, cb) : Integer.MAX_VALUE;
                if (ida == Integer.MAX_VALUE && idb == Integer.MAX_VALUE) {
                    close(f);
                    continue;
                }
                grow(used + 2);
                childAFrom = used;
                if (ida <= idb) {
                    members[used++] = ga ? ca : ~ca;
                    ca = a.next(ga, ca);
                }
                childBFrom = used;
                if (idb <= ida) {
                    members[used++] = gb ? cb : ~cb;
                    cb = b.next(gb, cb);
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
            aGathered = Arrays.copyOf(aGathered, cap);
            bGathered = Arrays.copyOf(bGathered, cap);
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
        boolean inOrder = aLength <= 1 && bLength <= 1 && (aLength == 0 || !bit(aUnordered, a.node(members[aFrom])))
                && (bLength == 0 || !bit(bUnordered, b.node(members[bFrom])));
        if (inOrder) {
            listEnd[f] = -1;
            aGathered[f] = aLength > 0 && a.gathered(members[aFrom]);
            aNext[f] = aLength > 0 ? a.first(members[aFrom]) : 0;
            aEnd[f] = aLength > 0 ? a.end(members[aFrom]) : 0;
            bGathered[f] = bLength > 0 && b.gathered(members[bFrom]);
            bNext[f] = bLength > 0 ? b.first(members[bFrom]) : 0;
            bEnd[f] = bLength > 0 ? b.end(members[bFrom]) : 0;
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
            Reader r = side == 0 ? a : b;
            int from = side == 0 ? aFrom : bFrom;
            int length = side == 0 ? aLength : bLength;
            for (int m = from; m < from + length; m++) {
                int x = members[m];
                boolean g = r.gathered(x);
                for (int c = r.selected(g, r.first(x), r.end(x)), end = r.end(x); c < end;
                     c = r.selected(g, r.next(g, c), end)) {
                    k = candidate(k, r.name(g, c), g ? c : ~c, side);
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
        Reader r = baseSide ? a : b;
        int sum = 0;
        for (int m = from; m < from + length; m++) {
            sum += r.samples(members[m]);
        }
        return sum;
    }

    private int add(int aFrom, int aLength, int bFrom, int bLength, int parentIndex) {
        growColumns();
        int i = size++;
        Reader r = aLength > 0 ? a : b;
        int first = r.node(aLength > 0 ? members[aFrom] : members[bFrom]);
        CallTree t = r.t;
        if (first == 0) {
            name[i] = 0;
            type[i] = "";
        } else {
            int id = r.ids[t.name(first)];
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
    private void sums(Reader r, int from, int length, int i, long[] totals, long[] selves, int[] sampleCounts) {
        long total = 0;
        long self = 0;
        int samples = 0;
        for (int m = from; m < from + length; m++) {
            total += r.total(members[m]);
            self += r.self(members[m]);
            samples += r.samples(members[m]);
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

    /**
     * One side as the merge reads it. A member is an entry of the side's gathered nodes, or ~node for a call-tree node
     * (every member where none are gathered); a node's children are read as gathered entries where the member is one
     * whose children were gathered, else from the tree ({@code gathered} says which for a cursor).
     */
    private static final class Reader {
        final TreeWeights w;
        final CallTree t;
        final KeptNodes kept;
        final int[] ids;
        private final long unit;

        Reader(TreeWeights w, KeptNodes kept, int[] ids) {
            this.w = w;
            this.t = w.tree();
            this.kept = w.unit() > 0 ? kept : null;
            this.ids = ids;
            this.unit = w.unit();
        }

        int root() {
            return kept != null ? 0 : ~0;
        }

        int node(int m) {
            return m >= 0 ? kept.node(m) : ~m;
        }

        int samples(int m) {
            return m >= 0 ? kept.samples(m) : w.totalSamples(~m);
        }

        long total(int m) {
            return m >= 0 ? unit * kept.samples(m) : w.total(~m);
        }

        long self(int m) {
            return m >= 0 ? unit * kept.selfSamples(m) : w.self(~m);
        }

        /** Whether m's children are gathered entries. */
        boolean gathered(int m) {
            return m >= 0 && kept.gathered(m);
        }

        /** m's first child (not necessarily selected) and the end of its children, as {@link #gathered} says. */
        int first(int m) {
            return gathered(m) ? m + 1 : node(m) + 1;
        }

        int end(int m) {
            return gathered(m) ? kept.end(m) : t.end(node(m));
        }

        /** The first selected child from c on, before end (gathered entries are all selected). */
        int selected(boolean gathered, int c, int end) {
            if (!gathered) {
                while (c < end && w.totalSamples(c) == 0) {
                    c = t.end(c);
                }
            }
            return c;
        }

        /** The sibling after c. */
        int next(boolean gathered, int c) {
            return gathered ? kept.end(c) : t.end(c);
        }

        /** c's merged name id. */
        int name(boolean gathered, int c) {
            return ids[gathered ? kept.name(c) : t.name(c)];
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
