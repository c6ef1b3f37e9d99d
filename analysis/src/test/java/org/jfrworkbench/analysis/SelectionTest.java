package org.jfrworkbench.analysis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.jfrworkbench.model.Kind;
import org.junit.jupiter.api.Test;

class SelectionTest {
    final HandMade h = new HandMade()
            .sample(Kind.CPU, 0, "main", 1, "m.Main.run;m.A.a")
            .sample(Kind.CPU, 999, "main", 1, "m.Main.run;m.A.a")
            .sample(Kind.CPU, 1000, "worker", 1, "m.Main.run;m.B.b")
            .sample(Kind.CPU, 1999, "worker", 1, "m.Main.run;m.B.b")
            .sample(Kind.CPU, 2000, "main", 1, "m.Main.run;m.C.c")
            .sample(Kind.ALLOC, 10, "main", 4096, "m.Main.run;m.A.a", "byte[]")
            .sample(Kind.ALLOC, 20, "main", 1024, "m.Main.run;m.A.a", "byte[]");
    final ProfileData data = h.data();

    long samples(Selection s) {
        return s.weigh(data, data.tree()).samples();
    }

    @Test
    void aRangeIncludesItsStartAndExcludesItsEnd() throws Exception {
        assertEquals(2, samples(Selection.millis(Kind.CPU, 0L, 1000L, null, false)));
        assertEquals(2, samples(Selection.millis(Kind.CPU, 1000L, 2000L, null, false)));
        assertEquals(1, samples(Selection.millis(Kind.CPU, 2000L, null, null, false)));
        assertEquals(5, samples(Selection.millis(Kind.CPU, null, null, null, false)));
        assertEquals(0, samples(Selection.millis(Kind.CPU, 1000L, 1000L, null, false)), "an empty range");
        assertEquals(h.collapsed(Kind.CPU, 1000, 2000, false), HandMade.collapse(data,
                Selection.millis(Kind.CPU, 1000L, 2000L, null, false)), "collapse counts the same samples");
    }

    @Test
    void fromAfterToIsABadQuery() {
        BadQueryException e = assertThrows(BadQueryException.class,
                () -> Selection.millis(Kind.CPU, 50L, 10L, null, false));
        assertEquals("from (50) is after to (10)", e.getMessage());
    }

    @Test
    void threadsNarrowTheSamples() throws Exception {
        BitSet worker = new BitSet();
        worker.set(h.thread("worker"));
        TreeWeights w = Selection.millis(Kind.CPU, null, null, worker, false).weigh(data, data.tree());
        assertEquals(2, w.samples());
        assertEquals(Map.of("m.Main.run;m.B.b", 2L), HandMade.collapse(data, Selection.millis(Kind.CPU, null, null, worker, false)));
    }

    @Test
    void weightIsTheKindsUnitOrOneEachSample() {
        assertEquals(5120, Selection.of(Kind.ALLOC).weigh(data, data.tree()).totalWeight());
        assertEquals("bytes", Selection.of(Kind.ALLOC).unit());
        Selection counted = new Selection(Kind.ALLOC, Long.MIN_VALUE, Long.MAX_VALUE, null, true);
        assertEquals(2, counted.weigh(data, data.tree()).totalWeight());
        assertEquals("samples", counted.unit());
    }

    @Test
    void aKindTheRecordingLacksIsABadQueryNamingTheKindsItHas() {
        BadQueryException e = assertThrows(BadQueryException.class, () -> samples(Selection.of(Kind.LOCK)));
        assertEquals("recording hand-made has no 'lock' samples (it has [cpu, alloc])", e.getMessage());
    }

    @Test
    void aLongPassOverTheSamplesInHalvesAtOnceWeighsAsInOne() {
        HandMade many = new HandMade();
        Random r = new Random(3);
        for (int i = 0; i < Selection.HALVES_FROM + 1000; i++) {
            String stack = "m.Main.run;m.A.a" + r.nextInt(20) + ";m.B.b" + r.nextInt(20);
            many.sample(Kind.CPU, i / 100, r.nextBoolean() ? "main" : "worker", 1, stack);
            many.sample(Kind.ALLOC, i / 100, "main", 1 + r.nextInt(4096), stack, r.nextBoolean() ? "byte[]" : "m.Item");
        }
        ProfileData d = many.data();
        BitSet main = new BitSet();
        main.set(many.thread("main"));
        for (Selection s : new Selection[] {Selection.millis(Kind.CPU, 100L, 2500L, main, false),
                Selection.millis(Kind.CPU, null, null, null, false), Selection.millis(Kind.ALLOC, 200L, 2000L, null, false)}) {
            TreeWeights halves = s.weigh(d, d.tree(), true, Parallel.ALWAYS);
            TreeWeights inOne = s.weigh(d, d.tree(), true, Parallel.NEVER);
            assertTrue(inOne.samples() > 0);
            assertEquals(inOne.samples(), halves.samples());
            assertEquals(inOne.totalWeight(), halves.totalWeight());
            for (int i = 0; i < d.tree().size(); i++) {
                assertEquals(inOne.selfSamples(i), halves.selfSamples(i), "node " + i);
                assertEquals(inOne.self(i), halves.self(i), "node " + i);
                assertEquals(inOne.total(i), halves.total(i), "node " + i);
            }
        }
    }

