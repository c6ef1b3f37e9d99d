package org.jfrworkbench.importer.jfr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.importer.InvalidRecordingException;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.SampleTable;
import org.jfrworkbench.testkit.Recordings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Events decoded on a second thread give the same profile as events read one after another, also from corrupt chunks,
 * where the decoder has usually read ahead of the event that fails.
 */
class PipelinedReadTest {
    private final int configured = ChunkReader.pipelineBytes;

    @TempDir
    Path tmp;

    @BeforeEach
    void evenOnABusyMachine() {
        SpareProcessor.onlyWhenIdle = false;
    }

    @AfterEach
    void restore() {
        ChunkReader.pipelineBytes = configured;
        SpareProcessor.onlyWhenIdle = true;
    }

    @Test
    void everyRecordingReadsTheSameBothWays() throws Exception {
        List<Path> files = new ArrayList<>(Recordings.all());
        files.add(Recordings.jfrsync());
        for (Path file : files) {
            Profile sequential = read(file, -1);
            Profile pipelined = read(file, 0);
            assertSame(file + "", sequential, pipelined);
            assertEquals(sequential.sourceEvents(), pipelined.sourceEvents(), file + " event counts");
        }
    }

    @Test
    void corruptChunksFailAtTheSamePlaceBothWays() throws Exception {
        Path source = Recordings.smallAsyncProfiler();
        byte[] original = Files.readAllBytes(source);
        Random random = new Random(7);
        int failures = 0;
        // cases until eleven have broken a chunk and kept the rest (about one in thirty does, fewer in a small file)
        for (int c = 0; c < 3000 && failures <= 10; c++) {
            byte[] bytes = original.clone();
            for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
                bytes[68 + random.nextInt(bytes.length - 68)] ^= (byte) (1 << random.nextInt(8));
            }
            Path file = tmp.resolve("case" + c + ".jfr");
            Files.write(file, bytes);
            Object sequential = readOrError(file, -1);
            Object pipelined = readOrError(file, 0);
            if (sequential instanceof Profile s && pipelined instanceof Profile p) {
                assertSame("case " + c, s, p);
                assertEquals(s.sourceEvents(), p.sourceEvents(), "case " + c + " event counts");
                failures += s.warnings().isEmpty() ? 0 : 1;
            } else {
                assertEquals(sequential, pipelined, "case " + c);
            }
        }
        assertTrue(failures > 10, "the flips should break some chunks, broke " + failures);
    }

    private static Object readOrError(Path file, int pipelineBytes) {
        try {
            return read(file, pipelineBytes);
        } catch (InvalidRecordingException e) {
            return e.getMessage();
        } catch (Exception e) {
            throw new AssertionError(file + ": " + e, e);
        }
    }

    private static Profile read(Path file, int pipelineBytes) throws Exception {
        ChunkReader.pipelineBytes = pipelineBytes;
        return new Importer().read(file);
    }

    private static void assertSame(String what, Profile a, Profile b) {
        assertEquals(a.warnings(), b.warnings(), what + " warnings");
        assertEquals(a.stacks().size(), b.stacks().size(), what + " stacks");
        assertEquals(a.heap().gcs().size(), b.heap().gcs().size(), what + " GCs");
        for (Kind k : Kind.values()) {
            SampleTable x = a.samples(k);
            SampleTable y = b.samples(k);
            assertEquals(x.size(), y.size(), what + " " + k + " samples");
            assertEquals(x.totalWeight(), y.totalWeight(), what + " " + k + " weight");
            for (int i = 0; i < x.size(); i++) {
                assertEquals(x.time(i), y.time(i), what + " " + k + " time " + i);
                assertEquals(x.thread(i), y.thread(i), what + " " + k + " thread " + i);
                assertEquals(x.stack(i), y.stack(i), what + " " + k + " stack " + i);
                assertEquals(x.weight(i), y.weight(i), what + " " + k + " weight " + i);
                assertEquals(x.objectClass(i), y.objectClass(i), what + " " + k + " class " + i);
            }
        }
    }
}
