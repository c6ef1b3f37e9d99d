package org.jfrworkbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
