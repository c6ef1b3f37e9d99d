package org.jfrworkbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import org.jfrworkbench.model.Kind;
import org.junit.jupiter.api.Test;

class CallTreeTest {
    static List<String> paths(CallTree t) {
        List<String> out = new ArrayList<>();
        String[] path = new String[t.size()];
        for (int i = 1; i < t.size(); i++) {
            String name = t.names().name(t.name(i));
            path[i] = t.parent(i) == 0 ? name : path[t.parent(i)] + ";" + name;
            out.add(path[i]);
        }
        return out;
    }

    @Test
    void distinctStacksBecomeOneTreeInPreOrderWithChildrenByName() {
        ProfileData d = new HandMade()
                .sample(Kind.CPU, 1, "main", 1, "m.Main.run;m.B.b;m.C.c")
                .sample(Kind.CPU, 2, "main", 1, "m.Main.run;m.A.a")
                .sample(Kind.CPU, 3, "main", 1, "m.Main.run;m.B.b")
                .sample(Kind.WALL, 4, "main", 1, "m.Main.run;m.B.b;m.A.a")
                .data();
        CallTree t = d.tree();
        // "[no stack]" is always there, for samples without a stack trace; queries leave out nodes without samples
        assertEquals(List.of("[no stack]", "m.Main.run", "m.Main.run;m.A.a", "m.Main.run;m.B.b", "m.Main.run;m.B.b;m.A.a",
                "m.Main.run;m.B.b;m.C.c"), paths(t), "one node per distinct path of every kind, children by name");
        for (int i = 1; i < t.size(); i++) {
            assertTrue(t.parent(i) < i && t.end(i) <= t.end(t.parent(i)), "node " + i + " inside its parent's subtree");
        }
        assertEquals(t.size(), t.end(0));
    }

    @Test
    void eachStackKnowsItsNodeAndSamplesWithoutAStackShareOne() {
        HandMade h = new HandMade()
                .sample(Kind.CPU, 1, "main", 1, "m.Main.run;m.B.b")
                .sample(Kind.CPU, 2, "main", 1, "")
                .sample(Kind.LOCK, 3, "main", 5, "");
        CallTree t = h.data().tree();
        assertEquals(List.of("[no stack]", "m.Main.run", "m.Main.run;m.B.b"), paths(t));
        assertEquals("m.B.b", t.names().name(t.name(t.stackNode(0))));
        assertEquals("[no stack]", t.names().name(t.name(t.stackNode(t.stackSlots() - 1))));
    }

    @Test
    void manyStacksWithWideCallersGiveOneNodePerDistinctPath() {
        // thousands of children under some callers: all but the first of each caller's found in the builder's table
        Random random = new Random(42);
        HandMade h = new HandMade();
        Set<String> prefixes = new HashSet<>();
        Set<String> stacks = new HashSet<>();
        for (int i = 0; i < 4000; i++) {
            StringBuilder stack = new StringBuilder("m.Main.run");
            int depth = 1 + random.nextInt(8);
            for (int d = 0; d < depth; d++) {
                // the first levels wide, the deeper ones from few names, so paths both branch and share
                int names = d < 2 ? 3000 : 4;
                stack.append(";m.C").append(random.nextInt(names)).append(".f");
            }
            String s = stack.toString();
            stacks.add(s);
            for (int at = s.indexOf(';'); at >= 0; at = s.indexOf(';', at + 1)) {
                prefixes.add(s.substring(0, at));
            }
            prefixes.add(s);
            h.sample(Kind.CPU, i, "main", 1, s);
        }
        CallTree t = h.data().tree();
        List<String> paths = paths(t);
        prefixes.add("[no stack]");
        assertEquals(prefixes.size(), paths.size(), "no path twice");
        assertEquals(prefixes, new HashSet<>(paths));
        Set<String> leaves = new HashSet<>();
        for (int slot = 0; slot < t.stackSlots() - 1; slot++) {
            leaves.add(paths.get(t.stackNode(slot) - 1));
        }
        assertEquals(stacks, leaves, "each stack's node is its own path");
    }

    @Test
    void aNameAlreadyOnThePathAboveIsMarkedRecursive() {
        CallTree t = new HandMade()
                .sample(Kind.CPU, 1, "main", 1, "m.Main.run;m.R.r;m.X.x;m.R.r;m.R.r")
                .data().tree();
        List<String> paths = paths(t);
        for (int i = 1; i < t.size(); i++) {
            String path = paths.get(i - 1);
            boolean deeperR = path.indexOf("m.R.r") != path.lastIndexOf("m.R.r") && path.endsWith("m.R.r");
            assertEquals(deeperR, t.recursive(i), path);
        }
        assertFalse(t.recursive(1));
    }

    @Test
    void allocationSamplesEndInTheirAllocatedClass() {
        CallTree t = new HandMade()
                .sample(Kind.ALLOC, 1, "main", 100, "m.Main.run;m.B.b", "byte[]")
                .sample(Kind.ALLOC, 2, "main", 100, "m.Main.run;m.B.b", "java.lang.String")
                .sample(Kind.CPU, 3, "main", 1, "m.Main.run;m.B.b")
                .data().tree();
        assertEquals(List.of("[no stack]", "m.Main.run", "m.Main.run;m.B.b", "m.Main.run;m.B.b;byte[]",
                "m.Main.run;m.B.b;java.lang.String"), paths(t));
        assertEquals("class", t.typeName(4));
        assertEquals("jit", t.typeName(3));
    }
}
