package org.jfrworkbench.analysis;

import static org.jfrworkbench.analysis.HandMade.name;
import static org.jfrworkbench.analysis.HandMade.path;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import org.jfrworkbench.model.FrameNaming;
import org.jfrworkbench.model.Kind;
import org.junit.jupiter.api.Test;

class FlameGraphQueryTest {
    static FlameGraph flame(ProfileData d, Kind kind, SearchPattern search, boolean inverted, int maxNodes) {
        return new FlameGraphQuery(Selection.of(kind), search, inverted, FrameNaming.DEFAULT, 1.0, maxNodes).run(d);
    }

    /** total = self + the children's totals, everywhere; counts are subtree sizes; parents come first. */
    static void assertConsistent(FlameGraph g) {
        FlameGraph.Nodes n = g.nodes();
        long[] children = new long[g.size()];
        for (int i = g.size() - 1; i > 0; i--) {
            assertTrue(n.parent()[i] < i);
            assertTrue(i < n.parent()[i] + n.count()[n.parent()[i]]);
            children[n.parent()[i]] += n.total()[i];
        }
        for (int i = 0; i < g.size(); i++) {
            assertEquals(n.total()[i], n.self()[i] + children[i], "node " + i + " " + name(g, i));
        }
        assertEquals(g.total(), n.total()[0]);
    }

    /** The stacks a graph shows: each node's self weight under its path (the leaf first when inverted). */
    static Map<String, Long> stacks(FlameGraph g) {
        Map<String, Long> out = new TreeMap<>();
        for (int i = 1; i < g.size(); i++) {
            if (g.nodes().self()[i] != 0) {
                out.merge(path(g, i), g.nodes().self()[i], Long::sum);
            }
        }
        return out;
    }

    static Map<String, Long> reversed(Map<String, Long> stacks) {
        Map<String, Long> out = new TreeMap<>();
        stacks.forEach((k, v) -> {
            String[] f = k.split(";");
            StringBuilder sb = new StringBuilder();
            for (int i = f.length - 1; i >= 0; i--) {
                sb.append(f[i]).append(i > 0 ? ";" : "");
            }
            out.merge(sb.toString(), v, Long::sum);
        });
        return out;
    }

    final HandMade h = new HandMade()
            .sample(Kind.CPU, 1, "main", 1, "m.Main.run;m.Cart.load;java.util.HashMap.resize")
            .sample(Kind.CPU, 2, "main", 1, "m.Main.run;m.Cart.load;java.util.HashMap.resize")
            .sample(Kind.CPU, 3, "main", 1, "m.Main.run;m.Price.compute")
            .sample(Kind.CPU, 4, "main", 1, "m.Main.run;m.Price.compute;java.util.HashMap.resize")
            .sample(Kind.ALLOC, 5, "main", 300, "m.Main.run;m.Cart.load", "byte[]")
            .sample(Kind.ALLOC, 6, "main", 100, "m.Main.run;m.Cart.load", "m.Item");
    final ProfileData data = h.data();

    @Test
    void invertedGraphsOfRecursionSharedDeeperThanTheKeptPartAreTheSameStacksReversed() {
        for (int depth : new int[] {500, 1100}) {
            String recursion = ";r.R.rec".repeat(depth);
            HandMade deep = new HandMade()
                    .sample(Kind.CPU, 1, "main", 2, "m.Main.run" + recursion)
                    .sample(Kind.CPU, 2, "main", 3, "m.Other.run" + recursion)
                    .sample(Kind.CPU, 3, "main", 5, "m.Main.run" + recursion + ";x.X.leaf");
            ProfileData d = deep.data();
            FlameGraph inverted = flame(d, Kind.CPU, null, true, 1 << 20);
            assertConsistent(inverted);
            assertEquals(reversed(deep.collapsed(Kind.CPU, 0, 100, false)), stacks(inverted), "depth " + depth);
            // recursion shared deeper than the kept part goes is grouped per query instead
            assertEquals(depth < 1024, d.tree().awaitInverted() != null, "depth " + depth);
        }
    }

    /** The same graph: names, totals and every node column. */
    static void assertSameGraph(FlameGraph expected, FlameGraph actual, String what) {
        assertEquals(expected.names(), actual.names(), what);
        assertEquals(expected.total(), actual.total(), what);
        assertEquals(expected.samples(), actual.samples(), what);
        assertArrayEquals(expected.nodes().name(), actual.nodes().name(), what);
        assertArrayEquals(expected.nodes().parent(), actual.nodes().parent(), what);
        assertArrayEquals(expected.nodes().total(), actual.nodes().total(), what);
        assertArrayEquals(expected.nodes().self(), actual.nodes().self(), what);
        assertArrayEquals(expected.nodes().samples(), actual.nodes().samples(), what);
        assertArrayEquals(expected.nodes().type(), actual.nodes().type(), what);
        assertArrayEquals(expected.nodes().count(), actual.nodes().count(), what);
    }

