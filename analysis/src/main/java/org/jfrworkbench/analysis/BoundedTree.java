package org.jfrworkbench.analysis;

import java.util.Arrays;

/**
 * Builds a flame graph of at most {@code maxNodes} nodes from a weighted {@link CallTree}, heaviest nodes first
 * (to within a factor of two, {@link GroupHeap}): an answer node stands for a group of call-tree nodes with the
 * same name path from the answer's root, and a group's children are its members' children (going down) or parents
 * (going up), grouped by name. Groups are expanded best first, so cutting at the budget keeps the heaviest part of
 * the graph; the weight of the children a node did not get goes to one child named {@link #OTHER} (as Pyroscope
 * does), so every total still adds up. The cost is proportional to the answer, never to the whole tree: this is how
 * inverted graphs (a node per caller path of each leaf) are built without a whole inverted tree, and the sandwich's
 * callers and callees. An inverted graph of a recording's own tree reads its groups of two or more members from the
 * tree's kept {@link InvertedTree} instead of grouping them per query.
 *
 * <p>Going up, a member carries the weight of the samples it stands for (those ending at a leaf, for an inverted
 * graph, or those through an occurrence of the method, for its callers) from level to level.
 */
final class BoundedTree {
    /** The frame that stands for the lightest children left out of a bounded answer. */
    static final String OTHER = "[other]";

    private final TreeWeights w;
    private final CallTree tree;
    private final boolean up;
    private final int maxNodes;
    private final Emitted out;
    /** Members of every group made so far: a call-tree node, and (going up) the weight and samples it carries. */
    private int[] node = new int[256];
    private long[] weight = new long[256];
    private int[] samples = new int[256];
    private int used;
    private final GroupHeap pending = new GroupHeap();
    private int[] candNode = new int[64];
    private long[] candWeight = new long[64];
    private int[] candSamples = new int[64];
    private long[] keys = new long[64];
    /**
     * The tree's inverted part and its weights, where the inverted graph starts from them, else null; and the floor
     * below which its nodes are left out unpushed ({@link InvertedWeighing.Weights#floor}).
     */
    private InvertedTree inv;
    private InvertedWeighing.Weights invWeights;
    private int floor;
    /** What {@link InvertedTree#touch} read: kept, so that its reads are made. */
    private int touched;

    private BoundedTree(TreeWeights w, boolean up, int maxNodes) {
        this(w.tree(), w, up, maxNodes);
    }

    /** w null for an inverted graph from the kept part, which reads its own weights only. */
    private BoundedTree(CallTree tree, TreeWeights w, boolean up, int maxNodes) {
        this.w = w;
        this.tree = tree;
        this.up = up;
        this.maxNodes = Math.max(2, maxNodes);
        this.out = new Emitted(tree.names());
    }

    /**
     * Inverted, from the tree's kept inverted part: the same answer as {@link #inverted(TreeWeights, int)}, its
     * groups of two or more members read from that part (a member there is an inverted node, stored as its
     * complement) instead of grouped by name per query. Its weights are the selection's slots' sums added straight to
     * the part's nodes ({@link InvertedWeighing#weigh}), in two halves at once as parallel says.
     */
    static Emitted inverted(InvertedTree inv, Selection.Slots slots, int maxNodes, Parallel parallel) {
        return inverted(inv, slots.tree(), inv.weigh(slots, parallel), maxNodes);
    }

    /** The same from the part's weights as weighed (of tree's samples), which it gives back. */
    static Emitted inverted(InvertedTree inv, CallTree tree, InvertedWeighing.Weights weights, int maxNodes) {
        BoundedTree b = new BoundedTree(tree, null, true, maxNodes);
        b.inv = inv;
        b.invWeights = weights;
        b.floor = b.invWeights.floor(b.maxNodes);
        // every group of the answer is an inverted node reached or one origin's caller beyond it
        int room = (int) Math.min(b.maxNodes + 64L, 2L * b.invWeights.reached() + 64);
        b.grow(room);
        b.pending.reserve(room);
        b.out.reserve(Math.min(b.maxNodes, room));
        int root = b.out.add(-1, -1, b.invWeights.rootWeight(), 0, b.invWeights.rootSamples(), "");
        b.expandInverted(root, 0);
        b.drain();
        b.invWeights.release();
        b.invWeights = null;
        return b.done();
    }

