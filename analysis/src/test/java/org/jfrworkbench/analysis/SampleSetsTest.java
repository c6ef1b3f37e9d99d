package org.jfrworkbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import org.jfrworkbench.model.FrameNaming;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.StableNames;
import org.junit.jupiter.api.Test;

/**
 * A diff side's method sums against a reference computed from the samples themselves (no call tree): per method by
 * stable name, its self and total samples and weights (a sample counted once however often the method recurs on its
 * stack), the depth of its shallowest occurrence, and which methods share a fingerprint (exactly those whose
 * selected samples have the same stacks).
 */
class SampleSetsTest {
    /** Methods with recursion, lambdas whose generated numbers differ, and frames dropped and repeated at random. */
    private static final String[] FRAMES = {"m.A.a", "m.B.b", "m.C.c", "m.D.d", "m.E.e", "m.F.f",
            "m.App$$Lambda$75.0x0000000800c22a28.run", "m.App$$Lambda$76.0x0000000800c22b00.run",
            "m.App$$Lambda$81.0x0000000800c9f000.run"};

    private record Sample(long millis, long weight, String[] stack) {
    }

    private static final class Expected {
        long selfSamples;
        long totalSamples;
        long self;
        long total;
        int depth = Integer.MAX_VALUE;
        final Set<String> stacks = new HashSet<>();
    }

    @Test
    void methodSumsMatchTheSamplesOverRandomRecordingsAndRanges() {
        Random r = new Random(17);
        for (int round = 0; round < 40; round++) {
            boolean weighed = round % 2 == 1;
            HandMade h = new HandMade(10_000);
            List<Sample> samples = new ArrayList<>();
            int distinct = 5 + r.nextInt(200);
            List<String[]> stacks = new ArrayList<>();
            for (int s = 0; s < distinct; s++) {
                String[] stack = new String[1 + r.nextInt(12)];
                stack[0] = "m.Main.run";
                for (int i = 1; i < stack.length; i++) {
                    stack[i] = r.nextInt(4) == 0 ? stack[r.nextInt(i)] : FRAMES[r.nextInt(FRAMES.length)];
                }
                stacks.add(stack);
            }
            for (int i = 0, n = 50 + r.nextInt(2000); i < n; i++) {
                String[] stack = stacks.get(r.nextInt(stacks.size()));
                long weight = weighed ? 1 + r.nextInt(1000) : 1;
                long millis = r.nextInt(10_000);
                h.sample(Kind.CPU, millis, "main", weight, String.join(";", stack));
                samples.add(new Sample(millis, weight, stack));
            }
            long from = r.nextInt(5_000);
            long to = from + 1 + r.nextInt(6_000);
            String where = "round " + round + " [" + from + ", " + to + ")";
            ProfileData data = h.data();
            Selection selection = Selection.millis(Kind.CPU, from, to, null, false);
            Map<String, Expected> expected = reference(samples, from, to);
            CallTree tree = data.tree(FrameNaming.DEFAULT);
            // as a diff's side makes them (its totals summed in the same passes), and from weights with totals
            TreeWeights selfOnly = selection.weigh(data, tree, false, Parallel.NEVER);
            Cut.Counts counts = weighed ? null : new Cut.Counts();
            SampleSets sums = SampleSets.of(selfOnly, counts);
            TreeWeights summed = selection.weigh(data, tree, true, Parallel.NEVER);
            assertSame(expected, sums, tree, where);
            assertSame(expected, SampleSets.of(summed), tree, where);
            for (int i = 0; i < tree.size(); i++) {
                assertEquals(summed.totalSamples(i), selfOnly.totalSamples(i), where + " node " + i);
                assertEquals(summed.total(i), selfOnly.total(i), where + " node " + i);
            }
            if (counts != null) {
                for (int max : new int[] {3, 10, 40}) {
                    assertEquals(Cut.of(summed, max, null).threshold(), Cut.of(selfOnly, max, counts).threshold(),
                            where + " threshold for " + max);
                }
            }
        }
    }

    @Test
    void aPathDeeperThanACharHoldsKeepsItsDepths() {
        int depth = 70_000;
        StringBuilder stack = new StringBuilder("m.Main.run");
        for (int i = 1; i < depth; i++) {
            stack.append(";m.Deep.f").append(i);
        }
        ProfileData data = new HandMade().sample(Kind.CPU, 1, "main", 1, stack.toString()).data();
        CallTree tree = data.tree(FrameNaming.DEFAULT);
        SampleSets sums = SampleSets.of(Selection.of(Kind.CPU).weigh(data, tree, false, Parallel.NEVER), null);
        FrameNames names = tree.names();
        for (int id = 0; id < names.stableSize(); id++) {
            String name = names.stableName(id);
            if (!name.startsWith("m.")) {
                assertEquals(0, sums.totalSamples(id), name);
                continue;
            }
            int expected = name.equals("m.Main.run") ? 0 : Integer.parseInt(name.substring("m.Deep.f".length()));
            assertEquals(expected, sums.depth(id), name);
            assertEquals(1, sums.totalSamples(id), name);
        }
    }

    /** Per stable name, its figures over the samples in [from, to). */
    private static Map<String, Expected> reference(List<Sample> samples, long from, long to) {
        Map<String, Expected> out = new HashMap<>();
        for (Sample s : samples) {
            if (s.millis() < from || s.millis() >= to) {
                continue;
            }
            String path = String.join(";", s.stack());
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < s.stack().length; i++) {
                String method = StableNames.of(s.stack()[i]);
                Expected e = out.computeIfAbsent(method, k -> new Expected());
                if (seen.add(method)) {
                    e.totalSamples++;
                    e.total += s.weight();
                    e.depth = Math.min(e.depth, i);
                    e.stacks.add(path);
                }
                if (i == s.stack().length - 1) {
                    e.selfSamples++;
                    e.self += s.weight();
                }
            }
        }
        return out;
    }

    private static void assertSame(Map<String, Expected> expected, SampleSets sums, CallTree tree, String where) {
        FrameNames names = tree.names();
        Map<Long, Set<String>> stacksByFingerprint = new HashMap<>();
        int methods = 0;
        for (int id = 0; id < names.stableSize(); id++) {
            String name = names.stableName(id);
            Expected e = expected.get(name);
            if (e == null) {
                assertEquals(0, sums.totalSamples(id), where + " " + name);
                assertEquals(0, sums.selfSamples(id), where + " " + name);
                continue;
            }
            methods++;
            assertEquals(e.selfSamples, sums.selfSamples(id), where + " self samples of " + name);
            assertEquals(e.totalSamples, sums.totalSamples(id), where + " total samples of " + name);
            assertEquals(e.self, sums.self(id), where + " self of " + name);
            assertEquals(e.total, sums.total(id), where + " total of " + name);
            assertEquals(e.depth, sums.depth(id), where + " depth of " + name);
            // equal fingerprints for exactly the methods on the same stacks
            Set<String> other = stacksByFingerprint.putIfAbsent(sums.fingerprint(id), e.stacks);
            if (other != null) {
                assertEquals(other, e.stacks, where + " stacks of " + name + " and a method of the same fingerprint");
            }
        }
        assertEquals(expected.size(), methods, where + " methods");
        Set<Set<String>> distinct = new HashSet<>();
        for (Expected e : expected.values()) {
            distinct.add(e.stacks);
        }
        assertEquals(distinct.size(), stacksByFingerprint.size(), where + " methods on different stacks share a fingerprint");
    }
}