    /**
     * An inverted graph of the selection, grouped per query or read from the tree's kept part (as a query makes it
     * once the part is made: the selection's slot sums added straight to the part's nodes).
     */
    static FlameGraph inverted(ProfileData d, Selection selection, int maxNodes, boolean kept) {
        d.samples(selection.kind());
        CallTree tree = d.tree();
        if (kept) {
            assertTrue(tree.awaitInverted() != null, "the tree keeps its inverted part");
            FlameGraphQuery q = new FlameGraphQuery(selection, null, true, FrameNaming.DEFAULT, 1.0, maxNodes);
            // the part weighed in halves at once (a helper's) and in one pass on the caller's thread
            FlameGraph halves = q.run(d, Parallel.ALWAYS);
            FlameGraph one = q.run(d, Parallel.NEVER);
            assertSameGraph(one, halves, selection + ", maxNodes=" + maxNodes + ", in halves and in one");
            assertSameWeights(d, tree.awaitInverted(), selection);
            return halves;
        }
        TreeWeights w = selection.weigh(d, tree);
        try {
            return BoundedTree.inverted(w, maxNodes).graph(selection, true, null, null, 1.0);
        } finally {
            w.release();
        }
    }

    /**
     * The part's weights of the selection, weighed in its two halves at once and in one pass: every node's figures
     * (weights, samples, first origins), the buckets and the whole selection's the same.
     */
    static void assertSameWeights(ProfileData d, InvertedTree part, Selection selection) {
        assertTrue(part.hasHalves(), "a part with two halves: the case this is for");
        Selection.Slots slots = selection.slots(d, d.tree(), Parallel.NEVER);
        InvertedWeighing.Weights one = part.weigh(slots, Parallel.NEVER);
        InvertedWeighing.Weights halves = part.weigh(slots, Parallel.ALWAYS);
        String what = selection + ", in halves and in one";
        assertEquals(one.unit(), halves.unit(), what);
        assertEquals(one.stride(), halves.stride(), what);
        assertEquals(one.reached(), halves.reached(), what);
        assertEquals(one.rootWeight(), halves.rootWeight(), what);
        assertEquals(one.rootSamples(), halves.rootSamples(), what);
        assertArrayEquals(one.buckets(), halves.buckets(), what);
        // arrays of the pool may be longer than the part: its nodes' figures only
        int n = part.size();
        if (one.counts() != null) {
            assertArrayEquals(Arrays.copyOf(one.counts(), one.stride() * n), Arrays.copyOf(halves.counts(),
                    halves.stride() * n), what);
        } else {
            assertArrayEquals(Arrays.copyOf(one.wide(), 2 * n), Arrays.copyOf(halves.wide(), 2 * n), what);
        }
        one.release();
        halves.release();
        slots.release();
    }

    @Test
    void invertedGraphsFromTheKeptPartAreThoseGroupedPerQueryTypesIncluded() {
        // callers shared by many leaves whose frames differ in type from stack to stack (a method inlined into one
        // caller, compiled alone in another), so that the kept part has nodes of mixed types
        HandMade h = new HandMade();
        Random r = new Random(7);
        String[] types = {"", "_[i]", "_[0]", "_[1]"};
        for (int i = 0; i < 600; i++) {
            StringBuilder stack = new StringBuilder("m.Main.run");
            for (int level = 0, depth = 1 + r.nextInt(8); level < depth; level++) {
                stack.append(";r.R.m").append(r.nextInt(3)).append(types[r.nextInt(types.length)]);
            }
            stack.append(";x.Leaf.").append((char) ('a' + r.nextInt(3))).append(types[r.nextInt(types.length)]);
            h.sample(Kind.CPU, r.nextInt(10_000), i % 3 == 0 ? "worker" : "main", 1 + r.nextInt(5), stack.toString());
        }
        ProfileData d = h.data();
        InvertedTree part = d.tree().awaitInverted();
        assertTrue(part != null && part.hasMixedTypes(), "the case this test is for");
        BitSet worker = new BitSet();
        worker.set(h.thread("worker"));
        // weighed (the samples' weights differ) and counted (each sample one), whose weights the part keeps apart
        for (Selection s : List.of(Selection.of(Kind.CPU), Selection.millis(Kind.CPU, 2_000L, 4_500L, null, false),
                Selection.millis(Kind.CPU, 6_100L, 6_300L, null, false), Selection.millis(Kind.CPU, null, null, worker, false),
                Selection.millis(Kind.CPU, 2_000L, 4_500L, null, true), Selection.millis(Kind.CPU, null, null, worker, true))) {
            for (int maxNodes : new int[] {1 << 20, 60, 7}) {
                FlameGraph perQuery = inverted(d, s, maxNodes, false);
                FlameGraph kept = inverted(d, s, maxNodes, true);
                assertSameGraph(perQuery, kept, s + ", maxNodes=" + maxNodes);
            }
        }
    }

