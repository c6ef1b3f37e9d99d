package org.jfrworkbench.agent.upload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RunPartsTest {
    @Test
    void aChunkFileNameCarriesItsRunPartAndWhetherItIsTheLast() {
        String key = RunParts.runKey("web-1.example.com", 4242, 1_764_000_000_000L);
        String name = RunParts.fileName("checkout-20261126T120000.000Z-4242-0007", key, 1_764_000_000_000L, 6, false);
        assertEquals(new RunParts.Part("checkout-20261126T120000.000Z-4242-0007", key, 1_764_000_000_000L, 6, false),
                RunParts.parse(name));
        assertTrue(RunParts.parse(RunParts.fileName("s", key, 1, 7, true)).last());
        // an older agent's chunk has no run: uploaded as a recording of its own
        assertNull(RunParts.parse("checkout-20261126T120000.000Z-4242-0007.jfr"));
        assertNull(RunParts.parse("a@b@c@d.jfr"));
        // the empty file that only says the run ended, after the chunks of its process
        RunParts.Part end = RunParts.parse(RunParts.endFileName("s", key, 1));
        assertTrue(end.endOnly() && end.last(), end.toString());
        assertEquals(key, end.runKey());
    }

    @Test
    void theRunKeyIsWhatTheServerTakesWhateverTheHostIsCalled() {
        String key = RunParts.runKey("höst name/with:odd@chars" + "x".repeat(200), 1, 2);
        assertTrue(key.matches("[A-Za-z0-9._:-]{1,128}"), key);
        assertTrue(key.endsWith(":1:2"), key);
        assertEquals(key, RunParts.runKey("höst name/with:odd@chars" + "x".repeat(200), 1, 2));
    }
}
