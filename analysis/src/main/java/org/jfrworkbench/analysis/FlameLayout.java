package org.jfrworkbench.analysis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Copies the nodes of a {@link CallTree} that selected samples pass through into the API's columns. The tree is
 * already in pre-order with children by name, so this is one forward pass that skips every unselected subtree;
 * a node's output parent is the innermost open output node. A bounded answer keeps the nodes at or above a weight
 * ({@link Cut}), which is linear too.
 */
final class FlameLayout {
    private FlameLayout() {
    }

    /**
     * matches: per name id whether the search finds it (null: no search), matched: the weight of the selected samples
     * with such a frame. scale multiplies every weight. Nodes lighter than the cut's threshold ({@link Cut}) are left
     * out, each parent's into one "[other]" child after its other children; the answer's columns are made at the
     * cut's size, which the cut found, not counted again.
     */
    static FlameGraph of(TreeWeights w, Selection selection, SearchPattern search, boolean[] matches, long matched,
                         double scale, Cut cut) {
        return of(w, selection, search, matches, matched, scale, new Cut.Noted(cut, null));
    }

    /**
     * {@link #of(TreeWeights, Selection, SearchPattern, boolean[], long, double, Cut)}, from the nodes the cut's walk
     * kept where it noted them ({@link Cut.CountSizes}), else by a walk of the tree.
     */
    static FlameGraph of(TreeWeights w, Selection selection, SearchPattern search, boolean[] matches, long matched,
                         double scale, Cut.Noted noted) {
        Cut cut = noted.cut();
        if (noted.kept() != null && noted.kept().covers(cut.threshold())) {
            return ofKept(w, selection, search, matches, matched, scale, cut, noted.kept());
        }
        CallTree tree = w.tree();
        int n = tree.size();
        long threshold = cut.threshold();
        // the answer's exact size, "[other]" nodes included: its columns are made once and handed out as they are
        int out = cut.size();
        Columns c = new Columns(out);
        Names names = new Names(tree.names(), out);
        int other = -1;
        int[] openTree = new int[64];
        int[] openOut = new int[64];
        long[] openLeft = new long[64];
        long[] openLeftSamples = new long[64];
        int depth = 0;
        for (int i = 0; i < n; ) {
            if (i > 0 && w.totalSamples(i) == 0) {
                i = tree.end(i);
                continue;
            }
            while (depth > 0 && tree.end(openTree[depth - 1]) <= i) {
                depth--;
                other = closeNode(c, names, other, openOut[depth], openLeft[depth], openLeftSamples[depth], scale);
            }
            if (!Cut.kept(w, i, threshold)) {
                openLeft[depth - 1] += w.total(i);
                openLeftSamples[depth - 1] += w.totalSamples(i);
                i = tree.end(i);
                continue;
            }
            int k = c.add(names.id(tree.name(i)), depth == 0 ? -1 : openOut[depth - 1], scaled(w.total(i), scale),
                    scaled(w.self(i), scale), tree.typeName(i), w.totalSamples(i));
            if (matches != null && i > 0 && matches[tree.name(i)]) {
                c.hit(k);
            }
            if (depth == openTree.length) {
                openTree = Arrays.copyOf(openTree, depth * 2);
                openOut = Arrays.copyOf(openOut, depth * 2);
                openLeft = Arrays.copyOf(openLeft, depth * 2);
                openLeftSamples = Arrays.copyOf(openLeftSamples, depth * 2);
            }
            openTree[depth] = i;
            openOut[depth] = k;
            openLeft[depth] = 0;
            openLeftSamples[depth++] = 0;
            i++;
        }
        while (depth > 0) {
            depth--;
            other = closeNode(c, names, other, openOut[depth], openLeft[depth], openLeftSamples[depth], scale);
        }
        return answer(w, selection, search, matches, matched, scale, c, names);
    }