    @Test
    void invertedGraphsFromTheKeptPartOfSamplesThatAllWeighNothingAreThoseGroupedPerQuery() {
        // every sample of the kind weighs 0: counted alike, at a unit of 0, so the part weighs them as weights
        HandMade h = new HandMade();
        Random r = new Random(5);
        for (int i = 0; i < 300; i++) {
            StringBuilder stack = new StringBuilder("m.Main.run");
            for (int level = 0, depth = 1 + r.nextInt(6); level < depth; level++) {
                stack.append(";m.F").append(r.nextInt(3)).append(".f").append(r.nextInt(2));
            }
            h.sample(Kind.LOCK, r.nextInt(1_000), "main", 0, stack.append(";x.Leaf.l").append(r.nextInt(9)).toString());
        }
        ProfileData d = h.data();
        for (Selection s : List.of(Selection.of(Kind.LOCK), Selection.millis(Kind.LOCK, 200L, 700L, null, false),
                Selection.millis(Kind.LOCK, 200L, 700L, null, true))) {
            for (int maxNodes : new int[] {1 << 20, 40, 5}) {
                FlameGraph kept = inverted(d, s, maxNodes, true);
                assertSameGraph(inverted(d, s, maxNodes, false), kept, s + ", maxNodes=" + maxNodes);
                assertEquals(s.countSamples() ? kept.samples() : 0, kept.total(), s.toString());
            }
        }
    }

    @Test
    void theGraphHoldsTheSamplesStacks() {
        FlameGraph g = flame(data, Kind.CPU, null, false, 100);
        assertConsistent(g);
        assertEquals(h.collapsed(Kind.CPU, 0, 100, false), stacks(g));
        assertEquals("all", name(g, 0));
        assertEquals(4, g.samples());
    }

    @Test
    void invertedPutsTheLeavesAtTheRoot() {
        FlameGraph g = flame(data, Kind.CPU, null, true, 100);
        assertConsistent(g);
        assertEquals(reversed(h.collapsed(Kind.CPU, 0, 100, false)), stacks(g));
        assertEquals("java.util.HashMap.resize", name(g, 1));
        assertEquals(3, g.nodes().total()[1]);
        assertEquals("m.Cart.load", name(g, 2), "callers by name below the leaf");
    }

    @Test
    void allocationGraphsEndInTheClassWeighedInBytesOrSamples() {
        FlameGraph g = flame(data, Kind.ALLOC, null, false, 100);
        assertConsistent(g);
        assertEquals(Map.of("m.Main.run;m.Cart.load;byte[]", 300L, "m.Main.run;m.Cart.load;m.Item", 100L), stacks(g));
        FlameGraph counted = new FlameGraphQuery(new Selection(Kind.ALLOC, Long.MIN_VALUE, Long.MAX_VALUE, null, true),
                null, false, FrameNaming.DEFAULT, 1.0, 100).run(data);
        assertEquals(Map.of("m.Main.run;m.Cart.load;byte[]", 1L, "m.Main.run;m.Cart.load;m.Item", 1L), stacks(counted));
        assertEquals("samples", counted.unit());
        FlameGraph inverted = flame(data, Kind.ALLOC, null, true, 100);
        assertEquals("byte[]", name(inverted, 1), "inverted, the allocated classes come first");
    }