    @Test
    void aFewThreadsWeighFromTheirOwnSamplesAsEverySampleTestedWould() {
        HandMade many = new HandMade();
        Random r = new Random(5);
        for (int i = 0; i < 20_000; i++) {
            String stack = "m.Main.run;m.A.a" + r.nextInt(30) + ";m.B.b" + r.nextInt(30);
            // nearly in time order, as recorded: blocks that straddle a range's ends as well as blocks in and out
            long millis = i / 10 + r.nextInt(40);
            many.sample(Kind.CPU, millis, "t" + r.nextInt(12), 1, stack);
            many.sample(Kind.ALLOC, millis, "t" + r.nextInt(12), 1 + r.nextInt(4096), stack, r.nextBoolean() ? "byte[]" : "m.Item");
        }
        ProfileData d = many.data();
        CallTree tree = d.tree();
        for (int round = 0; round < 40; round++) {
            BitSet threads = new BitSet();
            for (int k = 0, n = 1 + r.nextInt(3); k < n; k++) {
                threads.set(many.thread("t" + r.nextInt(12)));
            }
            Kind kind = round % 2 == 0 ? Kind.CPU : Kind.ALLOC;
            long from = r.nextInt(2000);
            Selection s = Selection.millis(kind, round % 5 == 0 ? null : from, round % 5 == 0 ? null : from + r.nextInt(1000), threads, false);
            assertTrue(d.blocks(kind).byThread(d.samples(kind)).count(threads) <= d.samples(kind).size() / Selection.BY_THREAD_SHARE,
                    "the threads' own samples are passed over");
            // every sample tested, as a loop outside the call tree does
            int[] samples = new int[tree.size()];
            long[] weights = new long[tree.size()];
            var t = d.samples(kind);
            var accepts = s.on(d);
            for (int i = 0; i < t.size(); i++) {
                if (accepts.test(i)) {
                    int slot = StackClasses.slot(t.stack(i), tree.stackSlots());
                    if (StackClasses.hasClassFrames(kind)) {
                        slot = tree.allocationSlot(slot, t.objectClass(i));
                    }
                    samples[tree.slotNode(slot)]++;
                    weights[tree.slotNode(slot)] += t.weight(i);
                }
            }
            TreeWeights w = s.weigh(d, tree);
            assertTrue(w.samples() > 0 || round % 5 != 0);
            for (int i = 0; i < tree.size(); i++) {
                assertEquals(samples[i], w.selfSamples(i), "round " + round + ", node " + i);
                assertEquals(weights[i], w.self(i), "round " + round + ", node " + i);
            }
        }
    }

    @Test
    void aThreadsSamplesAreListedInTheTablesOrder() {
        HandMade few = new HandMade();
        String[] threads = {"a", "b", "a", "c", "a", "b"};
        for (int i = 0; i < threads.length; i++) {
            few.sample(Kind.CPU, i, threads[i], 1, "m.Main.run");
        }
        var table = few.data().samples(Kind.CPU);
        ThreadSamples by = ThreadSamples.of(table);
        int a = few.thread("a");
        int b = few.thread("b");
        assertArrayEquals(new int[] {0, 2, 4}, java.util.stream.IntStream.range(by.from(a), by.to(a)).map(by::sample).toArray());
        assertArrayEquals(new int[] {1, 5}, java.util.stream.IntStream.range(by.from(b), by.to(b)).map(by::sample).toArray());
        for (int k = 0; k < table.size(); k++) {
            assertEquals(table.stack(by.sample(k)), by.stack(k), "each entry's stack beside it");
        }
        assertEquals(by.from(a) + 1, by.firstAtOrAfter(by.from(a), by.to(a), 1));
        assertEquals(by.to(a), by.firstAtOrAfter(by.from(a), by.to(a), 5));
        BitSet ab = new BitSet();
        ab.set(a);
        ab.set(b);
        assertEquals(5, by.count(ab));
    }

    @Test
    void aKindsSamplesAreListedPerThreadOnceWhetherTheBackgroundOrAThreadQueryComesFirst() throws Exception {
        BitSet worker = new BitSet();
        worker.set(h.thread("worker"));
        Selection workerOnly = Selection.millis(Kind.CPU, null, null, worker, false);

        ProfileData prepared = h.data();
        prepared.prepareThreadLists();
        awaitThreadLists(prepared);
        ThreadSamples made = prepared.blocks(Kind.CPU).byThread(prepared.samples(Kind.CPU));
        assertEquals(2, workerOnly.weigh(prepared, prepared.tree()).samples());
        assertSame(made, prepared.blocks(Kind.CPU).byThread(prepared.samples(Kind.CPU)), "the query used the lists made");

        ProfileData queried = h.data();
        assertEquals(2, workerOnly.weigh(queried, queried.tree()).samples());
        ThreadSamples byQuery = queried.blocks(Kind.CPU).byThread(queried.samples(Kind.CPU));
        queried.prepareThreadLists();
        awaitThreadLists(queried);
        assertSame(byQuery, queried.blocks(Kind.CPU).byThread(queried.samples(Kind.CPU)), "the background made none again");

        // queries asking at once, the background among them: one pass, the same lists for all
        for (int round = 0; round < 20; round++) {
            ProfileData fresh = h.data();
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                CountDownLatch go = new CountDownLatch(1);
                List<Future<ThreadSamples>> asked = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    asked.add(pool.submit(() -> {
                        go.await();
                        return fresh.blocks(Kind.CPU).byThread(fresh.samples(Kind.CPU));
                    }));
                }
                go.countDown();
                fresh.prepareThreadLists();
                for (Future<ThreadSamples> f : asked) {
                    assertSame(asked.get(0).get(), f.get());
                }
                awaitThreadLists(fresh);
                assertSame(asked.get(0).get(), fresh.blocks(Kind.CPU).byThread(fresh.samples(Kind.CPU)));
            } finally {
                pool.shutdown();
            }
        }
    }

    private static void awaitThreadLists(ProfileData data) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!data.threadListsPrepared()) {
            assertTrue(System.nanoTime() < deadline, "the samples were never listed per thread");
            Thread.sleep(5); // between polls of the condition
        }
    }
}
