package org.jfrworkbench.analysis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import org.jfrworkbench.model.FrameNaming;
import org.jfrworkbench.model.Kind;
import org.junit.jupiter.api.Test;

class DiffQueryTest {
    /** A service: a handler calling a chain down to parse, plus three other handlers; extra parse work in the target. */
    static HandMade service(long seed, int extraParse, long millis) {
        HandMade h = new HandMade(millis);
        Random r = new Random(seed);
        String[] handlers = {"m.Web.get;m.Cart.load", "m.Web.get;m.Price.compute", "m.Web.post;m.Order.place"};
        for (int i = 0; i < 3000; i++) {
            String stack = "m.Main.run;" + handlers[r.nextInt(handlers.length)] + ";m.Util.w" + r.nextInt(4);
            h.sample(Kind.CPU, i * millis / 3000, "main", 1, stack);
        }
        for (int i = 0; i < 300 + extraParse; i++) {
            h.sample(Kind.CPU, i * millis / (300 + extraParse), "main", 1, "m.Main.run;m.Api.call;m.Codec.decode;m.Json.parse");
        }
        return h;
    }

    static DiffResult diff(ProfileData a, ProfileData b, DiffMode mode) {
        return new DiffQuery(Selection.of(Kind.CPU), Selection.of(Kind.CPU), FrameNaming.DEFAULT, mode, 1 << 20).run(a, b);
    }

    @Test
    void aRecordingDiffedWithItselfListsNoChangeAndColoursNothing() {
        ProfileData d = service(1, 0, 10_000).data();
        for (DiffMode mode : DiffMode.values()) {
            DiffResult r = diff(d, d, mode);
            assertEquals(List.of(), r.changes(), mode.id());
            for (int s : r.nodes().significance()) {
                assertEquals(0, s);
            }
            assertEquals(r.nodes().base()[0], r.nodes().target()[0]);
            assertEquals(List.of(), r.warnings());
        }
    }

    @Test
    void theGrownChainIsOneSignificantRowRankedFirstWithItsTestNamed() {
        DiffResult r = diff(service(1, 0, 10_000).data(), service(2, 900, 10_000).data(), DiffMode.RELATIVE);
        DiffResult.Change top = r.changes().get(0);
        assertEquals("m.Json.parse", top.method(), r.changes().toString());
        assertTrue(top.significant() && top.selfSignificant() && top.delta() > 0, top.toString());
        assertEquals(List.of("m.Api.call", "m.Codec.decode"), top.sameSamples(), "the chain above it is not repeated");
        for (DiffResult.Change c : r.changes()) {
            assertFalse(c.method().equals("m.Api.call") || c.method().equals("m.Codec.decode"), c.method());
        }
        assertTrue(r.test().name().contains("two-proportion z-test"), r.test().name());
        assertEquals("Bonferroni", r.test().correction());
        assertTrue(r.test().tests() >= 2 * r.changes().size());
        // per second, the other methods did the same work: sampling noise, not a change
        DiffResult absolute = diff(service(1, 0, 10_000).data(), service(2, 900, 10_000).data(), DiffMode.ABSOLUTE);
        assertEquals("m.Json.parse", absolute.changes().get(0).method());
        for (DiffResult.Change c : absolute.changes()) {
            if (c.method().startsWith("m.Util") || c.method().startsWith("m.Web")) {
                assertFalse(c.significant() || c.selfSignificant(), c.toString());
            }
        }
        int parse = -1;
        for (int i = 0; i < r.names().size(); i++) {
            if (r.names().get(i).equals("m.Json.parse")) {
                parse = i;
            }
        }
        for (int i = 0; i < r.nodes().name().length; i++) {
            if (r.nodes().name()[i] == parse) {
                assertEquals(1, r.nodes().significance()[i], "the grown node is coloured");
            }
        }
    }

