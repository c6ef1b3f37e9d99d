package org.jfrworkbench.analysis;

import static org.jfrworkbench.analysis.HandMade.name;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
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
