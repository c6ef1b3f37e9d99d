package org.jfrworkbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.jfrworkbench.model.Kind;
import org.junit.jupiter.api.Test;

/** Several runs' samples as one flame graph and as the sides of a diff: merged by path of stable names. */
class MergedRunsTest {
    /** Two runs of one service: the same lambda under two generated names, a method only in each. */
    static ProfileData first() {
        return new HandMade()
                .sample(Kind.CPU, 0, "w", 1, "app.Main.main;app.Svc.a")
                .sample(Kind.CPU, 1, "w", 1, "app.Main.main;app.Svc.a")
                .sample(Kind.CPU, 5, "w", 1, "app.Main.main;app.Svc.a")
                .sample(Kind.CPU, 6, "w", 1, "app.Main.main;app.App$$Lambda$75.0x0000000800c22a28.run")
                .sample(Kind.CPU, 7, "w", 1, "app.Main.main;app.App$$Lambda$75.0x0000000800c22a28.run")
                .data();
    }

    static ProfileData second() {
        return new HandMade()
                .sample(Kind.CPU, 0, "w", 1, "app.Main.main;app.Svc.b")
                .sample(Kind.CPU, 1, "w", 1, "app.Main.main;app.Svc.b")
                .sample(Kind.CPU, 2, "w", 1, "app.Main.main;app.Svc.b;app.Svc.c")
                .sample(Kind.CPU, 3, "w", 1, "app.Main.main;app.Svc.b")
                .sample(Kind.CPU, 4, "w", 1, "app.Main.main;app.App$$Lambda$81.0x0000000800c9f000.run")
                .data();
    }

    /** Total weight per path of names from the root. */
    static Map<String, Long> byPath(FlameGraph g) {
        Map<String, Long> out = new HashMap<>();
        for (int i = 1; i < g.size(); i++) {
            out.put(HandMade.path(g, i), g.nodes().total()[i]);
        }
        return out;
    }

    @Test
    void runsMergeByPathOfStableNamesIntoOneGraphInPreOrder() {
        MergedFlameQuery query = new MergedFlameQuery(Selection.of(Kind.CPU), null, false, 1000);
        MergedFlameQuery.Result r = query.run(List.of(new RunSelection(first(), Selection.of(Kind.CPU)),
                new RunSelection(second(), Selection.of(Kind.CPU))));
        FlameGraph g = r.graph();
        assertEquals(10, g.total());
        Map<String, Long> paths = byPath(g);
        assertEquals(10, paths.get("app.Main.main"));
        assertEquals(3, paths.get("app.Main.main;app.App$$Lambda.run"), "one frame for both runs' lambda: " + paths);
        assertEquals(3, paths.get("app.Main.main;app.Svc.a"));
        assertEquals(4, paths.get("app.Main.main;app.Svc.b"));
        assertEquals(1, paths.get("app.Main.main;app.Svc.b;app.Svc.c"));
        assertEquals(5, paths.size());
        // pre-order, children by name: node i's subtree is i .. i + count[i] - 1, every parent before its children
        int[] parent = g.nodes().parent();
        int[] count = g.nodes().count();
        for (int i = 1; i < g.size(); i++) {
            assertTrue(parent[i] < i && i < parent[i] + count[parent[i]], "node " + i);
        }
        assertEquals(List.of("app.App$$Lambda.run", "app.Svc.a", "app.Svc.b"), List.of(HandMade.name(g, 2),
                HandMade.name(g, 3), HandMade.name(g, 4)));
        assertEquals(2, r.contributions().size());
        assertEquals(5, r.contributions().get(0).samples());
    }

    @Test
    void eachRunCountsOnlyItsPartOfTheRangeAndBoundsKeepTotals() {
        // the first run's first 2 ms, all of the second
        Selection early = new Selection(Kind.CPU, 0, 2_000_000, null, false);
        MergedFlameQuery.Result r = new MergedFlameQuery(Selection.of(Kind.CPU), SearchPattern.of("Svc", false, true), false, 3)
                .run(List.of(new RunSelection(first(), early), new RunSelection(second(), Selection.of(Kind.CPU))));
        assertEquals(7, r.graph().total());
        assertEquals(6, r.graph().search().matched(), "Svc.a twice, Svc.b four times");
        assertTrue(r.graph().size() <= 3);
        long children = 0;
        for (int i = 1; i < r.graph().size(); i++) {
            if (r.graph().nodes().parent()[i] == 1) {
                children += r.graph().nodes().total()[i];
            }
        }
        assertEquals(7, children, "what a bound leaves out is in [other]");
        FlameGraph inverted = new MergedFlameQuery(Selection.of(Kind.CPU), null, true, 1000)
                .run(List.of(new RunSelection(first(), early), new RunSelection(second(), Selection.of(Kind.CPU)))).graph();
        assertEquals(7, inverted.total());
        assertEquals(3, byPath(inverted).get("app.Svc.b"), "leaves at the root");
    }