    @Test
    void absoluteModeComparesWeightPerSecond() {
        // the same work in half the time: shares are equal, the rate per second doubles everywhere
        DiffResult relative = diff(service(1, 0, 10_000).data(), service(1, 0, 5_000).data(), DiffMode.RELATIVE);
        assertTrue(relative.changes().isEmpty(), relative.changes().toString());
        DiffResult absolute = diff(service(1, 0, 10_000).data(), service(1, 0, 5_000).data(), DiffMode.ABSOLUTE);
        DiffResult.Change main = absolute.changes().stream().filter(c -> c.method().equals("m.Main.run")).findFirst().orElseThrow();
        assertTrue(main.significant());
        assertEquals(2 * main.basePerSecond(), main.targetPerSecond(), 1e-6 * main.targetPerSecond());
        assertTrue(absolute.test().name().contains("Poisson"));
        assertEquals("absolute", absolute.mode());
    }

    @Test
    void sidesThatDoNotCompareAreWarnedAbout() {
        ProfileData a = service(1, 0, 10_000).sample(Kind.WALL, 1, "main", 1, "m.Main.run").data();
        DiffResult kinds = new DiffQuery(Selection.of(Kind.CPU), Selection.of(Kind.WALL), FrameNaming.DEFAULT,
                DiffMode.RELATIVE, 1000).run(a, a);
        assertTrue(kinds.warnings().stream().anyMatch(w -> w.startsWith("different kinds")), kinds.warnings().toString());
        assertTrue(kinds.warnings().stream().anyMatch(w -> w.contains("too few")), kinds.warnings().toString());
        DiffResult ranges = new DiffQuery(Selection.millis(Kind.CPU, 0L, 1000L, null, false), Selection.of(Kind.CPU),
                FrameNaming.DEFAULT, DiffMode.RELATIVE, 1000).run(a, a);
        assertTrue(ranges.warnings().stream().anyMatch(w -> w.startsWith("different durations")), ranges.warnings().toString());
    }

    @Test
    void perSideFiltersSelectEachSide() {
        ProfileData d = service(1, 0, 10_000).data();
        DiffResult r = new DiffQuery(Selection.millis(Kind.CPU, 0L, 5000L, null, false),
                Selection.millis(Kind.CPU, 5000L, 10_000L, null, false), FrameNaming.DEFAULT, DiffMode.RELATIVE, 1000).run(d, d);
        assertEquals(1650, r.baseSamples());
        assertEquals(1650, r.targetSamples());
        assertEquals(5.0, r.baseSeconds(), 1e-9);
    }

    @Test
    void theCollapsedDiffWritesBothSidesPerStack() throws Exception {
        HandMade a = new HandMade().sample(Kind.CPU, 1, "main", 2, "m.Main.run;m.A.a").sample(Kind.CPU, 2, "main", 1, "m.Main.run");
        HandMade b = new HandMade().sample(Kind.CPU, 1, "main", 3, "m.Main.run;m.B.b").sample(Kind.CPU, 2, "main", 1, "m.Main.run;m.A.a");
        StringWriter w = new StringWriter();
        DiffCollapse.write(diff(a.data(), b.data(), DiffMode.RELATIVE), w);
        assertEquals("m.Main.run 1 0\nm.Main.run;m.A.a 2 1\nm.Main.run;m.B.b 0 3\n", w.toString());
    }