    /**
     * The layout from the nodes a cut's walk kept at its floor, in pre-order (weights that are counts, a threshold at
     * or above the floor): those whose count reaches the threshold, each under its parent's entry; what a node leaves
     * out is its count less its own samples and its kept children's. No walk of the tree, which met every selected
     * child of a kept node at a cache miss or more (the walk took more than a quarter of a range's flame graph).
     */
    private static FlameGraph ofKept(TreeWeights w, Selection selection, SearchPattern search, boolean[] matches,
                                     long matched, double scale, Cut cut, Cut.CountSizes kept) {
        CallTree tree = w.tree();
        long unit = w.unit();
        long least = kept.count(cut.threshold());
        Columns c = new Columns(cut.size());
        Names names = new Names(tree.names(), cut.size());
        int other = -1;
        // the open nodes, innermost last: entry (-1: the root), answer index, count, and kept children's counts
        int[] openEntry = new int[64];
        int[] openOut = new int[64];
        int[] openCount = new int[64];
        int[] openKept = new int[64];
        openEntry[0] = -1;
        openOut[0] = c.add(names.id(tree.name(0)), -1, scaled(w.total(0), scale), scaled(w.self(0), scale),
                tree.typeName(0), w.totalSamples(0));
        openCount[0] = w.totalSamples(0);
        int depth = 1;
        for (int k = 0, n = kept.entries(); k < n; k++) {
            int count = kept.count(k);
            if (count < least) {
                continue;
            }
            int parent = kept.parentEntry(k);
            while (openEntry[depth - 1] != parent) {
                depth--;
                other = closeKept(c, names, other, tree, w, kept, openEntry[depth], openOut[depth], openCount[depth],
                        openKept[depth], scale);
            }
            int i = kept.node(k);
            int at = c.add(names.id(tree.name(i)), openOut[depth - 1], scaled(unit * count, scale),
                    scaled(w.self(i), scale), tree.typeName(i), count);
            if (matches != null && matches[tree.name(i)]) {
                c.hit(at);
            }
            openKept[depth - 1] += count;
            if (depth == openEntry.length) {
                openEntry = Arrays.copyOf(openEntry, depth * 2);
                openOut = Arrays.copyOf(openOut, depth * 2);
                openCount = Arrays.copyOf(openCount, depth * 2);
                openKept = Arrays.copyOf(openKept, depth * 2);
            }
            openEntry[depth] = k;
            openOut[depth] = at;
            openCount[depth] = count;
            openKept[depth++] = 0;
        }
        while (depth > 0) {
            depth--;
            other = closeKept(c, names, other, tree, w, kept, openEntry[depth], openOut[depth], openCount[depth],
                    openKept[depth], scale);
        }
        return answer(w, selection, search, matches, matched, scale, c, names);
    }

    /** Closes a kept node (entry -1: the root): its count less its own samples and its kept children's is left out. */
    private static int closeKept(Columns c, Names names, int other, CallTree tree, TreeWeights w, Cut.CountSizes kept,
                                 int entry, int out, int count, int keptChildren, double scale) {
        int left = count - w.selfSamples(entry < 0 ? 0 : kept.node(entry)) - keptChildren;
        return closeNode(c, names, other, out, w.unit() * left, left, scale);
    }

    /** The answer from its columns: the whole selection's figures and the search's. */
    private static FlameGraph answer(TreeWeights w, Selection selection, SearchPattern search, boolean[] matches,
                                     long matched, double scale, Columns c, Names names) {
        FlameGraph.Search found = null;
        if (matches != null) {
            long all = w.totalWeight();
            found = new FlameGraph.Search(search.pattern(), search.matchCase(), search.literal(), scaled(matched, scale),
                    all == 0 ? 0 : (double) matched / all, c.hits());
        }
        return new FlameGraph(selection.kind().id(), selection.unit(), scaled(w.totalWeight(), scale), w.samples(),
                names.done(), c.nodes(), found);
    }

    /** Closes an answer node: the weight of its left-out children becomes its last child, "[other]". */
    private static int closeNode(Columns c, Names names, int other, int parent, long left, long leftSamples, double scale) {
        if (leftSamples == 0) {
            return other;
        }
        int id = other < 0 ? names.literal(BoundedTree.OTHER) : other;
        long weight = scaled(left, scale);
        c.add(id, parent, weight, weight, "", leftSamples);
        return id;
    }

    /**
     * The weight of the selected samples with a frame the search matches (whatever the view's shape): the totals of
     * the outermost matching nodes, in one pre-order pass that skips each matched subtree. A recording's own tree
     * sums its matching sample slots instead ({@link ProfileData#matchingSlots}), which is no walk.
     */
    static long matchedWeight(TreeWeights w, boolean[] matches) {
        CallTree tree = w.tree();
        long matched = 0;
        for (int i = 1, n = tree.size(); i < n; ) {
            if (w.totalSamples(i) > 0 && matches[tree.name(i)]) {
                matched += w.total(i);
                i = tree.end(i);
            } else {
                i = w.totalSamples(i) > 0 ? i + 1 : tree.end(i);
            }
        }
        return matched;
    }

    static long scaled(long weight, double scale) {
        return scale == 1.0 ? weight : Math.round(weight * scale);
    }

    /** Growing node columns of an answer built in pre-order. */
    static final class Columns {
        private int[] name;
        private int[] parent;
        private long[] total;
        private long[] self;
        private String[] type;
        private long[] samples;
        private int size;
        private int[] hits = new int[16];
        private int hitCount;

        Columns(int capacity) {
            int c = Math.max(1, capacity);
            name = new int[c];
            parent = new int[c];
            total = new long[c];
            self = new long[c];
            type = new String[c];
            samples = new long[c];
        }

