package org.jfrworkbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

/** Two halves of a query at once: results in order, the second half's failures and the query's limits carried over. */
class ParallelTest {

    @Test
    void bothHalvesAnswerInOrderWhetherOfferedOrNot() {
        for (boolean offer : new boolean[] {true, false}) {
            Parallel.Both<String, Integer> both = Parallel.both(() -> "first", () -> 2, offer);
            assertEquals("first", both.first());
            assertEquals(2, both.second());
        }
    }

    @Test
    void theSecondHalfRunsBesideTheFirstWhenAHelperTakesIt() throws Exception {
        // the first half waits until the second has started: only a helper thread can start it meanwhile
        CountDownLatch secondStarted = new CountDownLatch(1);
        Parallel.Both<Boolean, String> both = Parallel.ALWAYS.both(() -> {
            try {
                return secondStarted.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }, () -> {
            secondStarted.countDown();
            return Thread.currentThread().getName();
        });
        assertEquals(true, both.first());
        assertEquals("query-helper", both.second());
    }

    @Test
    void neverOfferedTheHalvesRunInTurnOnTheCallersThread() {
        String caller = Thread.currentThread().getName();
        Parallel.Both<String, String> both = Parallel.NEVER.both(() -> Thread.currentThread().getName(),
                () -> Thread.currentThread().getName());
        assertEquals(caller, both.first());
        assertEquals(caller, both.second());
    }

    @Test
    void aProcessorIsSpareWhenOnlyThisJvmKeptTheMachineBusy() {
        // two processors wholly busy, all of it this JVM's own (its queries, done by now): both are free for it
        assertTrue(Parallel.spare(2, 1.0, 1.0));
        assertTrue(Parallel.spare(2, 0.1, 0.0));
        // another process used one processor, or more than half of one: the caller's thread takes the other
        assertFalse(Parallel.spare(2, 1.0, 0.5));
        assertFalse(Parallel.spare(2, 0.3, 0.0));
        // four processors: others may use up to two and a half of them, as the importer's load test allows
        assertTrue(Parallel.spare(4, 0.6, 0.0));
        assertFalse(Parallel.spare(4, 0.7, 0.05));
    }

    @Test
    void aFailureOfTheSecondHalfIsTheQuerysFailure() {
        BadQueryException e = assertThrows(BadQueryException.class,
                () -> Parallel.both(() -> 1, () -> {
                    throw new BadQueryException("no such frame");
                }, true));
        assertEquals("no such frame", e.getMessage());
    }

    @Test
    void aHelperStopsWhenTheQuerysClientHasGone() throws Exception {
        AtomicBoolean gone = new AtomicBoolean(true);
        CountDownLatch secondStarted = new CountDownLatch(1);
        AtomicReference<String> checkedOn = new AtomicReference<>();
        assertThrows(QueryLimits.QueryCancelledException.class, () -> QueryLimits.run(gone::get, Long.MAX_VALUE,
                () -> Parallel.both(() -> {
                    try {
                        return secondStarted.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                }, () -> {
                    secondStarted.countDown();
                    checkedOn.set(Thread.currentThread().getName());
                    QueryLimits.check();
                    return "answered";
                }, true)));
        assertEquals("query-helper", checkedOn.get());
    }
}
