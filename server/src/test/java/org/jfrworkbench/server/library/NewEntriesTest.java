package org.jfrworkbench.server.library;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.jfrworkbench.server.catalog.RecordingInfo;
import org.junit.jupiter.api.Test;

/** The retries of an index entry that fails: how many, and what the recording's state says meanwhile. */
class NewEntriesTest {
    private final Map<String, RecordingInfo> stored = new ConcurrentHashMap<>();

    private static RecordingInfo info(String id) {
        return new RecordingInfo(id, id, id, Map.of(), 0, 0, 1, Map.of(), Map.of(), 0, 1, null, null, null, 0, 0);
    }

    @Test
    void anEntryThatAlwaysFailsIsTriedABoundedNumberOfTimesThenLeftToTheNextStart() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        NewEntries entries = new NewEntries((info, data, visible) -> {
            attempts.incrementAndGet();
            throw new IOException("index unwritable");
        }, stored::get, id -> null, 1);
        RecordingInfo info = info("a");
        stored.put("a", info);
        entries.add(info, null);
        IndexStatus status = awaitState(entries, "a", IndexStatus.FAILED);
        assertEquals(NewEntries.RETRIES + 1, status.attempts());
        assertEquals(NewEntries.RETRIES + 1, attempts.get());
        assertEquals("IOException", status.error());
        entries.close();
        assertEquals(NewEntries.RETRIES + 1, attempts.get(), "no attempt after the last");
    }

    @Test
    void anEntryThatFailsTwiceIsIndexedByTheThirdAttemptAndADeletedOneIsNotTriedAgain() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        NewEntries entries = new NewEntries((info, data, visible) -> {
            if (info.id().equals("b") && attempts.incrementAndGet() <= 2) {
                throw new IOException("no space left on device");
            }
            if (info.id().equals("c")) {
                stored.remove("c"); // deleted while its first attempt failed
                throw new IOException("no space left on device");
            }
            visible.run();
        }, stored::get, id -> null, 1);
        stored.put("b", info("b"));
        stored.put("c", info("c"));
        entries.add(stored.get("b"), null);
        entries.add(stored.get("c"), null);
        awaitState(entries, "b", "indexed");
        assertEquals(3, attempts.get());
        awaitState(entries, "c", "indexed"); // nothing left to index: no state of a failure kept
        entries.close();
    }

    @Test
    void aRetriedEntryReadsIndexedBeforeTheSearchesCanFindIt() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        AtomicReference<NewEntries> self = new AtomicReference<>();
        AtomicReference<String> stateWhenVisible = new AtomicReference<>();
        NewEntries entries = new NewEntries((info, data, visible) -> {
            if (attempts.incrementAndGet() == 1) {
                throw new IOException("no space left on device");
            }
            visible.run();
            // where the index makes the entry visible: a search finding it next must not read retrying
            stateWhenVisible.set(self.get().status(info.id()).state());
        }, stored::get, id -> null, 1);
        self.set(entries);
        stored.put("d", info("d"));
        entries.add(stored.get("d"), null);
        awaitState(entries, "d", "indexed");
        assertEquals(2, attempts.get());
        assertEquals("indexed", stateWhenVisible.get());
        entries.close();
    }

    @Test
    void aRunsNewerEntrySupersedesTheRetriesOfItsOlderOne() throws Exception {
        Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
        RecordingInfo older = info("run");
        RecordingInfo newer = new RecordingInfo("run", "run", "run", Map.of(), 0, 0, 1, Map.of(), Map.of(), 0, 2,
                null, null, null, 0, 0);
        RecordingInfo other = info("other");
        NewEntries entries = new NewEntries((info, data, visible) -> {
            int n = attempts.computeIfAbsent(info == newer ? "newer" : info.id(), k -> new AtomicInteger()).incrementAndGet();
            if (info == older || info == other && n == 1) {
                throw new IOException("no space left on device");
            }
            visible.run();
        }, stored::get, id -> null, 500); // long enough for the newer entry to come before the older one's first retry
        stored.put("run", older);
        entries.add(older, null);
        awaitState(entries, "run", IndexStatus.RETRYING);
        stored.put("run", newer); // the run's next part
        entries.add(newer, null);
        awaitState(entries, "run", "indexed");
        // a retry scheduled after the older entry's: once it ran, so did the older one's (one thread, in time order)
        stored.put("other", other);
        entries.add(other, null);
        awaitState(entries, "other", IndexStatus.RETRYING);
        awaitState(entries, "other", "indexed");
        assertEquals(1, attempts.get("newer").get(), "the older entry's retry made the newer entry again");
        assertEquals("indexed", entries.status("run").state());
        entries.close();
    }

    private static IndexStatus awaitState(NewEntries entries, String id, String state) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        IndexStatus status;
        while (!(status = entries.status(id)).state().equals(state)) {
            assertTrue(System.nanoTime() < deadline, id + " never " + state + ", still " + status);
            Thread.sleep(5); // between polls of the condition
        }
        return status;
    }
}
