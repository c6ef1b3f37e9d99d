package org.jfrworkbench.importer.jfr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.jfrworkbench.importer.FoldedStacks;
import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.importer.InvalidRecordingException;
import org.jfrworkbench.model.FrameNaming;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.testkit.Recordings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Truncated and corrupted recordings: every case ends in a Profile or an InvalidRecordingException, never another
 * exception, an error, or a hang.
 */
class CorruptRecordingTest {
    private static final int TRUNCATIONS = 200;
    private static final int FLIPS = 1000;
    /** Only a hang takes this long: a case takes milliseconds, a loaded machine may stretch that a hundredfold. */
    private static final long HANG_SECONDS = 60;
    private static ExecutorService worker;

    @TempDir
    Path tmp;

    @BeforeAll
    static void startWorker() {
        worker = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "import-under-test");
            t.setDaemon(true);
            return t;
        });
    }

    @AfterAll
    static void stopWorker() {
        worker.shutdownNow();
    }

    @Test
    void truncatedSmallAsyncProfilerRecordingAlwaysEndsCleanly() throws Exception {
        truncations(Recordings.smallAsyncProfiler());
    }

    @Test
    void truncatedJdkRecordingAlwaysEndsCleanly() throws Exception {
        truncations(Recordings.jdk25Default());
    }

    @Test
    void truncatedMultiChunkRecordingKeepsTheCompleteChunks() throws Exception {
        Path file = Recordings.jfrsync();
        truncations(file);
        byte[] bytes = Files.readAllBytes(file);
        int firstChunk = (int) ByteBuffer.wrap(bytes).getLong(8);
        Path cut = tmp.resolve("cut.jfr");
        Files.write(cut, java.util.Arrays.copyOf(bytes, firstChunk + (bytes.length - firstChunk) / 2));
        Profile p = new Importer().read(cut);
        assertEquals(1, p.chunks());
        assertEquals(1, p.warnings().size(), () -> p.warnings().toString());
        assertTrue(p.warnings().get(0).startsWith("chunk 2 truncated at offset "), p.warnings().get(0));
    }

    @Test
    void randomByteFlipsInSmallAsyncProfilerRecordingAlwaysEndCleanly() throws Exception {
        flips(Recordings.smallAsyncProfiler(), 1);
    }

    @Test
    void randomByteFlipsInJdkRecordingAlwaysEndCleanly() throws Exception {
        flips(Recordings.jdk25Default(), 2);
    }

    @Test
    void randomByteFlipsInMultiChunkRecordingAlwaysEndCleanly() throws Exception {
        flips(Recordings.jfrsync(), 3);
    }

    @Test
    void randomByteFlipsInAChunkThatRepeatsThePreviousChunksConstantsAlwaysEndCleanly() throws Exception {
        // two copies of one recording: the second chunk is checked against the first's constants, and corrupted
        Path small = Recordings.smallAsyncProfiler();
        Path twice = tmp.resolve("twice.jfr");
        Recordings.concatenate(twice, small, small);
        flips(twice, 4, Files.size(small));
    }

    @Test
    void zeroSizeEventIsRejectedNotLoopedOn() throws Exception {
        // offset 68 holds the size of the chunk's first record
        byte[] bytes = Files.readAllBytes(Recordings.jdk25Default());
        bytes[68] = 0;
        Path bad = tmp.resolve("zero.jfr");
        Files.write(bad, bytes);
        InvalidRecordingException e = assertThrows(InvalidRecordingException.class, () -> new Importer().read(bad));
        assertTrue(e.getMessage().contains("size 0 does not fit"), e.getMessage());
        assertEquals(68, e.offset());
    }

    @Test
    void constantPoolOffsetOutsideTheChunkIsNamed() throws Exception {
        byte[] bytes = Files.readAllBytes(Recordings.smallAsyncProfiler());
        ByteBuffer.wrap(bytes).putLong(16, 1L << 40);
        Path bad = tmp.resolve("cp.jfr");
        Files.write(bad, bytes);
        InvalidRecordingException e = assertThrows(InvalidRecordingException.class, () -> new Importer().read(bad));
        assertTrue(e.getMessage().contains("constant pool offset"), e.getMessage());
    }

    @Test
    void constantPoolOffsetOnANonPoolRecordIsNamed() throws Exception {
        byte[] bytes = Files.readAllBytes(Recordings.smallAsyncProfiler());
        // the header's pool offset lands on the metadata event, a record that is not a pool
        ByteBuffer.wrap(bytes).putLong(16, ByteBuffer.wrap(bytes).getLong(24));
        Path bad = tmp.resolve("loop.jfr");
        Files.write(bad, bytes);
        InvalidRecordingException e = assertThrows(InvalidRecordingException.class, () -> new Importer().read(bad));
        assertTrue(e.getMessage().contains("expected a constant-pool event"), e.getMessage());
    }

    @Test
    void hugeChunkSizeIsATruncationNotAnAllocation() throws Exception {
        byte[] bytes = Files.readAllBytes(Recordings.smallAsyncProfiler());
        ByteBuffer.wrap(bytes).putLong(8, Long.MAX_VALUE);
        Path bad = tmp.resolve("huge.jfr");
        Files.write(bad, bytes);
        InvalidRecordingException e = assertThrows(InvalidRecordingException.class, () -> new Importer().read(bad));
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());
    }

    private void truncations(Path file) throws Exception {
        byte[] bytes = Files.readAllBytes(file);
        List<Integer> lengths = new ArrayList<>();
        for (int i = 0; i < 70; i += 7) {
            lengths.add(i + 1);
        }
        Random random = new Random(42);
        while (lengths.size() < TRUNCATIONS) {
            lengths.add(1 + random.nextInt(bytes.length - 1));
        }
        Path cut = tmp.resolve("truncated.jfr");
        for (int length : lengths) {
            Files.write(cut, java.util.Arrays.copyOf(bytes, length));
            importEndsCleanly(cut, "truncated at " + length + " of " + bytes.length);
        }
    }

    private void flips(Path file, long seed) throws Exception {
        flips(file, seed, 0);
    }

    /** Flips bytes from offset from on (where a chunk starts). */
    private void flips(Path file, long seed, long from) throws Exception {
        byte[] original = Files.readAllBytes(file);
        int start = (int) from;
        Random random = new Random(seed);
        Path bad = tmp.resolve("flipped.jfr");
        for (int c = 0; c < FLIPS; c++) {
            byte[] bytes = original.clone();
            int n = 1 + random.nextInt(4);
            StringBuilder what = new StringBuilder("case " + c + ", bytes");
            for (int i = 0; i < n; i++) {
                // one case in ten hits the chunk header, which every reader must survive too
                int at = start + (c % 10 == 0 ? random.nextInt(68) : random.nextInt(bytes.length - start));
                bytes[at] = (byte) random.nextInt(256);
                what.append(' ').append(at);
            }
            Files.write(bad, bytes);
            importEndsCleanly(bad, what.toString());
        }
    }

    private static void importEndsCleanly(Path file, String what) throws Exception {
        Future<String> result = worker.submit(() -> {
            try {
                Profile p = new Importer().read(file);
                for (Kind k : Kind.values()) {
                    FoldedStacks.of(p, k, null, null, new FrameNaming(true, true));
                }
                return null;
            } catch (InvalidRecordingException e) {
                return e.getMessage() == null || e.getMessage().isBlank() ? "exception without a message" : null;
            } catch (Throwable t) {
                return "threw " + t;
            }
        });
        String problem;
        try {
            problem = result.get(HANG_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            result.cancel(true);
            fail(what + ": import still running after " + HANG_SECONDS + " s (hang?)");
            return;
        }
        if (problem != null) {
            fail(what + ": " + problem);
        }
    }
}
