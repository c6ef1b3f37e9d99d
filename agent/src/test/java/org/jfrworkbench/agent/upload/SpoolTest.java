package org.jfrworkbench.agent.upload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpoolTest {
    @TempDir
    Path dir;

    @Test
    void dropsOldestChunksFirstUntilWithinTheBoundAndCountsThem() throws Exception {
        for (int i = 1; i <= 5; i++) {
            Files.write(dir.resolve("app-2026010" + i + "T000000.000Z-1-000" + i + ".jfr"), new byte[1000]);
        }
        Files.write(dir.resolve("app-20260106T000000.000Z-1-0006.jfr.part"), new byte[5000]); // being written: not spooled
        Spool spool = new Spool(dir, 2500);
        assertEquals(3, spool.enforceBound());
        assertEquals(List.of("app-20260104T000000.000Z-1-0004.jfr", "app-20260105T000000.000Z-1-0005.jfr"),
                spool.files().stream().map(p -> p.getFileName().toString()).toList());
        assertEquals(3, spool.droppedCount());
        assertEquals(0, spool.enforceBound());
    }

    @Test
    void theNewestChunkStaysEvenWhenAloneItExceedsTheBound() throws Exception {
        Files.write(dir.resolve("a-0001.jfr"), new byte[100]);
        Files.write(dir.resolve("a-0002.jfr"), new byte[5000]);
        Spool spool = new Spool(dir, 1000);
        assertEquals(1, spool.enforceBound());
        assertEquals(1, spool.files().size());
    }
}
