package org.jfrworkbench.analysis;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;

import org.jfrworkbench.model.FrameNaming;
import org.jfrworkbench.model.Kind;
import org.junit.jupiter.api.Test;

/** What a recording has made on the {@link Background} thread, and what it no longer has made once deleted. */
class BackgroundWorkTest {

    private static ProfileData recording() {
        HandMade h = new HandMade();
        for (int i = 0; i < 200; i++) {
            h.sample(Kind.CPU, i, "t" + i % 3, 1, "m.Main.run;m.A.a" + i % 7 + ";m.B.b" + i % 11);
        }
        return h.data().coarseNodes(8);
    }

    @Test
    void workQueuedForADiscardedRecordingIsSkippedAndAKeptOnesIsMade() throws InterruptedException {
        ProfileData deleted = recording();
        ProfileData kept = recording();
        Selection all = Selection.of(Kind.CPU);
        // the maker's thread held, so that everything below is queued before any of it runs
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        assertTrue(Background.later(() -> {
            holding.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        holding.await();
        deleted.prepareInBackground();
        assertNull(deleted.coarse(deleted.tree(), all), "queued, not made");
        kept.prepareInBackground();
        assertNull(kept.coarse(kept.tree(), all));
        deleted.discard();
        release.countDown();
        CountDownLatch ran = new CountDownLatch(1);
        while (!Background.later(ran::countDown)) {
            Thread.onSpinWait(); // the queue full of other tests' work: it empties
        }
        ran.await();
        assertTrue(deleted.discarded());
        assertFalse(deleted.invertedGraphsPrepared(), "a deleted recording's inverted part is not made");
        assertFalse(deleted.threadListsPrepared(), "nor its thread lists");
        assertNull(deleted.awaitCoarse(all), "nor its coarse part");
        assertTrue(kept.invertedGraphsPrepared(), "the other recording's inverted part is made");
        assertTrue(kept.threadListsPrepared(), "and its thread lists");
        assertNotNull(kept.awaitCoarse(all), "and its coarse part");
        // the deleted recording's views still answer, making what they need themselves
        assertNotNull(new FlameGraphQuery(all, null, true, FrameNaming.DEFAULT, 1.0, 50).run(deleted));
    }
}
