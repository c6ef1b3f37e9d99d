package org.jfrworkbench.agent.engine;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChunkFilesTest {
    @TempDir
    Path tmp;

    @Test
    void aFinishedRecordingIsCompleteAndATruncatedOneIsNot() throws Exception {
        Path file = tmp.resolve("r.jfr");
        try (Recording r = new Recording()) {
            r.start();
            r.stop();
            r.dump(file);
        }
        assertTrue(ChunkFiles.isComplete(file));
        byte[] bytes = Files.readAllBytes(file);
        Path cut = tmp.resolve("cut.jfr");
        Files.write(cut, Arrays.copyOf(bytes, bytes.length - 10));
        assertFalse(ChunkFiles.isComplete(cut));
        Path twice = tmp.resolve("twice.jfr");
        byte[] both = Arrays.copyOf(bytes, bytes.length * 2);
        System.arraycopy(bytes, 0, both, bytes.length, bytes.length);
        Files.write(twice, both);
        assertTrue(ChunkFiles.isComplete(twice), "concatenated chunks");
        Files.write(cut, "not a recording".getBytes());
        assertFalse(ChunkFiles.isComplete(cut));
    }
}
