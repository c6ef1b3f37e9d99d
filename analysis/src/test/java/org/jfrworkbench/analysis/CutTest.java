package org.jfrworkbench.analysis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.jfrworkbench.model.FrameNaming;
import org.jfrworkbench.model.Kind;
import org.junit.jupiter.api.Test;

/** The cut of a bounded answer: its sizes at each threshold from one walk against a walk per threshold. */
class CutTest {
    private static final String[] FRAMES = {"m.A.a", "m.B.b", "m.C.c", "m.D.d", "m.E.e", "m.F.f", "m.G.g"};

    /** 4,000 cpu samples of random stacks 2 to 13 frames deep over a few names, at random times in 10 s. */
    private static ProfileData randomProfile(long seed) {
        Random r = new Random(seed);
        HandMade h = new HandMade(10_000);
        for (int i = 0; i < 4_000; i++) {
            StringBuilder stack = new StringBuilder("m.Main.run");
            for (int d = 0, depth = 1 + r.nextInt(12); d < depth; d++) {
                stack.append(';').append(FRAMES[r.nextInt(FRAMES.length)]).append(r.nextInt(3));
            }
            h.sample(Kind.CPU, r.nextInt(10_000), "main", 1, stack.toString());
        }
        return h.data();
    }

    @Test
    void sizesFromOneWalkAreTheWalkedSizesAtEveryCountAboveTheFloorAndBelow() {
        Random r = new Random(23);
        for (int round = 0; round < 30; round++) {
            // every sample weighs the same, so weights are counts times it (a unit that is not 1 checks the division)
            long unit = 1 + r.nextInt(9);
            HandMade h = new HandMade(10_000);
            int distinct = 5 + r.nextInt(300);
            String[][] stacks = new String[distinct][];
            for (int s = 0; s < distinct; s++) {
                String[] stack = new String[1 + r.nextInt(10)];
                stack[0] = "m.Main.run";
                for (int i = 1; i < stack.length; i++) {
                    stack[i] = FRAMES[r.nextInt(FRAMES.length)];
                }
                stacks[s] = stack;
            }
            for (int i = 0, n = 50 + r.nextInt(3000); i < n; i++) {
                // skewed, so that counts tie and spread
                String[] stack = stacks[(int) (distinct * Math.pow(r.nextDouble(), 3))];
                h.sample(Kind.CPU, r.nextInt(10_000), "main", unit, String.join(";", stack));
            }
            ProfileData data = h.data();
            long from = r.nextInt(5_000);
            Selection selection = Selection.millis(Kind.CPU, from, from + 1 + r.nextInt(6_000), null, false);
            CallTree tree = data.tree(FrameNaming.DEFAULT);
            TreeWeights w = selection.weigh(data, tree, true, Parallel.NEVER);
            assertEquals(unit, w.unit(), "round " + round + ": weights are counts times the unit");
            int most = w.totalSamples(0);
            int floor = 1 + r.nextInt(Math.max(1, most));
            Cut.CountSizes sizes = new Cut.CountSizes(w, floor * unit);
            try {
                for (int c = 1; c <= most + 1; c++) {
                    for (long t : new long[] {c * unit, c * unit - unit / 2}) {
                        assertEquals(Cut.answerSize(w, t, new boolean[tree.size()]), sizes.at(t),
                                "round " + round + ", floor " + floor + ", threshold " + t);
                    }
                }
                assertEquals(Cut.answerSize(w, Long.MAX_VALUE, new boolean[tree.size()]),
                        sizes.at(Long.MAX_VALUE), "round " + round + ": above every node");
            } finally {
                sizes.release();
                w.release();
            }
        }
    }

    @Test
    void aCutsSizeIsTheSizeOfItsAnswer() {
        ProfileData data = randomProfile(5);
        TreeWeights w = Selection.of(Kind.CPU).weigh(data, data.tree(FrameNaming.DEFAULT), true, Parallel.NEVER);
        for (int max = 3; max < 3_000; max = max * 3 / 2) {
            Cut cut = Cut.of(w, max, null);
            FlameGraph graph = FlameLayout.of(w, Selection.of(Kind.CPU), null, null, 0, 1.0, cut);
            assertEquals(cut.size(), graph.size(), "max " + max);
            assertEquals(true, graph.size() <= max, "max " + max + ": " + graph.size() + " nodes");
        }
        w.release();
    }

    @Test
    void aLayoutFromTheNodesTheCutsWalkKeptIsTheLayoutOfAWalkOfTheTree() {
        Random r = new Random(31);
        HandMade h = new HandMade(10_000);
        for (int i = 0; i < 4_000; i++) {
            StringBuilder stack = new StringBuilder("m.Main.run");
            for (int d = 0, depth = 1 + r.nextInt(12); d < depth; d++) {
                stack.append(';').append(FRAMES[r.nextInt(FRAMES.length)]).append(r.nextInt(3));
            }
            // a sample weighs 3 (every one alike, so weights are counts times 3); some stacks end in their caller
            h.sample(Kind.CPU, r.nextInt(10_000), "main", 3, r.nextInt(20) == 0 ? "m.Main.run" : stack.toString());
        }
        ProfileData data = h.data();
        SearchPattern search = SearchPattern.of("C\\.c1", false, false);
        boolean[] matches = data.matches(FrameNaming.DEFAULT, search);
        int noted = 0;
        for (Selection s : new Selection[] {Selection.of(Kind.CPU), Selection.millis(Kind.CPU, 2_000L, 4_700L, null, false)}) {
            TreeWeights w = s.weigh(data, data.tree(FrameNaming.DEFAULT), true, Parallel.NEVER);
            for (int max = 3; max < 3_000; max = max * 3 / 2) {
                Cut.Noted cut = Cut.noted(w, max, null);
                if (cut.kept() != null && cut.kept().covers(cut.cut().threshold())) {
                    noted++;
                }
                FlameGraph walked = FlameLayout.of(w, s, search, matches, 7, 1.0, cut.cut());
                FlameGraph read = FlameLayout.of(w, s, search, matches, 7, 1.0, cut);
                FlameGraphQueryTest.assertSameGraph(walked, read, s + " max " + max);
                assertArrayEquals(walked.search().nodes(), read.search().nodes(), s + " max " + max);
                assertEquals(cut.cut().size(), read.size(), s + " max " + max);
                cut.release();
            }
            w.release();
        }
        assertTrue(noted > 10, "layouts read from the cut's notes: " + noted);
    }

    @Test
    void countsGatheredWhileTheTotalsAreSummedCutAsCountsGatheredByAWalk() {
        ProfileData data = randomProfile(8);
        for (Selection s : new Selection[] {Selection.of(Kind.CPU), Selection.millis(Kind.CPU, 2_000L, 2_700L, null, true),
                Selection.millis(Kind.CPU, 20_000L, 30_000L, null, false)}) {
            Selection.Slots slots = s.slots(data, data.tree(FrameNaming.DEFAULT), Parallel.NEVER);
            Cut.Counts gathered = new Cut.Counts();
            TreeWeights w = slots.onTree(true, gathered);
            slots.release();
            for (int max = 3; max < 3_000; max = max * 3 / 2) {
                assertEquals(Cut.of(w, max, null), Cut.of(w, max, gathered), s + " max " + max);
            }
            w.release();
        }
    }
}
