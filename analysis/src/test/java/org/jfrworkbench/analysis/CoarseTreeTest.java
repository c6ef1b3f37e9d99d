package org.jfrworkbench.analysis;

import static org.jfrworkbench.analysis.FlameGraphQueryTest.assertSameGraph;
import static org.jfrworkbench.analysis.HandMade.name;
import static org.jfrworkbench.analysis.HandMade.path;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.BitSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import org.jfrworkbench.model.FrameNaming;
import org.jfrworkbench.model.Kind;
import org.junit.jupiter.api.Test;

/** Flame graphs from a tree's coarse part ({@link CoarseTree}) are those of the whole tree, node for node. */
class CoarseTreeTest {
    private static final long DURATION = 10_000;
    private static final List<String> STATES = List.of("STATE_RUNNABLE", "STATE_SLEEPING", "STATE_IN_NATIVE");

    /**
     * Deep and varied stacks: a few hot frames near the root, recursion (a frame repeated on its own path), depths from
     * 1 to 60, on six threads in three states, cpu samples and allocations (a class leaf under each stack).
     */
    private static HandMade generated(long seed) {
        HandMade h = new HandMade(DURATION);
        Random r = new Random(seed);
        for (int i = 0; i < 12_000; i++) {
            int depth = 1 + (int) Math.min(59, Math.abs(r.nextGaussian() * 18));
            StringBuilder stack = new StringBuilder("m.Main.run");
            for (int d = 0; d < depth; d++) {
                // the first frames from a few, deeper ones from more: shared prefixes that part at every depth
                int choices = 2 + d * 3;
                int f = (int) Math.min(choices - 1, Math.abs(r.nextGaussian() * choices / 3));
                stack.append(";m.F").append(f % 40).append(".f").append(f / 40);
            }
            String thread = "t" + r.nextInt(6);
            String state = STATES.get(r.nextInt(3) == 0 ? r.nextInt(3) : 0);
            long millis = (long) (r.nextDouble() * DURATION);
            h.sample(Kind.CPU, millis, thread, 1, stack.toString(), null, state);
            if (r.nextInt(4) == 0) {
                h.sample(Kind.ALLOC, millis, thread, 16 + r.nextInt(4096), stack.toString(), "C" + r.nextInt(5));
            }
        }
        return h;
    }

    /** The graph through the coarse part where its cut is known there (whether or not a view would guess so), else null. */
    private static FlameGraph onPart(ProfileData d, CoarseTree part, FlameGraphQuery q) {
        CallTree tree = d.tree();
        Selection.Slots slots = q.selection().slots(d, tree, Parallel.NEVER);
        try {
            long matched = q.search() == null ? 0 : slots.weightOf(d.matchingSlots(tree, FrameNaming.DEFAULT, q.search()));
            boolean[] matches = q.search() == null ? null : d.matches(FrameNaming.DEFAULT, q.search());
            Cut.Counts counts = new Cut.Counts();
            TreeWeights w = part.weigh(slots, counts);
            Cut.Noted cut = Cut.noted(w, q.maxNodes(), counts);
            try {
                return cut == null ? null : FlameLayout.of(w, q.selection(), q.search(), matches, matched, 1.0, cut);
            } finally {
                if (cut != null) {
                    cut.release();
                }
                w.release();
            }
        } finally {
            slots.release();
        }
    }

    /**
     * The graph with the samples counted straight onto the part by their codes, as a view of no chosen threads and no
     * search counts them; null where the view is not likely on the part or its cut is not there.
     */
    private static FlameGraph direct(ProfileData d, CoarseTree part, FlameGraphQuery q, Parallel parallel) {
        Cut.Counts counts = new Cut.Counts();
        TreeWeights w = part.weigh(d, q.selection(), q.selection().unit(d), parallel, counts);
        if (w == null) {
            return null;
        }
        Cut.Noted cut = Cut.noted(w, q.maxNodes(), counts);
        try {
            return cut == null ? null : FlameLayout.of(w, q.selection(), null, null, 0, 1.0, cut);
        } finally {
            if (cut != null) {
                cut.release();
            }
            w.release();
        }
    }

