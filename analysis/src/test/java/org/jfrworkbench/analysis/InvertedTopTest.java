package org.jfrworkbench.analysis;

import static org.jfrworkbench.analysis.FlameGraphQueryTest.assertSameGraph;
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

/** Inverted graphs from a top of the inverted part ({@link InvertedTree#top}) are those of the whole part. */
class InvertedTopTest {
    private static final long DURATION = 10_000;
    private static final List<String> STATES = List.of("STATE_RUNNABLE", "STATE_SLEEPING", "STATE_IN_NATIVE");

    /**
     * Leaves (frames with samples of their own) shared by many paths and paths of their own, recursion, depths from 1
     * to 40, a leaf's type differing between its paths (interpreted or compiled), on six threads in three states, cpu
     * samples and allocations (a class leaf under each stack).
     */
    private static HandMade generated(long seed) {
        HandMade h = new HandMade(DURATION);
        Random r = new Random(seed);
        for (int i = 0; i < 12_000; i++) {
            int depth = 1 + (int) Math.min(39, Math.abs(r.nextGaussian() * 14));
            StringBuilder stack = new StringBuilder("m.Main.run");
            for (int d = 0; d < depth; d++) {
                int choices = 2 + d * 3;
                int f = (int) Math.min(choices - 1, Math.abs(r.nextGaussian() * choices / 3));
                stack.append(";m.F").append(f % 40).append(".f").append(f / 40);
            }
            // a few hot leaves under many callers: the inverted part's shared nodes
            stack.append(";m.Leaf.l").append((int) Math.abs(r.nextGaussian() * 4));
            // its type per path: interpreted on some, compiled on others
            stack.append(r.nextInt(5) == 0 ? "_[0]" : "");
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

    /** The inverted graph of q from the part given (a top or the whole part); null where a top cannot answer it. */
    private static FlameGraph from(ProfileData d, InvertedTree part, FlameGraphQuery q, Parallel parallel) {
        Selection.Slots slots = q.selection().slots(d, d.tree(), parallel);
        try {
            Emitted e = BoundedTree.inverted(part, slots, q.maxNodes(), parallel);
            return e == null ? null : e.graph(q.selection(), true, null, null, 1.0);
        } finally {
            slots.release();
        }
    }

    @Test
    void graphsFromTheTopAreThoseOfTheWholePartAndFallBackWhereTheyCouldNeedANodeBelowIt() {
        HandMade h = generated(7);
        ProfileData d = h.data().coarseNodes(300);
        InvertedTree whole = d.tree().awaitInverted();
        assertNotNull(whole);
        ProfileData plain = h.data().coarseNodes(0);
        Random r = new Random(13);
        int onTop = 0;
        int fellBack = 0;
        int viewsOnTop = 0;
        for (int round = 0; round < 400; round++) {
            Kind kind = r.nextInt(4) == 0 ? Kind.ALLOC : Kind.CPU;
            // allocations weighed in bytes now and then: no top serves them, the whole part does
            boolean counted = kind == Kind.CPU || r.nextInt(4) > 0;
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
            Selection s = Selection.millis(kind, from, from + length, threads, kind == Kind.ALLOC && counted)
                    .with(states, null);
            int maxNodes = new int[] {8, 30, 100, 250, 1000, 1 << 17}[r.nextInt(6)];
            Parallel parallel = r.nextBoolean() ? Parallel.ALWAYS : Parallel.NEVER;
            FlameGraphQuery q = new FlameGraphQuery(s, null, true, FrameNaming.DEFAULT, 1.0, maxNodes);
            String what = round + ": " + s + " " + maxNodes + " " + parallel;
            InvertedTree top = d.awaitInvertedTop(s);
            assertNotNull(top, "a top of at most 300 nodes: " + what);
            assertTrue(top.isTop() && top.size() <= 300 && top.size() < whole.size(), what + ": " + top.size());
            FlameGraph expected = from(d, whole, q, Parallel.NEVER);
            FlameGraph viaTop = counted ? from(d, top, q, parallel) : null;
            if (viaTop == null && counted) {
                fellBack++;
            } else if (viaTop != null) {
                onTop++;
                assertSameGraph(expected, viaTop, what);
            }
            // as a view answers, a search's share beside it
            SearchPattern search = r.nextBoolean() ? null : SearchPattern.of("Leaf", false, false);
            FlameGraphQuery view = new FlameGraphQuery(s, search, true, FrameNaming.DEFAULT, 1.0, maxNodes);
            FlameGraph answer = view.run(d, parallel);
            assertSameGraph(expected, answer, what + ", as a view");
            FlameGraph wholeView = view.run(plain, Parallel.NEVER);
            assertSameGraph(wholeView, answer, what + ", as a view without a top");
            if (search != null) {
                assertEquals(wholeView.search().matched(), answer.search().matched(), what);
            }
            if (viaTop != null && d.invertedTop(d.tree(), whole, s) != null) {
                viewsOnTop++;
            }
        }
        assertTrue(viewsOnTop <= onTop, viewsOnTop + " of " + onTop);
        assertTrue(onTop > 100, "answered from the top: " + onTop);
        assertTrue(fellBack > 20, "fell back to the whole part: " + fellBack);
        assertTrue(viewsOnTop > 50, "views answered from the top: " + viewsOnTop);
    }

    /**
     * A node of the top with callers below it: they go to its "[other]" together, as each would on the whole part,
     * where the graph's floor is above the top's.
     */
    @Test
    void callersBelowTheTopAreInTheirNodesOther() {
        HandMade h = new HandMade(DURATION);
        // L.l under six callers B0..B5 40 times each, and under twelve callers C0..C11 twice each: a top of 8 nodes
        // (floor 3) holds the root, L.l and the Bs, the Cs lie below it as L.l's spill
        for (int b = 0; b < 6; b++) {
            for (int i = 0; i < 40; i++) {
                h.sample(Kind.CPU, 40 * b + i, "main", 1, "m.Main.run;m.B" + b + ".b;m.L.l");
            }
        }
        for (int c = 0; c < 12; c++) {
            for (int i = 0; i < 2; i++) {
                h.sample(Kind.CPU, 300 + 2 * c + i, "main", 1, "m.Main.run;m.C" + c + ".c;m.L.l");
            }
        }
        ProfileData d = h.data().coarseNodes(8);
        Selection all = Selection.of(Kind.CPU);
        InvertedTree whole = d.tree().awaitInverted();
        InvertedTree top = d.awaitInvertedTop(all);
        assertNotNull(top);
        assertTrue(whole.size() >= 20, "the root, L.l and its 18 callers: " + whole.size());
        assertEquals(8, top.size());
        // root, L.l, B0 and the "[other]"s of L.l (B1..B5 and the Cs) and of B0 (its caller Main.run)
        FlameGraphQuery q = new FlameGraphQuery(all, null, true, FrameNaming.DEFAULT, 1.0, 6);
        FlameGraph expected = from(d, whole, q, Parallel.NEVER);
        FlameGraph viaTop = from(d, top, q, Parallel.NEVER);
        assertNotNull(viaTop, "the graph's floor is the bucket of 32 to 63 samples, above the top's");
        assertSameGraph(expected, viaTop, "all");
        int other = -1;
        for (int i = 0; i < viaTop.size(); i++) {
            if (HandMade.path(viaTop, i).equals("m.L.l;" + BoundedTree.OTHER)) {
                other = i;
            }
        }
        assertTrue(other > 0, "L.l's [other]");
        assertEquals(5 * 40 + 12 * 2, viaTop.nodes().total()[other]);
        // a graph that keeps every node is not answered from it
        assertNull(from(d, top, new FlameGraphQuery(all, null, true, FrameNaming.DEFAULT, 1.0, 100), Parallel.NEVER));
    }

    @Test
    void aTopCountedBeforeSamplesWereAddedIsNotUsed() {
        HandMade h = generated(5);
        ProfileData d = h.data().coarseNodes(300);
        Selection all = Selection.of(Kind.CPU);
        assertNotNull(d.awaitInvertedTop(all));
        InvertedTree whole = d.tree().awaitInverted();
        assertNotNull(d.invertedTop(d.tree(), whole, all));
        h.sample(Kind.CPU, 1, "t0", 1, "m.Main.run");
        assertNull(d.invertedTop(d.tree(), whole, all));
    }
}