    /**
     * Pushes an inverted node's children reached by the selection, those below the floor to its "[other]" at once (as
     * they would go once the graph stopped); returns its self weight (the paths ending there).
     */
    private long expandInverted(int emitted, int at) {
        InvertedWeighing.Weights iw = invWeights;
        long self = iw.total(at);
        for (int c = inv.children(at), end = inv.children(at + 1); c < end; c++) {
            int count = iw.samples(c);
            if (count > 0) {
                long total = iw.total(c);
                self -= total;
                out.childPending(emitted);
                if (GroupHeap.bucket(total, count) < floor) {
                    out.leftOut(emitted, total, count);
                    continue;
                }
                grow(used + 1);
                int chain = inv.chain(c);
                node[used] = chain >= 0 ? chain : ~c;
                weight[used] = total;
                samples[used] = count;
                pending.push(emitted, used++, 1, total, count);
            }
        }
        return self;
    }

    /** Inverted: each leaf's callers, leaves (frames with self weight) at the root, under "all". */
    static Emitted inverted(TreeWeights w, int maxNodes) {
        BoundedTree b = new BoundedTree(w, true, maxNodes);
        CallTree tree = w.tree();
        int root = b.out.add(-1, -1, w.totalWeight(), 0, w.samples(), "");
        int k = 0;
        for (int i = 1, n = tree.size(); i < n; ) {
            if (w.totalSamples(i) == 0) {
                i = tree.end(i);
                continue;
            }
            if (w.selfSamples(i) > 0) {
                k = b.candidate(k, i, w.self(i), w.selfSamples(i));
            }
            i++;
        }
        // each leaf's callers' groups take about three members and two groups per leaf in deep graphs
        b.grow(3 * k);
        b.pending.reserve(2 * k);
        b.pushGroups(root, k);
        b.drain();
        return b.done();
    }

    /** A method's callees: its occurrences' subtrees merged under it. */
    static Emitted callees(TreeWeights w, int[] occurrences, int method, int maxNodes) {
        return new BoundedTree(w, false, maxNodes).rooted(occurrences, method);
    }

    /** A method's callers: the paths from its occurrences up to the root, merged, the method at the root. */
    static Emitted callers(TreeWeights w, int[] occurrences, int method, int maxNodes) {
        return new BoundedTree(w, true, maxNodes).rooted(occurrences, method);
    }

    /** The method's occurrences as the root group, then the rest best first. */
    private Emitted rooted(int[] occurrences, int method) {
        grow(occurrences.length);
        long total = 0;
        long count = 0;
        for (int m = 0; m < occurrences.length; m++) {
            node[m] = occurrences[m];
            weight[m] = w.total(occurrences[m]);
            samples[m] = w.totalSamples(occurrences[m]);
            total += weight[m];
            count += samples[m];
        }
        used = occurrences.length;
        String type = occurrences.length == 0 ? "" : tree.typeName(occurrences[0]);
        int root = out.add(method, -1, total, 0, count, type);
        out.setSelf(root, expandChildren(root, 0, occurrences.length));
        drain();
        return done();
    }

    private void drain() {
        while (!pending.isEmpty()) {
            // room for this node and for a "[other]" child of its own besides those already counted
            if (out.size() + out.others() + 2 > maxNodes) {
                break;
            }
            int g = pending.pop();
            int from = pending.from(g);
            int parent = pending.parent(g);
            int first = node[from];
            if (inv != null) {
                // the next two groups' lines on their way while this one is expanded (javac: a fifth faster)
                int next = pending.peek();
                if (next >= 0 && node[pending.from(next)] < 0) {
                    touched += inv.touch(~node[pending.from(next)], invWeights);
                    int after = pending.after(next);
                    if (after >= 0 && node[pending.from(after)] < 0) {
                        touched += inv.touchEntry(~node[pending.from(after)], invWeights);
                    }
                }
            }
            if (first < 0) {
                int at = ~first;
                int emitted = out.add(inv.name(at), parent, pending.total(g), 0, pending.samples(g),
                        inv.typeName(at, invWeights));
                out.childDone(parent);
                out.setSelf(emitted, expandInverted(emitted, at));
                continue;
            }
            int emitted = out.add(tree.name(first), parent, pending.total(g), 0, pending.samples(g), tree.typeName(first));
            out.childDone(parent);
            out.setSelf(emitted, expandChildren(emitted, from, pending.length(g)));
        }
        // what is left out goes to its parent's "[other]"
        while (!pending.isEmpty()) {
            int g = pending.pop();
            out.leftOut(pending.parent(g), pending.total(g), pending.samples(g));
        }
    }

