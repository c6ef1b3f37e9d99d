package org.jfrworkbench.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.jfrworkbench.agent.engine.ProfilingEngine;
import org.jfrworkbench.agent.upload.Spool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the recorder does with a chunk when its engine throws on stop: the spool stays bounded, no half-written file stays. */
class ChunkRecorderFailureTest {
    private static final int OLD_CHUNK_BYTES = 1000;

    @TempDir
    Path dir;

    @Test
    void anIncompleteChunkIsDroppedWithALogLineAndTheSpoolBoundStillHolds() throws Exception {
        spoolThreeOldChunks();
        String log = stopCapturingStderr(new FailingEngine(false));
        assertEquals(List.of(), partFiles(), "no half-written chunk stays");
        assertEquals(List.of("app-20260103T000000.000Z-1-0003.jfr"), spooled(), "the two oldest chunks dropped to fit 1500 bytes");
        assertTrue(log.contains("is incomplete; dropped"), log);
    }

    @Test
    void aCompleteChunkIsPublishedAndTheSpoolBoundStillHoldsWhenTheEngineThrowsAfterWritingIt() throws Exception {
        spoolThreeOldChunks();
        stopCapturingStderr(new FailingEngine(true));
        assertEquals(List.of(), partFiles());
        List<String> spooled = spooled();
        assertEquals(2, spooled.size(), spooled.toString());
        assertEquals("app-20260103T000000.000Z-1-0003.jfr", spooled.get(0));
        assertTrue(spooled.get(1).contains("@"), "the new chunk published as a part of the run: " + spooled.get(1));
    }

    private void spoolThreeOldChunks() throws Exception {
        for (int i = 1; i <= 3; i++) {
            Files.write(dir.resolve("app-2026010" + i + "T000000.000Z-1-000" + i + ".jfr"), new byte[OLD_CHUNK_BYTES]);
        }
    }

    /** Starts a recorder on {@code engine} and stops it (as attach's stop does); returns what the agent logged. */
    private String stopCapturingStderr(ProfilingEngine engine) throws Exception {
        AgentOptions options = AgentOptions.parse("dir=" + dir + ",spool-max=1500,heap-summaries=off,heap-count=false");
        ChunkRecorder recorder = new ChunkRecorder(options, engine);
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true));
        try {
            recorder.start();
            recorder.stop(0, false);
        } finally {
            System.setErr(err);
        }
        return captured.toString();
    }

    private List<String> spooled() {
        return new Spool(dir, Long.MAX_VALUE).files().stream().map(p -> p.getFileName().toString()).toList();
    }

    private List<Path> partFiles() throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".part")).toList();
        }
    }

    /**
     * Writes a chunk header whose size says "still being written" at start; at stop either leaves it so or completes
     * it, and then throws, as an engine whose native stop or close fails.
     */
    private static final class FailingEngine implements ProfilingEngine {
        private final boolean completeBeforeFailing;
        private Path file;

        FailingEngine(boolean completeBeforeFailing) {
            this.completeBeforeFailing = completeBeforeFailing;
        }

        @Override
        public void start(Path file) throws Exception {
            this.file = file;
            Files.write(file, header(0, 64));
        }

        @Override
        public void stop() throws Exception {
            if (completeBeforeFailing) {
                Files.write(file, header(64, 64));
            }
            throw new IllegalStateException("engine failed to stop");
        }

        private static byte[] header(long chunkSize, int fileSize) {
            return ByteBuffer.allocate(fileSize).putInt(0x464c5200).putInt(0x00020001).putLong(chunkSize).array();
        }

        @Override
        public void heapCount(boolean on) {
        }

        @Override
        public String describe() {
            return "an engine that fails to stop";
        }
    }
}
