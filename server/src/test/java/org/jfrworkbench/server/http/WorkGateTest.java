package org.jfrworkbench.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

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

    /** A task that notes its name in order when it starts, then runs until released. */
    private final class Held {
        final String name;
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final CompletableFuture<String> result;

        Held(WorkGate gate, long bytes, String name, List<String> order) {
            this.name = name;
            result = submit(gate, bytes, () -> false, () -> {
                order.add(name);
                started.countDown();
                assertTrue(release.await(60, TimeUnit.SECONDS), "never released");
                return name;
            });
        }

        void awaitStart() throws InterruptedException {
            assertTrue(started.await(60, TimeUnit.SECONDS), name + " never started");
        }

        /** Releases it and checks it ran to its end. */
        void finish() throws Exception {
            release.countDown();
            assertEquals(name, result.get(60, TimeUnit.SECONDS));
        }
    }

    /** Runs work through the gate on a thread of its own, for a client gone once gone says so. */
    private CompletableFuture<String> submit(WorkGate gate, long bytes, BooleanSupplier gone, WorkGate.Work<String> work) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return gate.run("a test task", bytes, gone, work);
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, pool);
    }

    /** A held task, once it runs. */
    private Held running(WorkGate gate, long bytes, String name, List<String> order) throws InterruptedException {
        Held h = new Held(gate, bytes, name, order);
        h.awaitStart();
        return h;
    }

    /** A held task, once the gate has waiters requests waiting, it among them. */
    private Held waiting(WorkGate gate, long bytes, String name, List<String> order, int waiters)
            throws InterruptedException {
        Held h = new Held(gate, bytes, name, order);
        awaitWaiting(gate, waiters, h.result);
        return h;
    }

    /** Waits until the gate has n requests waiting (a condition, not a time), failing if one of them failed. */
    private static void awaitWaiting(WorkGate gate, int n, CompletableFuture<?> task) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (gate.waiting() < n) {
            assertFalse(task.isCompletedExceptionally(), "the task failed instead of waiting");
            assertTrue(System.nanoTime() < deadline, "the task never waited in the gate");
            Thread.sleep(1);
        }
    }

    @Test
    void largeTasksRunInArrivalOrderOneAtATimeWhenTheyDoNotFitTogether() throws Exception {
        WorkGate gate = new WorkGate(100 * MB, 4, 10, 60_000);
        List<String> order = new CopyOnWriteArrayList<>();
        Held a = running(gate, 60 * MB, "a", order);
        Held b = waiting(gate, 60 * MB, "b", order, 1);
        // c would fit beside a alone (30 + 60 <= 100) but arrived after b, which waits for memory: c waits behind it
        Held c = waiting(gate, 30 * MB, "c", order, 2);
        assertEquals(List.of("a"), order);
        a.finish();
        b.awaitStart();
        // b (60) and c (30) fit together: c starts while b still runs. Their threads note their starts in either
        // order (the gate admits b first, but each leaves the gate's lock on its own); that c did not pass b is
        // shown above, where it waited although it fit beside a
        c.awaitStart();
        assertEquals("a", order.get(0));
        assertEquals(Set.of("b", "c"), Set.copyOf(order.subList(1, order.size())));
        assertEquals(3, order.size());
        b.finish();
        c.finish();
    }

    @Test
    void smallTasksRunBesideQueuedLargeOnesAsLongAsTheyFit() throws Exception {
        WorkGate gate = new WorkGate(160 * MB, 1, 10, 60_000);
        List<String> order = new CopyOnWriteArrayList<>();
        Held large = running(gate, 100 * MB, "large", order);
        Held queued = waiting(gate, 50 * MB, "queued", order, 1);
        // 10 MB is a sixteenth of the budget: small, so it neither queues behind "queued" nor counts as running work
        assertEquals("small", gate.run("a small task", 10 * MB, () -> "small"));
        assertEquals(List.of("large"), order);
        large.finish();
        queued.finish();
    }

    @Test
    void aTaskEstimatedAboveTheBudgetRunsAloneInsteadOfNever() throws Exception {
        WorkGate gate = new WorkGate(100 * MB, 4, 10, 60_000);
        assertEquals(100 * MB, gate.reservation(5_000 * MB));
        assertEquals(MB, gate.reservation(10));
        List<String> order = new CopyOnWriteArrayList<>();
        Held other = running(gate, 20 * MB, "other", order);
        Held huge = waiting(gate, 5_000 * MB, "huge", order, 1);
        other.finish();
        huge.awaitStart();
        huge.finish();
    }

    @Test
    void pastTheQueuesLengthARequestIsTurnedAwayAtOnceWithRetryAfter() throws Exception {
        WorkGate gate = new WorkGate(100 * MB, 1, 2, 60_000);
        List<String> order = new CopyOnWriteArrayList<>();
        Held running = running(gate, 80 * MB, "running", order);
        Held w1 = waiting(gate, 80 * MB, "w1", order, 1);
        Held w2 = waiting(gate, 80 * MB, "w2", order, 2);
        OverloadedException e = assertThrows(OverloadedException.class,
                () -> gate.run("an import", 80 * MB, () -> "never"));
        assertTrue(e.getMessage().contains("2 requests wait for memory already"), e.getMessage());
        assertEquals(5, e.retryAfterSeconds());
        // a small task is refused as well: the queue bound counts every waiter
        assertThrows(OverloadedException.class, () -> gate.run("a view", MB, () -> "never"));
        running.finish();
        w1.finish();
        w2.finish();
        assertEquals(List.of("running", "w1", "w2"), order);
    }

    @Test
    void aRequestThatWaitedItsWholeBoundIsTurnedAwayAndTheNextOneStillRuns() throws Exception {
        // a wait bound of a millisecond: the test waits for the outcome, not for the time
        WorkGate gate = new WorkGate(100 * MB, 1, 10, 1);
        List<String> order = new CopyOnWriteArrayList<>();
        Held running = running(gate, 80 * MB, "running", order);
        OverloadedException e = assertThrows(OverloadedException.class,
                () -> gate.run("a flame graph", 80 * MB, () -> "never"));
        assertTrue(e.getMessage().startsWith("the server is busy: a flame graph waited"), e.getMessage());
        assertEquals(10, e.retryAfterSeconds());
        running.finish();
        // the refused request left nothing reserved or queued behind
        assertEquals("next", gate.run("a flame graph", 100 * MB, () -> "next"));
        assertEquals(List.of("running"), order);
    }

    @Test
    void aClientThatHungUpWhileWaitingGetsNothingRunAndLeavesTheQueue() throws Exception {
        WorkGate gate = new WorkGate(100 * MB, 1, 10, 60_000);
        List<String> order = new CopyOnWriteArrayList<>();
        Held running = running(gate, 80 * MB, "running", order);
        AtomicBoolean gone = new AtomicBoolean();
        AtomicBoolean ran = new AtomicBoolean();
        CompletableFuture<String> fg = submit(gate, 80 * MB, gone::get, () -> {
            ran.set(true);
            return "ran";
        });
        awaitWaiting(gate, 1, fg);
        gone.set(true);
        // the waiter looks at its client at least once a second while it waits
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> fg.get(60, TimeUnit.SECONDS));
        assertTrue(e.getCause() instanceof QueryLimits.QueryCancelledException, String.valueOf(e.getCause()));
        assertFalse(ran.get());
        running.finish();
        assertEquals("next", gate.run("an import", 100 * MB, () -> "next"));
    }
}