    /** Pushes the groups of the next level below an answer node; returns its self weight (the paths ending there). */
    private long expandChildren(int emitted, int from, int length) {
        if (up && length == 1) {
            // one member (a path found once, most of a deep graph): its parent is the one group, if any
            int p = tree.parent(node[from]);
            if (p <= 0) {
                return weight[from];
            }
            grow(used + 1);
            node[used] = p;
            weight[used] = weight[from];
            samples[used] = samples[from];
            pending.push(emitted, used++, 1, weight[from], samples[from]);
            out.childPending(emitted);
            return 0;
        }
        int k = 0;
        long self = 0;
        for (int m = from; m < from + length; m++) {
            int n = node[m];
            if (up) {
                int p = tree.parent(n);
                if (p > 0) {
                    k = candidate(k, p, weight[m], samples[m]);
                } else {
                    self += weight[m];
                }
            } else {
                self += w.self(n);
                for (int c = n + 1, end = tree.end(n); c < end; c = tree.end(c)) {
                    if (w.totalSamples(c) > 0) {
                        k = candidate(k, c, w.total(c), w.totalSamples(c));
                    }
                }
            }
        }
        pushGroups(emitted, k);
        return self;
    }

    /** Sorts the k candidates by name, stores them as members and pushes each run of one name as a group. */
    private void pushGroups(int parent, int k) {
        if (k > COUNTING_SORT_FROM && k > tree.names().size() / 4) {
            countingSort(k);
        } else {
            Arrays.sort(keys, 0, k);
        }
        grow(used + k);
        for (int a = 0; a < k; ) {
            int name = (int) (keys[a] >>> 32);
            long total = 0;
            long count = 0;
            int b = a;
            for (; b < k && (int) (keys[b] >>> 32) == name; b++) {
                int c = (int) keys[b];
                node[used + b] = candNode[c];
                weight[used + b] = candWeight[c];
                samples[used + b] = candSamples[c];
                total += candWeight[c];
                count += candSamples[c];
            }
            pending.push(parent, used + a, b - a, total, count);
            out.childPending(parent);
            a = b;
        }
        used += k;
    }

    /** Above this many candidates (an inverted graph's leaves, say), a counting sort by name id beats a comparison sort. */
    private static final int COUNTING_SORT_FROM = 4096;

    /** Sorts keys[0, k) by name id (the high half) with a counting sort; within a name, candidates keep their order. */
    private void countingSort(int k) {
        int[] start = new int[tree.names().size() + 1];
        for (int a = 0; a < k; a++) {
            start[(int) (keys[a] >>> 32) + 1]++;
        }
        for (int i = 1; i < start.length; i++) {
            start[i] += start[i - 1];
        }
        long[] sorted = new long[k];
        for (int a = 0; a < k; a++) {
            sorted[start[(int) (keys[a] >>> 32)]++] = keys[a];
        }
        System.arraycopy(sorted, 0, keys, 0, k);
    }

    private int candidate(int k, int n, long candidateWeight, int candidateSamples) {
        if (k == keys.length) {
            keys = Arrays.copyOf(keys, k * 2);
            candNode = Arrays.copyOf(candNode, k * 2);
            candWeight = Arrays.copyOf(candWeight, k * 2);
            candSamples = Arrays.copyOf(candSamples, k * 2);
        }
        candNode[k] = n;
        candWeight[k] = candidateWeight;
        candSamples[k] = candidateSamples;
        // name ids are sort ranks
        keys[k] = (long) tree.name(n) << 32 | k;
        return k + 1;
    }

    private void grow(int needed) {
        if (needed > node.length) {
            int cap = Math.max(needed, node.length + (node.length >> 1));
            // a member is written before it is read
            node = QueryArrays.extend(node, cap);
            weight = QueryArrays.extend(weight, cap);
            samples = QueryArrays.extend(samples, cap);
        }
    }

    /** The answer, once made: the members and groups go back to {@link QueryArrays}. */
    private Emitted done() {
        QueryArrays.give(node);
        QueryArrays.give(weight);
        QueryArrays.give(samples);
        node = null;
        weight = null;
        samples = null;
        pending.release();
        return out;
    }
}
