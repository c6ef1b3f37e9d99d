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

/**
 * Inverted graphs whose samples are counted by their codes in the kept part ({@link InvertedCodes}) are those
 * weighed through the slots, node for node.
 */
class InvertedCodesTest {
    private static final long DURATION = 10_000;
    private static final List<String> STATES = List.of("STATE_RUNNABLE", "STATE_SLEEPING", "STATE_IN_NATIVE");
    private static final String[] TYPES = {"", "_[i]", "_[0]", "_[1]"};

    /**
     * Varied stacks 1 to 40 deep sharing callers at every depth, on six threads in three states, cpu samples and
     * allocations (a class leaf under each stack); where typed, a frame's type differs from stack to stack (a method
     * inlined in one caller, compiled alone in another), so that the part has nodes of mixed types.
     */
    private static HandMade generated(long seed, boolean typed) {
        HandMade h = new HandMade(DURATION);
        Random r = new Random(seed);
        for (int i = 0; i < 20_000; i++) {
            int depth = 1 + (int) Math.min(39, Math.abs(r.nextGaussian() * 12));
            StringBuilder stack = new StringBuilder("m.Main.run");
            for (int d = 0; d < depth; d++) {
                int choices = 2 + d * 2;
                int f = (int) Math.min(choices - 1, Math.abs(r.nextGaussian() * choices / 3));
                stack.append(";m.F").append(f % 30).append(".f").append(f / 30);
                if (typed && r.nextInt(3) == 0) {
                    stack.append(TYPES[r.nextInt(TYPES.length)]);
                }
            }
            String thread = "t" + r.nextInt(6);
            String state = STATES.get(r.nextInt(3) == 0 ? r.nextInt(3) : 0);
            long millis = (long) (r.nextDouble() * DURATION);
            h.sample(Kind.CPU, millis, thread, 1 + r.nextInt(3), stack.toString(), null, state);
            if (r.nextInt(4) == 0) {
                h.sample(Kind.ALLOC, millis, thread, 16 + r.nextInt(4096), stack.toString(), "C" + r.nextInt(5));
            }
        }
        return h;
    }

    @Test
    void graphsCountedByTheSamplesCodesAreThoseWeighedThroughTheSlots() {
        checkAgainstSlots(generated(3, false), false);
    }

    @Test
    void graphsCountedByTheSamplesCodesAreThoseWeighedThroughTheSlotsTypesIncluded() {
        checkAgainstSlots(generated(4, true), true);
    }

    /**
     * Random views (ranges, states, threads, cpu and allocations counted or weighed, small and large budgets, in
     * halves and in one pass) answered through the codes where a view takes them and through the slots, the same.
     */
    private static void checkAgainstSlots(HandMade h, boolean mixed) {
        ProfileData slots = h.data().withoutInvertedCodes();
        ProfileData coded = h.data();
        CallTree tree = coded.tree();
        InvertedTree part = tree.awaitInverted();
        assertNotNull(part, "the tree keeps its inverted part");
        assertEquals(mixed, part.hasMixedTypes(), "the case this test is for");
        assertTrue(part.hasHalves(), "a part with two halves");
        assertNotNull(slots.tree().awaitInverted());
        assertNull(slots.awaitInvertedCodes(Selection.of(Kind.CPU)), "the slots' way has no codes");
        Random r = new Random(17);
        int viaCodes = 0;
        for (int round = 0; round < 300; round++) {
            Kind kind = r.nextInt(3) == 0 ? Kind.ALLOC : Kind.CPU;
            long length = 1 + (long) (r.nextDouble() * DURATION);
            long from = (long) (r.nextDouble() * (DURATION - length));
            BitSet threads = null;
            if (r.nextInt(5) == 0) {
                threads = new BitSet();
                threads.set(h.thread("t" + r.nextInt(6)));
            }
            Set<String> states = kind == Kind.CPU && r.nextInt(4) == 0 ? Set.of(STATES.get(r.nextInt(3))) : null;
            // counted mostly: the codes serve samples that weigh alike; weighed ones go through the slots
            boolean counted = r.nextInt(5) != 0;
            Selection s = (r.nextInt(8) == 0 ? Selection.millis(kind, null, null, threads, counted)
                    : Selection.millis(kind, from, from + length, threads, counted)).with(states, null);
            int maxNodes = new int[] {8, 30, 100, 250, 1000, 1 << 20}[r.nextInt(6)];
            Parallel parallel = round % 2 == 0 ? Parallel.NEVER : Parallel.ALWAYS;
            FlameGraphQuery q = new FlameGraphQuery(s, null, true, FrameNaming.DEFAULT, 1.0, maxNodes);
            String what = round + ": " + s + " " + maxNodes + " " + parallel;
            InvertedCodes codes = coded.awaitInvertedCodes(s);
            assertNotNull(codes, what);
            FlameGraph expected = q.run(slots, parallel);
            if (threads == null && s.unit(coded) > 0) {
                // the way a view of these takes: it finds the codes made
                assertTrue(coded.invertedCodes(tree, part, s) == codes, what);
                FlameGraph direct = BoundedTree.inverted(part, tree, codes.weigh(coded, s, s.unit(coded), parallel),
                        maxNodes).graph(s, true, null, null, 1.0);
                assertSameGraph(expected, direct, what + ", counted by the codes");
                viaCodes++;
            }
            assertSameGraph(expected, q.run(coded, parallel), what + ", as a view");
        }
        assertTrue(viaCodes > 150, "views counted by the codes: " + viaCodes);
    }

    @Test
    void codesMadeBeforeSamplesWereAddedAreNotUsed() {
        HandMade h = generated(5, false);
        ProfileData d = h.data();
        Selection all = Selection.of(Kind.CPU);
        InvertedTree part = d.tree().awaitInverted();
        assertNotNull(d.awaitInvertedCodes(all));
        assertNotNull(d.invertedCodes(d.tree(), part, all));
        // the added sample has no code: the view goes through the slots
        h.sample(Kind.CPU, 1, "t0", 1, "m.Main.run");
        assertNull(d.invertedCodes(d.tree(), part, all));
    }
}