    @Test
    void searchIsCaseInsensitiveUnlessAskedAndReportsTheMatchedShare() {
        FlameGraph g = flame(data, Kind.CPU, SearchPattern.of("hashmap\\.RESIZE", false, false), false, 100);
        assertEquals(3, g.search().matched());
        assertEquals(0.75, g.search().share(), 1e-9);
        assertEquals(2, g.search().nodes().length);
        for (int node : g.search().nodes()) {
            assertEquals("java.util.HashMap.resize", name(g, node));
        }
        assertEquals(0, flame(data, Kind.CPU, SearchPattern.of("hashmap", true, false), false, 100).search().matched());
        assertEquals(4, flame(data, Kind.CPU, SearchPattern.of("Main", true, false), false, 100).search().matched(),
                "a sample counts once however many frames match");
    }

    @Test
    void aSearchsMatchedWeightIsTheTotalOfItsOutermostMatchingNodes() {
        // summed over the sample slots whose paths match, where it was the tree's outermost matching nodes' totals:
        // recursion (several matching frames on a stack), allocated classes' own nodes, stacks without frames,
        // weighed and counted, inverted or not
        HandMade h = new HandMade();
        Random r = new Random(17);
        for (int i = 0; i < 3000; i++) {
            StringBuilder stack = new StringBuilder("m.Main.run");
            for (int depth = 0, n = r.nextInt(9); depth < n; depth++) {
                stack.append(";m.F").append(r.nextInt(4)).append(".f").append(r.nextInt(3));
            }
            String s = r.nextInt(50) == 0 ? "" : stack.toString();
            h.sample(Kind.CPU, i, "main", 1, s);
            h.sample(Kind.ALLOC, i, "main", 1 + r.nextInt(5000), s, r.nextBoolean() ? "byte[]" : "m.Item");
        }
        ProfileData d = h.data();
        d.tree().awaitInverted();
        for (String pattern : new String[] {"F1\\.f2", "f0|Item", "no stack", "nowhere"}) {
            SearchPattern search = SearchPattern.of(pattern, false, false);
            for (Kind kind : new Kind[] {Kind.CPU, Kind.ALLOC}) {
                for (boolean countSamples : new boolean[] {false, true}) {
                    Selection s = Selection.millis(kind, 200L, 2600L, null, countSamples);
                    TreeWeights w = s.weigh(d, d.tree());
                    long expected = FlameLayout.matchedWeight(w, d.matches(FrameNaming.DEFAULT, search));
                    w.release();
                    for (boolean inverted : new boolean[] {false, true}) {
                        FlameGraph g = new FlameGraphQuery(s, search, inverted, FrameNaming.DEFAULT, 1.0, 50).run(d);
                        String what = pattern + " " + kind + (countSamples ? " counted" : "") + (inverted ? " inverted" : "");
                        assertEquals(expected, g.search().matched(), what);
                        assertEquals(g.total() == 0 ? 0 : (double) expected / g.total(), g.search().share(), 1e-12, what);
                    }
                }
            }
        }
    }

    @Test
    void literalSearchTakesThePatternAsPlainText() {
        assertEquals(0, flame(data, Kind.CPU, SearchPattern.of("Hash.ap", false, true), false, 100).search().matched());
        assertEquals(3, flame(data, Kind.CPU, SearchPattern.of("Hash.ap", false, false), false, 100).search().matched());
        assertEquals(3, flame(data, Kind.CPU, SearchPattern.of("HASHMAP.", false, true), false, 100).search().matched());
        assertEquals(0, flame(data, Kind.CPU, SearchPattern.of("(", false, true), false, 100).search().matched(),
                "not a regular expression, so not malformed");
    }

    @Test
    void aMalformedPatternIsABadQueryWithTheReason() {
        BadQueryException e = assertThrows(BadQueryException.class, () -> SearchPattern.of("(unclosed", false, false));
        assertTrue(e.getMessage().startsWith("search is not a valid regular expression: "), e.getMessage());
        assertThrows(BadQueryException.class, () -> SearchPattern.of("x".repeat(1001), false, false));
    }

    @Test
    void aBoundedGraphKeepsTheHeaviestNodesAndPutsTheRestIntoOther() {
        HandMade many = new HandMade();
        Random r = new Random(5);
        for (int i = 0; i < 400; i++) {
            int a = (int) Math.abs(r.nextGaussian() * 6);
            int b = (int) Math.abs(r.nextGaussian() * 10);
            many.sample(Kind.CPU, i, "main", 1, "m.Main.run;m.A.a" + a + ";m.B.b" + b + ";m.C.c" + r.nextInt(30));
        }
        ProfileData d = many.data();
        for (boolean inverted : new boolean[] {false, true}) {
            FlameGraph all = flame(d, Kind.CPU, null, inverted, 1 << 20);
            for (int max : new int[] {2, 10, 50, 200}) {
                FlameGraph cut = flame(d, Kind.CPU, null, inverted, max);
                assertTrue(cut.size() <= max, inverted + " " + max + ": " + cut.size());
                assertConsistent(cut);
                assertEquals(all.total(), cut.total());
                assertEquals(all.samples(), cut.samples());
                long kept = 0;
                for (int i = 0; i < cut.size(); i++) {
                    if (!name(cut, i).equals(BoundedTree.OTHER)) {
                        kept++;
                    }
                }
                assertTrue(kept >= Math.min(all.size(), max / 4), inverted + " " + max + " kept " + kept);
            }
        }
    }