    /**
     * The graph of the whole tree with its totals summed past the unreached nodes ({@link TreeWeights}' sparse pass),
     * whatever share of the slots the view reaches.
     */
    private static FlameGraph summedPastUnreached(ProfileData d, FlameGraphQuery q) {
        CallTree tree = d.tree();
        Selection.Slots slots = q.selection().slots(d, tree, Parallel.NEVER);
        try {
            int[] self = QueryArrays.ints(tree.size());
            for (int s = 0; s < slots.samples().length; s++) {
                self[tree.slotNode(s)] += slots.samples()[s];
            }
            long matched = q.search() == null ? 0 : slots.weightOf(d.matchingSlots(tree, FrameNaming.DEFAULT, q.search()));
            boolean[] matches = q.search() == null ? null : d.matches(FrameNaming.DEFAULT, q.search());
            Cut.Counts counts = new Cut.Counts();
            TreeWeights w = new TreeWeights(tree, self, slots.unit(), counts, true);
            Cut.Noted cut = Cut.noted(w, q.maxNodes(), counts);
            try {
                return FlameLayout.of(w, q.selection(), q.search(), matches, matched, 1.0, cut);
            } finally {
                cut.release();
                w.release();
            }
        } finally {
            slots.release();
        }
    }

    /** Whether a view's slots reach so few that its whole tree's totals are summed past the unreached nodes. */
    private static boolean sparse(Selection.Slots slots) {
        int reached = 0;
        for (int c : slots.samples()) {
            reached += c != 0 ? 1 : 0;
        }
        return reached <= slots.samples().length / Selection.SPARSE_SHARE;
    }

    private static void assertSameAnswer(FlameGraph expected, FlameGraph actual, String what) {
        assertSameGraph(expected, actual, what);
        assertEquals(expected.search() == null, actual.search() == null, what);
        if (expected.search() != null) {
            assertEquals(expected.search().matched(), actual.search().matched(), what);
            assertEquals(expected.search().share(), actual.search().share(), what);
            assertArrayEquals(expected.search().nodes(), actual.search().nodes(), what);
        }
    }

    @Test
    void graphsFromTheCoarsePartAreThoseOfTheWholeTreeAndFallBackWhereTheirCutGoesBelowIt() {
        HandMade h = generated(3);
        ProfileData whole = h.data().coarseNodes(0);
        ProfileData coarse = h.data().coarseNodes(400);
        Random r = new Random(11);
        SearchPattern[] searches = {null, SearchPattern.of("F3\\.f0", false, false), SearchPattern.of("f1", false, false)};
        int onPart = 0;
        int fellBack = 0;
        int viewsOnPart = 0;
        int counted = 0;
        int sparse = 0;
        for (int round = 0; round < 400; round++) {
            Kind kind = r.nextInt(4) == 0 ? Kind.ALLOC : Kind.CPU;
            long length = 1 + (long) (r.nextDouble() * DURATION);
            long from = (long) (r.nextDouble() * (DURATION - length));
            BitSet threads = null;
            if (r.nextInt(4) == 0) {
                threads = new BitSet();
                for (int i = 0, n = 1 + r.nextInt(3); i < n; i++) {
                    threads.set(h.thread("t" + r.nextInt(6)));
                }
            }
            Set<String> states = kind == Kind.CPU && r.nextInt(4) == 0 ? Set.of(STATES.get(r.nextInt(3))) : null;
            // allocations counted, not weighed in bytes: the part serves weights that are counts times a unit
            Selection s = Selection.millis(kind, from, from + length, threads, kind == Kind.ALLOC).with(states, null);
            SearchPattern search = searches[r.nextInt(searches.length)];
            int maxNodes = new int[] {8, 30, 100, 250, 1000}[r.nextInt(5)];
            FlameGraphQuery q = new FlameGraphQuery(s, search, false, FrameNaming.DEFAULT, 1.0, maxNodes);
            String what = round + ": " + s + " " + search + " " + maxNodes;
            CoarseTree part = coarse.awaitCoarse(s);
            assertNotNull(part, "a part of at most 400 nodes: " + what);
            assertTrue(part.size() <= 400 && part.size() <= whole.tree().size() / 2, what + ": " + part.size());
            FlameGraph expected = q.run(whole);
            FlameGraph viaPart = onPart(coarse, part, q);
            if (viaPart == null) {
                fellBack++;
            } else {
                onPart++;
                assertSameAnswer(expected, viaPart, what);
            }
            // as a view answers: through the part where it guesses the cut is there, else the whole tree
            assertSameAnswer(expected, q.run(coarse), what + ", as a view");
            Selection.Slots slots = s.slots(coarse, coarse.tree(), Parallel.NEVER);
            boolean likely = part.likely(slots);
            if (viaPart != null && likely) {
                viewsOnPart++;
            }
            sparse += sparse(slots) && (!likely || viaPart == null) ? 1 : 0;
            slots.release();
            // the whole tree's totals summed past its unreached nodes, as a view of few slots' (a few threads') sums them
            assertSameAnswer(expected, summedPastUnreached(whole, q), what + ", summed past the unreached nodes");
            if (threads == null && search == null) {
                // counted straight onto the part by the samples' codes, in one pass or in two halves at once
                FlameGraph direct = direct(coarse, part, q, round % 2 == 0 ? Parallel.NEVER : Parallel.ALWAYS);
                assertEquals(likely && viaPart != null, direct != null, what + ": the same views as from the slots");
                if (direct != null) {
                    counted++;
                    assertSameAnswer(expected, direct, what + ", counted onto the part");
                }
            }
        }
        assertTrue(onPart > 100, "answered on the part: " + onPart);
        assertTrue(fellBack > 20, "fell back to the whole tree: " + fellBack);
        assertTrue(viewsOnPart > 50, "views answered on the part: " + viewsOnPart);
        assertTrue(counted > 40, "views counted straight onto the part: " + counted);
        assertTrue(sparse > 40, "views on the whole tree summed past its unreached nodes: " + sparse);
    }