    @Test
    void aBoundedMergedTreeKeepsBothSidesTotalsInOther() {
        HandMade a = new HandMade();
        HandMade b = new HandMade();
        Random r = new Random(9);
        for (int i = 0; i < 500; i++) {
            a.sample(Kind.CPU, i, "main", 1, "m.Main.run;m.A.a" + r.nextInt(40) + ";m.B.b" + r.nextInt(40));
            b.sample(Kind.CPU, i, "main", 1, "m.Main.run;m.A.a" + r.nextInt(40) + ";m.C.c" + r.nextInt(40));
        }
        DiffResult r20 = new DiffQuery(Selection.of(Kind.CPU), Selection.of(Kind.CPU), FrameNaming.DEFAULT, DiffMode.RELATIVE,
                40).run(a.data(), b.data());
        DiffResult.Nodes n = r20.nodes();
        assertTrue(n.name().length <= 40, "size " + n.name().length);
        assertTrue(r20.names().contains("[other]"));
        long[] baseChildren = new long[n.name().length];
        long[] targetChildren = new long[n.name().length];
        for (int i = n.name().length - 1; i > 0; i--) {
            baseChildren[n.parent()[i]] += n.base()[i];
            targetChildren[n.parent()[i]] += n.target()[i];
        }
        for (int i = 0; i < n.name().length; i++) {
            assertEquals(n.base()[i], n.baseSelf()[i] + baseChildren[i], "base of node " + i);
            assertEquals(n.target()[i], n.targetSelf()[i] + targetChildren[i], "target of node " + i);
        }
        assertEquals(500, n.base()[0]);
        assertEquals(500, n.target()[0]);
    }

    @Test
    void aDiffAnswersAlikeWithItsPartsOnHelpersOrInTurn() {
        HandMade a = new HandMade();
        HandMade b = new HandMade();
        Random r = new Random(5);
        for (int i = 0; i < 4000; i++) {
            a.sample(Kind.CPU, i, "main", 1, "m.Main.run;m.A.a" + r.nextInt(30) + ";m.B.b" + r.nextInt(60) + ";m.D.d" + r.nextInt(9));
            b.sample(Kind.CPU, i, "main", 1, "m.Main.run;m.A.a" + r.nextInt(30) + ";m.C.c" + r.nextInt(60) + ";m.D.d" + r.nextInt(9));
        }
        ProfileData da = a.data();
        ProfileData db = b.data();
        DiffQuery q = new DiffQuery(Selection.millis(Kind.CPU, 500L, 3500L, null, false),
                Selection.millis(Kind.CPU, 1000L, 4000L, null, false), FrameNaming.DEFAULT, DiffMode.RELATIVE, 300);
        DiffResult offered = q.run(da, db, Parallel.ALWAYS);
        DiffResult inTurn = q.run(da, db, Parallel.NEVER);
        assertTrue(offered.names().contains("[other]"), "the bound cuts the merged tree");
        assertSameDiff(inTurn, offered);
    }

    @Test
    void oneSidedAndLopsidedDiffsAnswerAlikeWithTheirSidesAtOnceOrInTurn() {
        // the target a tenth as long as the base, so that a range past the target's end selects the base alone,
        // and one near its end the target far lighter; the short run as the base too
        HandMade a = new HandMade(100_000);
        HandMade b = new HandMade(10_000);
        Random r = new Random(7);
        int many = 50_000;
        for (int i = 0; i < many; i++) {
            String stack = "m.Main.run;m.A.a" + r.nextInt(40) + ";m.B.b" + r.nextInt(50) + ";m.D.d" + r.nextInt(9);
            a.sample(Kind.CPU, i * 100_000L / many, "main", 1, stack);
            if (i % 10 == 0) {
                b.sample(Kind.CPU, i * 10_000L / many, "main", 1, stack.replace("m.B.b", "m.C.c"));
            }
        }
        ProfileData da = a.data();
        ProfileData db = b.data();
        long[][] ranges = {{20_000, 90_000}, {8_000, 90_000}, {0, 10_000}, {5_000, 6_000}};
        for (long[] range : ranges) {
            for (boolean swapped : new boolean[] {false, true}) {
                ProfileData base = swapped ? db : da;
                ProfileData target = swapped ? da : db;
                Selection s = Selection.millis(Kind.CPU, range[0], range[1], null, false);
                DiffQuery q = new DiffQuery(s, s, FrameNaming.DEFAULT, DiffMode.RELATIVE, 2000);
                DiffResult inTurn = q.run(base, target, Parallel.NEVER);
                String where = "range " + range[0] + "-" + range[1] + (swapped ? ", the short run as the base" : "");
                // each side's root is its own selection's, whichever thread weighed it
                assertEquals(selected(base, s), inTurn.nodes().base()[0], where + ": the base's samples");
                assertEquals(selected(target, s), inTurn.nodes().target()[0], where + ": the target's samples");
                for (int run = 0; run < 5; run++) {
                    assertSameDiff(inTurn, q.run(base, target, Parallel.ALWAYS));
                }
            }
        }
    }