    @Test
    void aBoundedGraphsRowsAreInPreOrderChildrenByNameOtherLastNamesByFirstUse() {
        // inverted graphs are laid out from the order their nodes were chosen, graphs of the tree from its walk: both
        // at budgets that leave "[other]" rows under many nodes, with a search's hits
        HandMade many = new HandMade();
        Random r = new Random(13);
        for (int i = 0; i < 2000; i++) {
            StringBuilder stack = new StringBuilder("m.Main.run");
            for (int depth = 0, n = 2 + r.nextInt(8); depth < n; depth++) {
                stack.append(";m.F").append(r.nextInt(5)).append(".f").append(r.nextInt(3));
            }
            many.sample(Kind.CPU, i, "main", 1 + r.nextInt(3), stack.toString());
        }
        ProfileData d = many.data();
        SearchPattern search = SearchPattern.of("F2\\.f1", false, false);
        for (boolean inverted : new boolean[] {false, true}) {
            for (int max : new int[] {5, 60, 400, 1 << 20}) {
                String what = (inverted ? "inverted " : "") + max;
                FlameGraph g = flame(d, Kind.CPU, search, inverted, max);
                assertConsistent(g);
                int[] parent = g.nodes().parent();
                int[] count = g.nodes().count();
                int[] lastChild = new int[g.size()];
                Arrays.fill(lastChild, -1);
                int newest = 0;
                List<Integer> hits = new ArrayList<>();
                for (int i = 1; i < g.size(); i++) {
                    int p = parent[i];
                    int before = lastChild[p];
                    // the first child right after its parent, each next one right after its elder sibling's subtree
                    assertEquals(before < 0 ? p + 1 : before + count[before], i, what + ": node " + i + " in pre-order");
                    if (before >= 0) {
                        assertNotEquals(BoundedTree.OTHER, name(g, before), what + ": \"[other]\" is the last child");
                        if (!name(g, i).equals(BoundedTree.OTHER)) {
                            assertTrue(name(g, before).compareTo(name(g, i)) < 0, what + ": children by name at " + i);
                        }
                    }
                    lastChild[p] = i;
                    int id = g.nodes().name()[i];
                    assertTrue(id <= newest + 1, what + ": names numbered by first use, " + id + " after " + newest);
                    newest = Math.max(newest, id);
                    if (search.matches(name(g, i)) && !name(g, i).equals(BoundedTree.OTHER)) {
                        hits.add(i);
                    }
                }
                assertEquals(hits, Arrays.stream(g.search().nodes()).boxed().toList(), what + ": the hits in order");
            }
        }
    }

    @Test
    void anEmptySelectionIsARootOfWeightZero() {
        for (boolean inverted : new boolean[] {false, true}) {
            FlameGraph g = new FlameGraphQuery(Selection.millis(Kind.CPU, 50L, 50L, null, false), null, inverted,
                    FrameNaming.DEFAULT, 1.0, 100).run(data);
            assertEquals(1, g.size());
            assertEquals("all", name(g, 0));
            assertEquals(0, g.total());
        }
    }

    @Test
    void theSameQueryGivesTheSameAnswer() {
        FlameGraph a = flame(data, Kind.CPU, null, true, 3);
        FlameGraph b = flame(data, Kind.CPU, null, true, 3);
        assertEquals(a.names(), b.names());
        assertArrayEquals(a.nodes().total(), b.nodes().total());
        assertArrayEquals(a.nodes().name(), b.nodes().name());
    }

