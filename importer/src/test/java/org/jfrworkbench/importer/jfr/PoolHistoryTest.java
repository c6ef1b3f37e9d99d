package org.jfrworkbench.importer.jfr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** When a chunk may reuse what earlier chunks resolved: identical metadata and no contradicting entry. */
class PoolHistoryTest {
    private static final byte[] CHUNK = {9, 9, 1, 2, 3, 4, 5, 6, 7, 8};

    @Test
    void sameMetadataAndEntriesLetTheNextChunkContinue() {
        PoolHistory h = new PoolHistory();
        assertFalse(h.startChunk(CHUNK, 0, 2, 3), "the first chunk has nothing to continue");
        h.record(1, 42, CHUNK, 2, 5);
        assertTrue(h.startChunk(CHUNK, 0, 2, 3));
        int e = h.find(1, 42);
        assertTrue(e >= 0);
        assertEquals(3, h.length(e));
        assertTrue(h.sameBytes(e, CHUNK, 2, CHUNK.length));
        assertFalse(h.sameBytes(e, CHUNK, 3, CHUNK.length), "other bytes under the same key");
        assertFalse(h.sameBytes(e, CHUNK, 8, CHUNK.length), "fewer bytes left than the entry has");
        assertEquals(-1, h.find(2, 42), "keys are per type");
    }

    @Test
    void otherMetadataStartsOver() {
        PoolHistory h = new PoolHistory();
        h.startChunk(CHUNK, 0, 2, 3);
        h.record(1, 42, CHUNK, 2, 5);
        assertFalse(h.startChunk(CHUNK, 2, 4, 3));
        assertEquals(-1, h.find(1, 42));
    }

    @Test
    void aKeyRepeatedWithOtherBytesInOneChunkMakesTheNextStartOver() {
        PoolHistory h = new PoolHistory();
        h.startChunk(CHUNK, 0, 2, 3);
        h.record(1, 42, CHUNK, 2, 5);
        h.record(1, 42, CHUNK, 5, 8);
        assertFalse(h.startChunk(CHUNK, 0, 2, 3));
    }
}