    /** The samples of s in data, counted one by one. */
    private static long selected(ProfileData data, Selection s) {
        var on = s.on(data);
        long n = 0;
        for (int i = 0, size = data.samples(s.kind()).size(); i < size; i++) {
            n += on.test(i) ? 1 : 0;
        }
        return n;
    }

    @Test
    void aMergedTreeWalkedInPartsByTwoThreadsIsTheOneWalksTree() {
        // wide and deep: hundreds of light subtrees under a few heavy paths, so that the split walk has items for the
        // helper to take, and generated names that group siblings, walked sorted rather than in tree order
        HandMade a = new HandMade();
        HandMade b = new HandMade();
        Random r = new Random(11);
        for (int i = 0; i < 6_000; i++) {
            for (HandMade side : new HandMade[] {a, b}) {
                StringBuilder stack = new StringBuilder("m.Main.run;m.Loop.step" + r.nextInt(3));
                for (int f = 0, depth = 1 + r.nextInt(8); f < depth; f++) {
                    stack.append(f % 4 == 3 ? ";m.App$$Lambda$" + r.nextInt(90) + ".0x0000000800c22a28.run"
                            : ";m.C" + r.nextInt(f < 2 ? 40 : 6) + ".m" + r.nextInt(3));
                }
                side.sample(Kind.CPU, i, "main", side == a ? 1 : 1 + r.nextInt(3), stack.toString());
            }
        }
        ProfileData da = a.data();
        ProfileData db = b.data();
        for (int maxNodes : new int[] {1 << 20, 2000}) {
            DiffQuery q = new DiffQuery(Selection.millis(Kind.CPU, 0L, 5_000L, null, false),
                    Selection.millis(Kind.CPU, 500L, 6_000L, null, false), FrameNaming.DEFAULT, DiffMode.RELATIVE,
                    maxNodes);
            DiffResult inTurn = q.run(da, db, Parallel.NEVER);
            assertTrue(inTurn.nodes().name().length > 500, "a tree of many subtrees: " + inTurn.nodes().name().length);
            // which thread walks which part differs from run to run; the answer must not
            for (int run = 0; run < 20; run++) {
                assertSameDiff(inTurn, q.run(da, db, Parallel.ALWAYS));
            }
        }
    }