    @Test
    void anInvertedGraphFromTheTreesKeptPartIsTheGraphGroupedPerQuery() {
        HandMade many = new HandMade();
        Random r = new Random(7);
        for (int i = 0; i < 3000; i++) {
            // deep paths that mostly part early: the inverted part is small beside the tree, so the tree keeps it
            StringBuilder stack = new StringBuilder("m.Main.run");
            for (int depth = 0, n = 8 + r.nextInt(8); depth < n; depth++) {
                stack.append(";m.F").append(depth % 3).append(".f").append(r.nextInt(4));
            }
            many.sample(Kind.CPU, i, "main", 1, stack.toString());
            many.sample(Kind.ALLOC, i, "main", 1 + r.nextInt(5000), stack.toString(), r.nextBoolean() ? "byte[]" : "m.Item");
        }
        ProfileData d = many.data();
        assertTrue(d.tree().awaitInverted() != null, "the tree keeps its inverted part");
        for (Kind kind : new Kind[] {Kind.CPU, Kind.ALLOC}) {
            for (int max : new int[] {20, 300, 1 << 20}) {
                for (SearchPattern search : new SearchPattern[] {null, SearchPattern.of("F1\\.f2", false, false)}) {
                    Selection s = Selection.millis(kind, 500L, 2500L, null, false);
                    FlameGraph kept = new FlameGraphQuery(s, search, true, FrameNaming.DEFAULT, 1.0, max).run(d);
                    TreeWeights w = s.weigh(d, d.tree());
                    FlameGraph grouped = BoundedTree.inverted(w, max).graph(s, true, null, null, 1.0);
                    assertSameGraph(grouped, kept, kind + " " + max + " " + search);
                }
            }
        }
    }

    @Test
    void anInvertedGraphFromTheKeptPartLeavesOutBelowItsFloorWhatGroupingPerQueryLeavesOut() {
        // many leaves under shared callers, weights spread over several powers of two, some weightless among them:
        // at every budget the kept part's graph skips the nodes below its floor and must still be the graph grouped
        // per query, its "[other]" weights included
        HandMade h = new HandMade();
        Random r = new Random(11);
        for (int i = 0; i < 2000; i++) {
            StringBuilder stack = new StringBuilder("m.Main.run");
            for (int level = 0, depth = 2 + r.nextInt(10); level < depth; level++) {
                stack.append(";m.F").append(r.nextInt(4)).append(".f").append(r.nextInt(3));
            }
            stack.append(";x.Leaf.l").append(r.nextInt(40));
            String s = stack.toString();
            h.sample(Kind.CPU, r.nextInt(10_000), "main", 1, s);
            h.sample(Kind.ALLOC, r.nextInt(10_000), "main", 1L << r.nextInt(20), s, "byte[]");
            h.sample(Kind.LOCK, r.nextInt(10_000), "main", r.nextInt(4) == 0 ? 0 : 1 + r.nextInt(1000), s);
        }
        ProfileData d = h.data();
        CallTree tree = d.tree();
        InvertedTree part = tree.awaitInverted();
        assertTrue(part != null, "the tree keeps its inverted part");
        for (Kind kind : new Kind[] {Kind.CPU, Kind.ALLOC, Kind.LOCK}) {
            int floors = 0;
            for (Selection s : List.of(Selection.of(kind), Selection.millis(kind, 1_000L, 4_000L, null, false))) {
                for (int maxNodes = 2; maxNodes < 3000; maxNodes += 1 + maxNodes / 8) {
                    assertSameGraph(inverted(d, s, maxNodes, false), inverted(d, s, maxNodes, true),
                            kind + " " + s + ", maxNodes=" + maxNodes);
                    Selection.Slots slots = s.slots(d, tree);
                    InvertedWeighing.Weights weights = part.weigh(slots, Parallel.NEVER);
                    int floor = weights.floor(maxNodes);
                    if (floor > 0) {
                        int atOrAbove = 0;
                        for (int b = floor; b < weights.buckets().length; b++) {
                            atOrAbove += weights.buckets()[b];
                        }
                        assertTrue(atOrAbove >= maxNodes, "more nodes at or above the floor than the answer has room"
                                + " for: " + kind + " " + maxNodes);
                        if (atOrAbove < weights.reached()) {
                            floors++;
                        }
                    }
                    if (kind == Kind.LOCK && s.equals(Selection.of(kind))) {
                        assertEquals(0, floor, "weightless nodes among weighed ones rank by samples: no floor");
                    }
                    weights.release();
                    slots.release();
                }
            }
            // counted (cpu) and weighed (alloc) alike; lock's weightless samples (a quarter) leave it none
            if (kind == Kind.LOCK) {
                assertEquals(0, floors, "weightless nodes among weighed ones: no floor");
            } else {
                assertTrue(floors > 10, "the case this test is for: budgets whose floor leaves nodes out, " + kind
                        + " " + floors);
            }
        }
    }
}
