package org.jfrworkbench.analysis;

import static org.jfrworkbench.analysis.CoarseTreeTest.DURATION;
import static org.jfrworkbench.analysis.CoarseTreeTest.STATES;
import static org.jfrworkbench.analysis.CoarseTreeTest.assertSameAnswer;
import static org.jfrworkbench.analysis.CoarseTreeTest.generated;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.BitSet;
import java.util.Random;
import java.util.Set;

import org.jfrworkbench.model.FrameNaming;
import org.jfrworkbench.model.Kind;
import org.junit.jupiter.api.Test;

/** Flame graphs on the part of the tree a selection reaches ({@link ReachedTree}) are those of the whole tree. */
class ReachedTreeTest {

    /** The graph weighed on the whole tree, as before the reached part. */
    private static FlameGraph onWholeTree(ProfileData d, FlameGraphQuery q) {
        return answer(d, q, false);
    }

    /** The graph on the reached part; null where the selection reaches too many slots for it. */
    private static FlameGraph onReached(ProfileData d, FlameGraphQuery q) {
        return answer(d, q, true);
    }

    private static FlameGraph answer(ProfileData d, FlameGraphQuery q, boolean reached) {
        CallTree tree = d.tree();
        Selection.Slots slots = q.selection().slots(d, tree, Parallel.NEVER);
        try {
            long matched = q.search() == null ? 0 : slots.weightOf(d.matchingSlots(tree, FrameNaming.DEFAULT, q.search()));
            boolean[] matches = q.search() == null ? null : d.matches(FrameNaming.DEFAULT, q.search());
            Cut.Counts counts = new Cut.Counts();
            TreeWeights w = reached ? ReachedTree.weigh(slots, counts) : slots.onTree(true, counts);
            if (w == null) {
                return null;
            }
            Cut.Noted cut = Cut.noted(w, q.maxNodes(), counts);
            try {
                assertNotNull(cut, "a cut without spill is always known");
                return FlameLayout.of(w, q.selection(), q.search(), matches, matched, 1.0, cut);
            } finally {
                cut.release();
                w.release();
            }
        } finally {
            slots.release();
        }
    }

    @Test
    void graphsOnTheReachedPartAreThoseOfTheWholeTree() {
        HandMade h = generated(7);
        ProfileData d = h.data().coarseNodes(0);
        Random r = new Random(13);
        SearchPattern[] searches = {null, SearchPattern.of("F3\\.f0", false, false), SearchPattern.of("f1", false, false)};
        int reached = 0;
        int whole = 0;
        for (int round = 0; round < 400; round++) {
            Kind kind = r.nextInt(3) == 0 ? Kind.ALLOC : Kind.CPU;
            // short ranges (a few samples, or none) to the whole recording
            long length = r.nextBoolean() ? 1 + r.nextInt(200) : 1 + (long) (r.nextDouble() * DURATION);
            long from = (long) (r.nextDouble() * (DURATION - length));
            BitSet threads = null;
            if (r.nextInt(3) > 0) {
                threads = new BitSet();
                for (int i = 0, n = 1 + r.nextInt(2); i < n; i++) {
                    threads.set(h.thread("t" + r.nextInt(6)));
                }
            }
            Set<String> states = kind == Kind.CPU && r.nextInt(4) == 0 ? Set.of(STATES.get(r.nextInt(3))) : null;
            // allocations counted: samples that weigh alike, with a class leaf under each stack
            Selection s = Selection.millis(kind, from, from + length, threads, kind == Kind.ALLOC).with(states, null);
            SearchPattern search = searches[r.nextInt(searches.length)];
            int maxNodes = new int[] {8, 30, 100, 1000, FlameGraphQuery.DEFAULT_MAX_NODES}[r.nextInt(5)];
            FlameGraphQuery q = new FlameGraphQuery(s, search, false, FrameNaming.DEFAULT, 1.0, maxNodes);
            String what = round + ": " + s + " " + search + " " + maxNodes;
            FlameGraph expected = onWholeTree(d, q);
            FlameGraph viaReached = onReached(d, q);
            if (viaReached == null) {
                whole++;
            } else {
                reached++;
                assertSameAnswer(expected, viaReached, what);
            }
            assertSameAnswer(expected, q.run(d), what + ", as a view");
        }
        assertTrue(reached > 150, "answered on the reached part: " + reached);
        assertTrue(whole > 30, "on the whole tree: " + whole);
    }

    @Test
    void anEmptySelectionIsTheRootAlone() {
        HandMade h = generated(9);
        ProfileData d = h.data().coarseNodes(0);
        // a range between two samples' milliseconds holds none
        FlameGraphQuery q = new FlameGraphQuery(Selection.millis(Kind.CPU, -10L, -5L, null, false), null, false,
                FrameNaming.DEFAULT, 1.0, 100);
        FlameGraph viaReached = onReached(d, q);
        assertNotNull(viaReached);
        assertEquals(1, viaReached.size());
        assertSameAnswer(onWholeTree(d, q), viaReached, "none");
    }

    @Test
    void aSelectionOfMostSlotsIsWeighedOnTheWholeTree() {
        HandMade h = generated(9);
        ProfileData d = h.data().coarseNodes(0);
        assertNull(onReached(d, new FlameGraphQuery(Selection.of(Kind.CPU), null, false, FrameNaming.DEFAULT, 1.0, 100)));
    }
}