    @Test
    void mergedTreesMatchEachSidesSamplesOverRandomRecordingsRangesAndBounds() {
        String[] frames = {"m.A.a", "m.B.b", "m.C.c", "m.D.d", "m.App$$Lambda$75.0x0000000800c22a28.run",
                "m.App$$Lambda$76.0x0000000800c22b00.run", "m.App$$Lambda$81.0x0000000800c9f000.run"};
        Random r = new Random(23);
        for (int round = 0; round < 30; round++) {
            HandMade[] sides = {new HandMade(), new HandMade()};
            List<Map<String, Long>> byPrefix = List.of(new TreeMap<>(), new TreeMap<>());
            long[] from = new long[2];
            long[] to = new long[2];
            for (int side = 0; side < 2; side++) {
                from[side] = r.nextInt(4_000);
                to[side] = from[side] + 1 + r.nextInt(6_000);
                for (int i = 0, n = 100 + r.nextInt(3000); i < n; i++) {
                    String[] stack = new String[1 + r.nextInt(8)];
                    stack[0] = "m.Main.run";
                    for (int f = 1; f < stack.length; f++) {
                        stack[f] = r.nextInt(5) == 0 ? stack[r.nextInt(f)] : frames[r.nextInt(frames.length)];
                    }
                    long millis = r.nextInt(10_000);
                    long weight = round % 3 == 2 ? 1 + r.nextInt(100) : 1;
                    sides[side].sample(Kind.CPU, millis, "main", weight, String.join(";", stack));
                    if (millis >= from[side] && millis < to[side]) {
                        // every prefix of the stack, by stable names, weighs the sample
                        StringBuilder path = new StringBuilder();
                        for (String frame : stack) {
                            path.append(path.isEmpty() ? "" : ";").append(org.jfrworkbench.model.StableNames.of(frame));
                            byPrefix.get(side).merge(path.toString(), weight, Long::sum);
                        }
                    }
                }
            }
            int maxNodes = round % 2 == 0 ? 1 << 20 : 8 + r.nextInt(60);
            DiffQuery q = new DiffQuery(Selection.millis(Kind.CPU, from[0], to[0], null, false),
                    Selection.millis(Kind.CPU, from[1], to[1], null, false), FrameNaming.DEFAULT, DiffMode.RELATIVE, maxNodes);
            DiffResult d = q.run(sides[0].data(), sides[1].data(), Parallel.NEVER);
            assertSameDiff(d, q.run(sides[0].data(), sides[1].data(), Parallel.ALWAYS));
            DiffResult.Nodes n = d.nodes();
            String where = "round " + round + ", maxNodes " + maxNodes;
            String[] path = new String[n.name().length];
            long[] baseChildren = new long[path.length];
            long[] targetChildren = new long[path.length];
            int others = 0;
            for (int i = 1; i < path.length; i++) {
                int p = n.parent()[i];
                String name = d.names().get(n.name()[i]);
                baseChildren[p] += n.base()[i];
                targetChildren[p] += n.target()[i];
                if (name.equals(BoundedTree.OTHER)) {
                    others++;
                    continue;
                }
                path[i] = (p == 0 ? "" : path[p] + ";") + name;
                assertEquals(byPrefix.get(0).getOrDefault(path[i], 0L), n.base()[i], where + ": base of " + path[i]);
                assertEquals(byPrefix.get(1).getOrDefault(path[i], 0L), n.target()[i], where + ": target of " + path[i]);
            }
            for (int i = 0; i < path.length; i++) {
                assertEquals(n.base()[i], n.baseSelf()[i] + baseChildren[i], where + ": base of node " + i);
                assertEquals(n.target()[i], n.targetSelf()[i] + targetChildren[i], where + ": target of node " + i);
            }
            if (maxNodes == 1 << 20) {
                assertEquals(0, others, where);
                long paths = java.util.stream.Stream.concat(byPrefix.get(0).keySet().stream(), byPrefix.get(1).keySet().stream())
                        .distinct().count();
                assertEquals(paths + 1, path.length, where + ": a node per path of either side, and the root");
            }
        }
    }

    /** Every column, name and row of two diffs alike. */
    static void assertSameDiff(DiffResult expected, DiffResult actual) {
        assertEquals(expected.names(), actual.names());
        assertEquals(expected.changes(), actual.changes());
        assertEquals(expected.warnings(), actual.warnings());
        assertEquals(expected.test(), actual.test());
        DiffResult.Nodes x = expected.nodes();
        DiffResult.Nodes y = actual.nodes();
        assertArrayEquals(x.name(), y.name());
        assertArrayEquals(x.parent(), y.parent());
        assertArrayEquals(x.type(), y.type());
        assertArrayEquals(x.count(), y.count());
        assertArrayEquals(x.base(), y.base());
        assertArrayEquals(x.target(), y.target());
        assertArrayEquals(x.baseSelf(), y.baseSelf());
        assertArrayEquals(x.targetSelf(), y.targetSelf());
        assertArrayEquals(x.significance(), y.significance());
    }

