package org.jfrworkbench.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jfrworkbench.analysis.QueryLimits;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The admission rules of {@link WorkGate}, the server's bound on heavy work held in memory at once: what runs, what
 * waits and in which order, and what is turned away with a 503's exception. Each test holds tasks open on latches and
 * waits for the gate's state to show (never for a fixed time), so it passes on a slow machine.
 */
class WorkGateTest {
    private static final long MB = 1L << 20;
    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    /** A task that reports its start, then runs until released. */
    private static final class Held {
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        WorkGate.Work<String> work(String name, List<String> order) {
            return () -> {
                order.add(name);
                started.countDown();
                assertTrue(release.await(60, TimeUnit.SECONDS), "never released");
                return name;
            };
        }
    }

    private CompletableFuture<String> submit(WorkGate gate, long bytes, WorkGate.Work<String> work) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return gate.run("a test task", bytes, work);
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, pool);
    }

    /** Waits until the gate has n requests waiting (a condition, not a time), failing if one of them failed. */
    private static void awaitWaiting(WorkGate gate, int n, CompletableFuture<?>... tasks) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (gate.waiting() < n) {
            for (CompletableFuture<?> t : tasks) {
                assertFalse(t.isCompletedExceptionally(), "a task failed instead of waiting");
            }
            assertTrue(System.nanoTime() < deadline, "the tasks never waited in the gate");
            Thread.sleep(1);
        }
    }

    @Test
    void largeTasksRunInArrivalOrderOneAtATimeWhenTheyDoNotFitTogether() throws Exception {
        WorkGate gate = new WorkGate(100 * MB, 4, 10, 60_000);
        List<String> order = new CopyOnWriteArrayList<>();
        Held a = new Held();
        Held b = new Held();
        Held c = new Held();
        CompletableFuture<String> fa = submit(gate, 60 * MB, a.work("a", order));
        assertTrue(a.started.await(60, TimeUnit.SECONDS));
        CompletableFuture<String> fb = submit(gate, 60 * MB, b.work("b", order));
        awaitWaiting(gate, 1, fb);
        // c would fit beside a alone (30 + 60 <= 100) but arrived after b, which waits for memory: c waits behind it
        CompletableFuture<String> fc = submit(gate, 30 * MB, c.work("c", order));
        awaitWaiting(gate, 2, fb, fc);
        assertEquals(List.of("a"), order);
        a.release.countDown();
        assertEquals("a", fa.get(60, TimeUnit.SECONDS));
        assertTrue(b.started.await(60, TimeUnit.SECONDS));
        // b (60) and c (30) fit together: c starts while b still runs
        assertTrue(c.started.await(60, TimeUnit.SECONDS));
        assertEquals(List.of("a", "b", "c"), order);
        b.release.countDown();
        c.release.countDown();
        assertEquals("b", fb.get(60, TimeUnit.SECONDS));
        assertEquals("c", fc.get(60, TimeUnit.SECONDS));
    }

    @Test
    void smallTasksRunBesideQueuedLargeOnesAsLongAsTheyFit() throws Exception {
        WorkGate gate = new WorkGate(160 * MB, 1, 10, 60_000);
        List<String> order = new CopyOnWriteArrayList<>();
        Held large = new Held();
        Held queued = new Held();
        CompletableFuture<String> fl = submit(gate, 100 * MB, large.work("large", order));
        assertTrue(large.started.await(60, TimeUnit.SECONDS));
        CompletableFuture<String> fq = submit(gate, 50 * MB, queued.work("queued", order));
        awaitWaiting(gate, 1, fq);
        // 10 MB is a sixteenth of the budget: small, so it neither queues behind "queued" nor counts as running work
        assertEquals("small", gate.run("a small task", 10 * MB, () -> "small"));
        assertEquals(List.of("large"), order);
        large.release.countDown();
        queued.release.countDown();
        assertEquals("large", fl.get(60, TimeUnit.SECONDS));
        assertEquals("queued", fq.get(60, TimeUnit.SECONDS));
    }

    @Test
    void aTaskEstimatedAboveTheBudgetRunsAloneInsteadOfNever() throws Exception {
        WorkGate gate = new WorkGate(100 * MB, 4, 10, 60_000);
        assertEquals(100 * MB, gate.reservation(5_000 * MB));
        assertEquals(MB, gate.reservation(10));
        List<String> order = new CopyOnWriteArrayList<>();
        Held other = new Held();
        CompletableFuture<String> fo = submit(gate, 20 * MB, other.work("other", order));
        assertTrue(other.started.await(60, TimeUnit.SECONDS));
        Held huge = new Held();
        CompletableFuture<String> fh = submit(gate, 5_000 * MB, huge.work("huge", order));
        awaitWaiting(gate, 1, fh);
        other.release.countDown();
        assertEquals("other", fo.get(60, TimeUnit.SECONDS));
        assertTrue(huge.started.await(60, TimeUnit.SECONDS));
        huge.release.countDown();
        assertEquals("huge", fh.get(60, TimeUnit.SECONDS));
    }

    @Test
    void pastTheQueuesLengthARequestIsTurnedAwayAtOnceWithRetryAfter() throws Exception {
        WorkGate gate = new WorkGate(100 * MB, 1, 2, 60_000);
        List<String> order = new CopyOnWriteArrayList<>();
        Held running = new Held();
        Held w1 = new Held();
        Held w2 = new Held();
        CompletableFuture<String> fr = submit(gate, 80 * MB, running.work("running", order));
        assertTrue(running.started.await(60, TimeUnit.SECONDS));
        CompletableFuture<String> f1 = submit(gate, 80 * MB, w1.work("w1", order));
        awaitWaiting(gate, 1, f1);
        CompletableFuture<String> f2 = submit(gate, 80 * MB, w2.work("w2", order));
        awaitWaiting(gate, 2, f1, f2);
        OverloadedException e = assertThrows(OverloadedException.class,
                () -> gate.run("an import", 80 * MB, () -> "never"));
        assertTrue(e.getMessage().contains("2 requests wait for memory already"), e.getMessage());
        assertEquals(5, e.retryAfterSeconds());
        // a small task is refused as well: the queue bound counts every waiter
        assertThrows(OverloadedException.class, () -> gate.run("a view", MB, () -> "never"));
        running.release.countDown();
        w1.release.countDown();
        w2.release.countDown();
        assertEquals("running", fr.get(60, TimeUnit.SECONDS));
        assertEquals("w1", f1.get(60, TimeUnit.SECONDS));
        assertEquals("w2", f2.get(60, TimeUnit.SECONDS));
        assertEquals(List.of("running", "w1", "w2"), order);
    }

    @Test
    void aRequestThatWaitedItsWholeBoundIsTurnedAwayAndTheNextOneStillRuns() throws Exception {
        // a wait bound of a millisecond: the test waits for the outcome, not for the time
        WorkGate gate = new WorkGate(100 * MB, 1, 10, 1);
        List<String> order = new CopyOnWriteArrayList<>();
        Held running = new Held();
        CompletableFuture<String> fr = submit(gate, 80 * MB, running.work("running", order));
        assertTrue(running.started.await(60, TimeUnit.SECONDS));
        OverloadedException e = assertThrows(OverloadedException.class,
                () -> gate.run("a flame graph", 80 * MB, () -> "never"));
        assertTrue(e.getMessage().startsWith("the server is busy: a flame graph waited"), e.getMessage());
        assertEquals(10, e.retryAfterSeconds());
        running.release.countDown();
        assertEquals("running", fr.get(60, TimeUnit.SECONDS));
        // the refused request left nothing reserved or queued behind
        assertEquals("next", gate.run("a flame graph", 100 * MB, () -> "next"));
        assertEquals(List.of("running"), order);
    }

    @Test
    void aClientThatHungUpWhileWaitingGetsNothingRunAndLeavesTheQueue() throws Exception {
        WorkGate gate = new WorkGate(100 * MB, 1, 10, 60_000);
        List<String> order = new CopyOnWriteArrayList<>();
        Held running = new Held();
        CompletableFuture<String> fr = submit(gate, 80 * MB, running.work("running", order));
        assertTrue(running.started.await(60, TimeUnit.SECONDS));
        AtomicBoolean gone = new AtomicBoolean();
        AtomicBoolean ran = new AtomicBoolean();
        CompletableFuture<String> fg = CompletableFuture.supplyAsync(() -> {
            try {
                return gate.run("a diff", 80 * MB, gone::get, () -> {
                    ran.set(true);
                    return "ran";
                });
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, pool);
        awaitWaiting(gate, 1, fg);
        gone.set(true);
        // the waiter looks at its client at least once a second while it waits
        java.util.concurrent.ExecutionException e = assertThrows(java.util.concurrent.ExecutionException.class,
                () -> fg.get(60, TimeUnit.SECONDS));
        assertTrue(e.getCause() instanceof QueryLimits.QueryCancelledException, String.valueOf(e.getCause()));
        assertFalse(ran.get());
        running.release.countDown();
        assertEquals("running", fr.get(60, TimeUnit.SECONDS));
        assertEquals("next", gate.run("an import", 100 * MB, () -> "next"));
    }
}