        int add(int nameId, int parentIndex, long totalWeight, long selfWeight, String typeName, long sampleCount) {
            if (size == name.length) {
                int cap = size * 2;
                name = Arrays.copyOf(name, cap);
                parent = Arrays.copyOf(parent, cap);
                total = Arrays.copyOf(total, cap);
                self = Arrays.copyOf(self, cap);
                type = Arrays.copyOf(type, cap);
                samples = Arrays.copyOf(samples, cap);
            }
            name[size] = nameId;
            parent[size] = parentIndex;
            total[size] = totalWeight;
            self[size] = selfWeight;
            type[size] = typeName;
            samples[size] = sampleCount;
            return size++;
        }

        void hit(int node) {
            if (hitCount == hits.length) {
                hits = Arrays.copyOf(hits, hitCount * 2);
            }
            hits[hitCount++] = node;
        }

        int[] hits() {
            return Arrays.copyOf(hits, hitCount);
        }

        FlameGraph.Nodes nodes() {
            int n = size;
            int[] count = new int[n];
            for (int i = n - 1; i >= 0; i--) {
                count[i]++;
                if (parent[i] >= 0) {
                    count[parent[i]] += count[i];
                }
            }
            if (name.length == n) {
                return new FlameGraph.Nodes(name, parent, total, self, type, count, samples);
            }
            return new FlameGraph.Nodes(Arrays.copyOf(name, n), Arrays.copyOf(parent, n), Arrays.copyOf(total, n),
                    Arrays.copyOf(self, n), Arrays.copyOf(type, n), count, Arrays.copyOf(samples, n));
        }
    }

    /**
     * The output's name dictionary: the names the answer uses, in order of first use, the root's "all" first. The
     * dictionary ids it has met are kept in a small open-addressing table sized by the answer, not in an array of the
     * dictionary's size: a recording can have millions of names where an answer uses a few thousand.
     */
    static final class Names {
        private final FrameNames dict;
        private final List<String> list = new ArrayList<>();
        /** Dictionary id + 1 (0: empty slot) and its output id, by hash of the dictionary id. */
        private int[] keys;
        private int[] values;
        private int used;

        Names(FrameNames dict, int expected) {
            this(dict, true, expected);
        }

        /** withAll: whether the list starts with the root's "all" (a tree rooted at a method has no such node). */
        Names(FrameNames dict, boolean withAll, int expected) {
            this.dict = dict;
            // room for half as many names as nodes at half load; it grows past that
            int capacity = Integer.highestOneBit(Math.max(16, Math.min(dict.size(), expected / 2)) - 1) << 2;
            // a megabyte and more for a large answer: from the pool, where each was a humongous allocation per query
            keys = QueryArrays.ints(capacity);
            values = QueryArrays.ints(capacity);
            if (withAll) {
                list.add("all");
            }
        }

        /** The output id of a name that is not in the dictionary ("[other]"). */
        int literal(String name) {
            int at = list.indexOf(name);
            if (at < 0) {
                at = list.size();
                list.add(name);
            }
            return at;
        }

        /** The output id of a dictionary name; -1 (the root) is "all". */
        int id(int name) {
            if (name < 0) {
                return 0;
            }
            int mask = keys.length - 1;
            for (int h = mix(name) & mask; ; h = (h + 1) & mask) {
                int k = keys[h];
                if (k == name + 1) {
                    return values[h];
                }
                if (k == 0) {
                    int id = list.size();
                    list.add(dict.name(name));
                    keys[h] = name + 1;
                    values[h] = id;
                    if (++used * 2 > keys.length) {
                        grow();
                    }
                    return id;
                }
            }
        }

        private static int mix(int x) {
            int h = x * 0x9E3779B9;
            return h ^ (h >>> 16);
        }

        private void grow() {
            int[] oldKeys = keys;
            int[] oldValues = values;
            keys = QueryArrays.ints(oldKeys.length * 2);
            values = QueryArrays.ints(keys.length);
            int mask = keys.length - 1;
            for (int i = 0; i < oldKeys.length; i++) {
                if (oldKeys[i] != 0) {
                    int h = mix(oldKeys[i] - 1) & mask;
                    while (keys[h] != 0) {
                        h = (h + 1) & mask;
                    }
                    keys[h] = oldKeys[i];
                    values[h] = oldValues[i];
                }
            }
            QueryArrays.give(oldKeys);
            QueryArrays.give(oldValues);
        }

        /** The names in order, once the answer has them all: the table goes back to {@link QueryArrays}. */
        List<String> done() {
            QueryArrays.give(keys);
            QueryArrays.give(values);
            keys = values = null;
            return list;
        }
    }
}