    @Test
    void generatedNamesOfTwoRunsAreOneFrameEvenWhenOneRunHasTwoOfThem() {
        HandMade a = new HandMade()
                .sample(Kind.CPU, 1, "main", 10, "m.Main.run;m.App$$Lambda$75.0x0000000800c22a28.run;m.Work.w")
                .sample(Kind.CPU, 2, "main", 10, "m.Main.run;m.App$$Lambda$76.0x0000000800c22b00.run;m.Work.w");
        HandMade b = new HandMade()
                .sample(Kind.CPU, 1, "main", 20, "m.Main.run;m.App$$Lambda$81.0x0000000800c9f000.run;m.Work.w");
        DiffResult r = diff(a.data(), b.data(), DiffMode.RELATIVE);
        assertEquals(List.of("all", "m.Main.run", "m.App$$Lambda.run", "m.Work.w"), r.names());
        assertEquals(4, r.nodes().name().length, "one path: the two lambdas of the base are one frame");
        assertEquals(20, r.nodes().base()[2]);
        assertEquals(20, r.nodes().target()[2]);
        assertEquals(List.of(), r.changes());
        MethodStats stats = MethodStats.compute(a.data(), Selection.of(Kind.CPU));
        assertEquals(20, stats.total()[stats.find("m.App$$Lambda.run")]);
    }

    @Test
    void theMergedTreeHoldsBothSidesStacks() {
        HandMade a = service(1, 0, 10_000);
        HandMade b = service(3, 500, 10_000);
        DiffResult r = diff(a.data(), b.data(), DiffMode.RELATIVE);
        Map<String, Long> base = new TreeMap<>();
        Map<String, Long> target = new TreeMap<>();
        String[] path = new String[r.nodes().name().length];
        for (int i = 1; i < path.length; i++) {
            int p = r.nodes().parent()[i];
            path[i] = (p == 0 ? "" : path[p] + ";") + r.names().get(r.nodes().name()[i]);
            if (r.nodes().baseSelf()[i] != 0) {
                base.put(path[i], r.nodes().baseSelf()[i]);
            }
            if (r.nodes().targetSelf()[i] != 0) {
                target.put(path[i], r.nodes().targetSelf()[i]);
            }
        }
        assertEquals(a.collapsed(Kind.CPU, 0, 100_000, false), base);
        assertEquals(b.collapsed(Kind.CPU, 0, 100_000, false), target);
    }

    @Test
    void aDiffWhoseWalkThrowsGivesItsArraysBackToThePool() throws Exception {
        // each side 70,000 leaves of its own (columns past the pool's minimum), so the merged tree outgrows the
        // columns the walk starts with, and a bound between the two stops the walk as they grow
        HandMade a = new HandMade();
        HandMade b = new HandMade();
        for (int i = 0; i < 70_000; i++) {
            a.sample(Kind.CPU, i % 10_000, "main", 1, "m.Main.run;m.A.a" + i % 50 + ";m.B.b" + i);
            b.sample(Kind.CPU, i % 10_000, "main", 1, "m.Main.run;m.A.a" + i % 50 + ";m.B.c" + i);
        }
        ProfileData da = a.data();
        ProfileData db = b.data();
        DiffQuery q = new DiffQuery(Selection.of(Kind.CPU), Selection.of(Kind.CPU), FrameNaming.DEFAULT,
                DiffMode.RELATIVE, 1 << 20);
        for (Parallel parallel : new Parallel[] {Parallel.NEVER, Parallel.ALWAYS}) {
            int nodes = q.run(da, db, parallel).nodes().name().length; // and the pool holds its arrays after
            assertTrue(nodes > 140_000, "merged nodes: " + nodes);
            long held = QueryArrays.held();
            assertTrue(held > 0);
            for (int round = 0; round < 3; round++) {
                assertThrows(QueryLimits.ViewTooLargeException.class,
                        () -> QueryLimits.run(() -> false, 100_000, () -> q.run(da, db, parallel)));
                // a helper still walking when the caller failed gives its columns back when it is done
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (QueryArrays.held() < held && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
                assertTrue(QueryArrays.held() >= held, parallel + ", round " + round + ": the pool held " + held
                        + " bytes before the failed diff and " + QueryArrays.held() + " after");
            }
        }
    }
}