    /**
     * A node of the part whose lighter children are all outside it: they are its spill, in its total, and at a cut
     * that keeps it they go into its "[other]", which it has on the whole tree.
     */
    @Test
    void childrenOutsideThePartAreInTheirParentsTotalAndItsOther() {
        HandMade h = new HandMade(DURATION);
        // every frame of A.a's subtree but B.b under 3 samples: the part (at most 4 nodes: a floor of 3) is the root,
        // Main.run, A.a and B.b; A.a's 12 light children (2 samples each) lie below it, as its spill
        for (int i = 0; i < 40; i++) {
            h.sample(Kind.CPU, i, "main", 1, "m.Main.run;m.A.a;m.B.b");
        }
        for (int c = 0; c < 12; c++) {
            for (int i = 0; i < 2; i++) {
                h.sample(Kind.CPU, 100 + 2 * c + i, "main", 1, "m.Main.run;m.A.a;m.L.l" + c);
            }
        }
        h.sample(Kind.CPU, 500, "main", 1, "m.Main.run;m.A.a");
        ProfileData whole = h.data().coarseNodes(0);
        ProfileData coarse = h.data().coarseNodes(4);
        Selection all = Selection.of(Kind.CPU);
        CoarseTree part = coarse.awaitCoarse(all);
        assertNotNull(part);
        assertEquals(4, part.size());
        assertEquals(3, part.floor());
        // at most 6 nodes: root, Main.run, A.a, B.b and one "[other]" under A.a; the 12 children would need 16
        FlameGraphQuery q = new FlameGraphQuery(all, null, false, FrameNaming.DEFAULT, 1.0, 6);
        FlameGraph expected = q.run(whole);
        FlameGraph viaPart = onPart(coarse, part, q);
        assertNotNull(viaPart, "the cut is at 40 samples, above the part's floor");
        assertSameAnswer(expected, viaPart, "all");
        int a = -1;
        int other = -1;
        for (int i = 0; i < viaPart.size(); i++) {
            if (name(viaPart, i).equals("m.A.a")) {
                a = i;
            }
            if (path(viaPart, i).equals("m.Main.run;m.A.a;" + BoundedTree.OTHER)) {
                other = i;
            }
        }
        assertTrue(a > 0 && other > 0, "A.a and its [other]");
        assertEquals(65, viaPart.nodes().total()[a], "40 under B.b, 24 under the light children, 1 its own");
        assertEquals(1, viaPart.nodes().self()[a]);
        assertEquals(24, viaPart.nodes().total()[other]);
        // a cut below the part's floor (every node fits) is not answered from it
        assertNull(onPart(coarse, part, new FlameGraphQuery(all, null, false, FrameNaming.DEFAULT, 1.0, 100)));
    }

    @Test
    void aPartCountedBeforeSamplesWereAddedIsNotUsed() {
        HandMade h = generated(5);
        ProfileData d = h.data().coarseNodes(400);
        Selection all = Selection.of(Kind.CPU);
        assertNotNull(d.awaitCoarse(all));
        assertNotNull(d.coarse(d.tree(), all));
        // counts over all samples bound a view's only while no sample is added
        h.sample(Kind.CPU, 1, "t0", 1, "m.Main.run");
        assertNull(d.coarse(d.tree(), all));
    }
}
