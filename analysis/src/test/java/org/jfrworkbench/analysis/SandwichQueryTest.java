package org.jfrworkbench.analysis;

import static org.jfrworkbench.analysis.HandMade.name;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import org.jfrworkbench.model.FrameNaming;
import org.jfrworkbench.model.Kind;
import org.junit.jupiter.api.Test;

class SandwichQueryTest {
    static Sandwich sandwich(ProfileData d, String method) {
        return new SandwichQuery(Selection.of(Kind.CPU), method, FrameNaming.DEFAULT, 1 << 20).run(d);
    }

    /**
     * The reference, from collapsed stacks alone: for each stack holding the method, its callers (from its
     * outermost occurrence up, reversed) and its callees (from that occurrence down), each under the method.
     */
    static Map<String, Long>[] reference(Map<String, Long> collapsed, String method) {
        @SuppressWarnings("unchecked")
        Map<String, Long>[] out = new Map[] {new TreeMap<>(), new TreeMap<>()};
        collapsed.forEach((stack, weight) -> {
            List<String> frames = Arrays.asList(stack.split(";"));
            int at = frames.indexOf(method);
            if (at < 0) {
                return;
            }
            List<String> callers = new java.util.ArrayList<>(frames.subList(0, at + 1));
            java.util.Collections.reverse(callers);
            out[0].merge(String.join(";", callers.subList(1, callers.size())), weight, Long::sum);
            out[1].merge(String.join(";", frames.subList(at + 1, frames.size())), weight, Long::sum);
        });
        return out;
    }

    @Test
    void bothTreesHoldEverySampleWithTheMethodOnceAndMatchTheCollapsedStacks() {
        HandMade h = new HandMade();
        Random r = new Random(11);
        String[] pool = {"m.A.a", "m.B.b", "m.C.c", "m.D.d", "m.E.e"};
        for (int i = 0; i < 300; i++) {
            StringBuilder s = new StringBuilder("m.Main.run");
            for (int d = 0, depth = 1 + r.nextInt(6); d < depth; d++) {
                s.append(';').append(pool[r.nextInt(pool.length)]);
            }
            h.sample(Kind.CPU, i, "main", 1 + r.nextInt(3), s.toString());
        }
        ProfileData d = h.data();
        Map<String, Long> collapsed = h.collapsed(Kind.CPU, 0, 1000, false);
        for (String method : pool) {
            Sandwich s = sandwich(d, method);
            long expectedTotal = 0;
            long expectedSelf = 0;
            for (Map.Entry<String, Long> e : collapsed.entrySet()) {
                List<String> frames = Arrays.asList(e.getKey().split(";"));
                expectedTotal += frames.contains(method) ? e.getValue() : 0;
                expectedSelf += frames.get(frames.size() - 1).equals(method) ? e.getValue() : 0;
            }
            assertEquals(expectedTotal, s.total(), method);
            assertEquals(expectedSelf, s.self(), method);
            assertEquals(s.total(), s.callers().total(), method + " callers' root");
            assertEquals(s.total(), s.callees().total(), method + " callees' root");
            assertEquals(method, name(s.callers(), 0));
            assertEquals(method, name(s.callees(), 0));
            FlameGraphQueryTest.assertConsistent(s.callers());
            FlameGraphQueryTest.assertConsistent(s.callees());
            Map<String, Long>[] ref = reference(collapsed, method);
            assertEquals(withoutEmpty(ref[0]), FlameGraphQueryTest.stacks(s.callers()), method + " callers");
            assertEquals(withoutEmpty(ref[1]), FlameGraphQueryTest.stacks(s.callees()), method + " callees");
            assertEquals(ref[0].getOrDefault("", 0L), s.callers().nodes().self()[0]);
            assertEquals(ref[1].getOrDefault("", 0L), s.callees().nodes().self()[0]);
        }
    }

    private static Map<String, Long> withoutEmpty(Map<String, Long> m) {
        Map<String, Long> out = new TreeMap<>(m);
        out.remove("");
        return out;
    }

    /**
     * The sandwich with its callees grouped level by level as for several occurrences, also below one occurrence,
     * where a query expands them from a copy of the occurrence's subtree.
     */
    static Sandwich grouped(ProfileData d, Selection selection, String method, int maxNodes) {
        d.samples(selection.kind());
        CallTree tree = d.tree();
        int m = tree.names().find(method);
        TreeWeights w = selection.weigh(d, tree);
        try {
            int[] outermost = new int[tree.size()];
            int count = 0;
            long total = 0;
            long self = 0;
            long samples = 0;
            for (int i = 1; i < tree.size(); ) {
                if (w.totalSamples(i) == 0) {
                    i = tree.end(i);
                    continue;
                }
                if (tree.name(i) == m) {
                    self += w.self(i);
                    if (!tree.recursive(i)) {
                        outermost[count++] = i;
                        total += w.total(i);
                        samples += w.totalSamples(i);
                    }
                }
                i++;
            }
            int[] occurrences = Arrays.copyOf(outermost, count);
            return new Sandwich(selection.kind().id(), selection.unit(), method, total, self, samples,
                    BoundedTree.callers(w, occurrences, m, maxNodes).graph(selection, false, null, null, 1.0),
                    BoundedTree.callees(w, occurrences, m, maxNodes, false).graph(selection, false, null, null, 1.0));
        } finally {
            w.release();
        }
    }

