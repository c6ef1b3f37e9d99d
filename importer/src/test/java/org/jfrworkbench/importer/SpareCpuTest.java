package org.jfrworkbench.importer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SpareCpuTest {
    @Test
    void aSecondThreadIsOfferedWhenOnlyThisJvmKeptTheMachineBusy() {
        // two processors wholly busy, all of it this JVM's own (its queries, done by now): both are free for it
        assertTrue(SpareCpu.spare(2, 1.0, 1.0));
        assertTrue(SpareCpu.spare(2, 0.1, 0.0));
        // another process used one processor, or more than half of one: the caller's thread takes the other
        assertFalse(SpareCpu.spare(2, 1.0, 0.5));
        assertFalse(SpareCpu.spare(2, 0.3, 0.0));
        // four processors: others may use up to two and a half of them (the caller's thread and a half stay free)
        assertTrue(SpareCpu.spare(4, 0.6, 0.0));
        assertFalse(SpareCpu.spare(4, 0.7, 0.05));
    }

    @Test
    void afterALongGapTheThreadsRunnableNowDecide() {
        assertEquals(3, SpareCpu.runnable("0.52 0.58 0.59 3/144 13603\n"));
        assertEquals(-1, SpareCpu.runnable("0.52 0.58 0.59"));
        assertEquals(-1, SpareCpu.runnable("0.52 0.58 0.59 x/144 13603"));
        // two processors: the caller's thread alone is runnable, so the other processor is free; one more runnable
        // thread (another process's, or this JVM's collector) takes it
        assertTrue(SpareCpu.spareNow(2, 1));
        assertFalse(SpareCpu.spareNow(2, 2));
        // four: the caller and two more leave one and a half free
        assertTrue(SpareCpu.spareNow(4, 3));
        assertFalse(SpareCpu.spareNow(4, 4));
    }
}