    @Test
    void manyFramesMergeAsFewDo() {
        // more children than the lookup's first table holds: it grows, and each path is still one node
        HandMade a = new HandMade();
        HandMade b = new HandMade();
        for (int i = 0; i < 1500; i++) {
            a.sample(Kind.CPU, i % 1000, "w", 1, "app.Main.main;app.Svc.m" + i);
            b.sample(Kind.CPU, i % 1000, "w", 2, "app.Main.main;app.Svc.m" + (i + 750));
        }
        FlameGraph g = new MergedFlameQuery(Selection.of(Kind.CPU), null, false, 10_000).run(List.of(
                new RunSelection(a.data(), Selection.of(Kind.CPU)), new RunSelection(b.data(), Selection.of(Kind.CPU)))).graph();
        Map<String, Long> paths = byPath(g);
        assertEquals(1 + 2250, paths.size());
        assertEquals(4500, g.total());
        assertEquals(1, paths.get("app.Main.main;app.Svc.m0"));
        assertEquals(3, paths.get("app.Main.main;app.Svc.m800"), "in both runs");
        assertEquals(2, paths.get("app.Main.main;app.Svc.m2000"));
    }

    @Test
    void aDiffOfRunsFindsTheMethodsEachSideHasAlone() {
        DiffResult diff = new MergedDiffQuery(Selection.of(Kind.CPU), Selection.of(Kind.CPU), DiffMode.RELATIVE, 1000)
                .run(List.of(new RunSelection(first(), Selection.of(Kind.CPU))),
                        List.of(new RunSelection(second(), Selection.of(Kind.CPU)))).diff();
        assertEquals(5, diff.baseTotal());
        assertEquals(5, diff.targetTotal());
        Map<String, DiffResult.Change> rows = new HashMap<>();
        diff.changes().forEach(c -> rows.put(c.method(), c));
        assertEquals(3, rows.get("app.Svc.a").baseSamples());
        assertEquals(0, rows.get("app.Svc.a").targetSamples());
        assertEquals(4, rows.get("app.Svc.b").targetSamples());
        assertEquals(0, rows.get("app.Svc.b").baseSamples());
    }

    @Test
    void aDiffOfRunsAnswersAlikeWithItsSidesOnHelpersOrInTurn() {
        Random r = new Random(11);
        List<ProfileData> runs = new java.util.ArrayList<>();
        for (int run = 0; run < 3; run++) {
            HandMade h = new HandMade();
            for (int i = 0; i < 3000; i++) {
                h.sample(Kind.CPU, i, "w" + r.nextInt(3), 1, "app.Main.main;app.A.a" + r.nextInt(25)
                        + (run == 2 ? ";app.C.c" : ";app.B.b") + r.nextInt(50) + ";app.D.d" + r.nextInt(8));
            }
            runs.add(h.data());
        }
        // the middle run on both sides, in different ranges: its tree weighed by both halves at once
        List<RunSelection> base = List.of(new RunSelection(runs.get(0), Selection.millis(Kind.CPU, 100L, 2900L, null, false)),
                new RunSelection(runs.get(1), Selection.millis(Kind.CPU, 0L, 1500L, null, false)));
        List<RunSelection> target = List.of(new RunSelection(runs.get(1), Selection.millis(Kind.CPU, 1500L, 3000L, null, false)),
                new RunSelection(runs.get(2), Selection.of(Kind.CPU)));
        MergedDiffQuery q = new MergedDiffQuery(Selection.of(Kind.CPU), Selection.of(Kind.CPU), DiffMode.RELATIVE, 300);
        MergedDiffQuery.Result offered = q.run(base, target, Parallel.ALWAYS);
        MergedDiffQuery.Result inTurn = q.run(base, target, Parallel.NEVER);
        assertTrue(offered.diff().names().contains("[other]"), "the bound cuts the merged tree");
        assertTrue(offered.diff().changes().size() > 10, "rows: " + offered.diff().changes().size());
        DiffQueryTest.assertSameDiff(inTurn.diff(), offered.diff());
        assertEquals(inTurn.base(), offered.base());
        assertEquals(inTurn.target(), offered.target());
        assertEquals(2, offered.base().size());
    }
}