    @Test
    void sandwichesAreThoseGroupedLevelByLevelForEveryKindOfMethodRangeThreadsAndBudget() {
        // a main path near the root (one occurrence), two entry points calling shared code (a few occurrences),
        // recursion, lambdas (generated names), leaves with many callers; weighed, counted and weightless kinds (the
        // last with weightless nodes among weighed ones: no floor, so no copy); budgets from two nodes to all
        HandMade h = new HandMade();
        Random r = new Random(23);
        String[] shared = {"s.S.a", "s.S.b", "s.S.c", "s.Rec.r", "s.Rec.r", "s.L$$Lambda.0x0000001.run",
            "s.L$$Lambda.0x0000002.run", "s.L.lambda$f$0"};
        String[] roots = {"m.Main.run;m.App.serve", "m.Main.run;m.App.batch", "m.Worker.run"};
        String[] threads = {"main", "worker-1", "worker-2"};
        for (int i = 0; i < 3000; i++) {
            StringBuilder stack = new StringBuilder(roots[r.nextInt(roots.length)]);
            for (int level = 0, depth = 1 + r.nextInt(12); level < depth; level++) {
                stack.append(';').append(shared[r.nextInt(shared.length)]).append(r.nextInt(3) == 0 ? "" : r.nextInt(2));
            }
            stack.append(";x.Leaf.l").append(r.nextInt(30));
            String s = stack.toString();
            String thread = threads[r.nextInt(threads.length)];
            long millis = r.nextInt(10_000);
            h.sample(Kind.CPU, millis, thread, 1, s);
            h.sample(Kind.ALLOC, millis, thread, 1L << r.nextInt(20), s, r.nextBoolean() ? "byte[]" : "m.Item");
            h.sample(Kind.LOCK, millis, thread, r.nextInt(4) == 0 ? 0 : 1 + r.nextInt(1000), s);
        }
        ProfileData d = h.data();
        FrameNames names = d.tree().names();
        List<String> methods = new java.util.ArrayList<>(List.of("m.Main.run", "m.App.serve", "m.Worker.run", "s.Rec.r",
                "s.Rec.r1", "s.L$$Lambda.0x0000001.run0", "s.L.lambda$f$0", "s.S.a1", "x.Leaf.l7", "byte[]"));
        for (int i = 0; i < 4; i++) {
            methods.add(names.name(r.nextInt(names.size())));
        }
        BitSet workers = new BitSet();
        workers.set(h.thread("worker-1"));
        workers.set(h.thread("worker-2"));
        int compared = 0;
        for (Kind kind : new Kind[] {Kind.CPU, Kind.ALLOC, Kind.LOCK}) {
            for (Selection s : List.of(Selection.of(kind), Selection.millis(kind, 1_000L, 4_000L, null, false),
                    Selection.millis(kind, 6_000L, 6_050L, null, false), Selection.millis(kind, null, null, workers, false),
                    Selection.millis(kind, 2_000L, 9_000L, workers, true))) {
                for (String method : methods) {
                    if (names.find(method) < 0) {
                        continue;
                    }
                    for (int maxNodes : new int[] {2, 3, 5, 9, 17, 33, 65, 129, 257, 513, 1025, 2049, 1 << 20}) {
                        String what = kind + " " + s + " " + method + ", maxNodes=" + maxNodes;
                        Sandwich expected = grouped(d, s, method, maxNodes);
                        Sandwich actual = new SandwichQuery(s, method, FrameNaming.DEFAULT, maxNodes).run(d);
                        assertEquals(expected.total(), actual.total(), what);
                        assertEquals(expected.self(), actual.self(), what);
                        assertEquals(expected.samples(), actual.samples(), what);
                        FlameGraphQueryTest.assertSameGraph(expected.callers(), actual.callers(), what + ", callers");
                        FlameGraphQueryTest.assertSameGraph(expected.callees(), actual.callees(), what + ", callees");
                        compared++;
                    }
                }
            }
        }
        assertTrue(compared > 1000, "sandwiches compared: " + compared);
    }

    @Test
    void anUnknownMethodIsNotFound() {
        ProfileData d = new HandMade().sample(Kind.CPU, 1, "main", 1, "m.Main.run").data();
        assertThrows(UnknownMethodException.class, () -> sandwich(d, "m.Nope.nope"));
    }

    @Test
    void aMethodWithoutSamplesInTheRangeHasEmptyTrees() {
        ProfileData d = new HandMade()
                .sample(Kind.CPU, 1, "main", 1, "m.Main.run;m.A.a")
                .sample(Kind.CPU, 900, "main", 1, "m.Main.run;m.B.b")
                .data();
        Sandwich s = new SandwichQuery(Selection.millis(Kind.CPU, 500L, null, null, false), "m.A.a", FrameNaming.DEFAULT,
                100).run(d);
        assertEquals(0, s.total());
        assertEquals(1, s.callers().size());
        assertEquals(0, s.callees().total());
    }
}
