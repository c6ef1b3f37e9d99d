package org.jfrworkbench.importer.jfr;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.importer.InvalidRecordingException;
import org.jfrworkbench.model.FrameTable;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.MethodTable;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.SampleTable;
import org.jfrworkbench.model.StackTable;
import org.jfrworkbench.testkit.Recordings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stack-trace pool resolved with a {@link StackDecoder} beside gives the model one thread gives: the same frame ids,
 * stack ids and samples, also where async-profiler's chunks carry frames and stacks from one chunk to the next and
 * where stacks are truncated.
 */
class SplitStackPoolTest {
    private final int entries = StackTraces.splitEntries;
    private final int blockEntries = StackTraces.splitBlockEntries;

    @TempDir
    Path tmp;

    @BeforeEach
    void evenOnABusyMachine() {
        SpareProcessor.onlyWhenIdle = false;
        // the JDK's pools too, which the importer leaves to one thread: they hold the truncated stacks
        StackTraces.splitLargeKeys = true;
    }

    @AfterEach
    void restore() {
        StackTraces.splitEntries = entries;
        StackTraces.splitBlockEntries = blockEntries;
        StackTraces.splitLargeKeys = false;
        StackTraces.carry = true;
        SpareProcessor.onlyWhenIdle = true;
    }

    /**
     * What is carried from one async-profiler chunk to the next (frames, stacks, method keys confirmed without being
     * resolved again) changes nothing: the model is the one made when every chunk makes its frames afresh, on one
     * thread and with the helper, also where keys change meaning between chunks.
     */
    @Test
    void carryingFramesAndMethodsAcrossChunksGivesTheModelMadeWithout() throws Exception {
        List<Path> files = new ArrayList<>();
        for (long seed = 1; seed <= 40; seed++) {
            Path file = tmp.resolve("redefined" + seed + ".jfr");
            try (var out = Files.newOutputStream(file)) {
                for (byte[] chunk : new RedefinedKeysRecording(seed, false).chunks(6)) {
                    out.write(chunk);
                }
            }
            files.add(file);
        }
        files.add(Recordings.asyncProfiler("25", "ap25-cpu-wall-chunks", "event=cpu,interval=1ms,wall=2ms,chunktime=400ms",
                2500));
        files.add(Recordings.jfrsync());
        for (Path file : files) {
            StackTraces.carry = false;
            Profile afresh = read(file, Integer.MAX_VALUE, 512);
            StackTraces.carry = true;
            assertSameModel(file.getFileName() + " carried", afresh, read(file, Integer.MAX_VALUE, 512));
            assertSameModel(file.getFileName() + " carried, helper", afresh, read(file, 1, 3));
        }
    }

    @Test
    void everyRecordingGivesTheSameModelWithTheHelper() throws Exception {
        List<Path> files = new ArrayList<>(Recordings.all());
        files.add(Recordings.jfrsync());
        // many chunks of one async-profiler recording: method and stack keys kept from chunk to chunk
        files.add(Recordings.asyncProfiler("25", "ap25-cpu-wall-chunks", "event=cpu,interval=1ms,wall=2ms,chunktime=400ms",
                2500));
        // stacks cut at 8 frames: the truncated flag of the helper's entries
        files.add(Recordings.jdkShallowStacks());
        long merged = 0;
        long truncated = 0;
        for (Path file : files) {
            Profile sequential = read(file, Integer.MAX_VALUE, 512);
            // blocks of 7 entries: the two threads take turns many times in every pool
            long before = StackTraces.splitBlocks.get();
            Profile split = read(file, 1, 7);
            merged += StackTraces.splitBlocks.get() - before;
            assertSameModel(file.getFileName().toString(), sequential, split);
            for (int s = 0; s < split.stacks().size(); s++) {
                truncated += split.stacks().truncated(s) ? 1 : 0;
            }
        }
        assertTrue(merged > 0, "the helper should have decoded some blocks");
        assertTrue(truncated > 0, "some stacks should be truncated");
    }

    @Test
    void corruptRecordingsGiveTheSameModelOrErrorWithTheHelper() throws Exception {
        byte[] original = Files.readAllBytes(Recordings.smallAsyncProfiler());
        Random random = new Random(11);
        int profiles = 0;
        for (int c = 0; c < 1000; c++) {
            byte[] bytes = original.clone();
            for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
                bytes[68 + random.nextInt(bytes.length - 68)] ^= (byte) (1 << random.nextInt(8));
            }
            Path file = tmp.resolve("case" + c + ".jfr");
            Files.write(file, bytes);
            Object sequential = readOrError(file, Integer.MAX_VALUE);
            Object split = readOrError(file, 1);
            if (sequential instanceof Profile s && split instanceof Profile p) {
                assertSameModel("case " + c, s, p);
                profiles++;
            } else {
                assertEquals(sequential, split, "case " + c);
            }
        }
        assertTrue(profiles > 0, "some cases should still read");
    }

    private static Object readOrError(Path file, int splitEntries) throws Exception {
        try {
            return read(file, splitEntries, 7);
        } catch (InvalidRecordingException e) {
            return e.getMessage();
        }
    }

    private static Profile read(Path file, int splitEntries, int blockEntries) throws Exception {
        StackTraces.splitEntries = splitEntries;
        StackTraces.splitBlockEntries = blockEntries;
        return new Importer().read(file);
    }

    private static void assertSameModel(String what, Profile a, Profile b) {
        assertEquals(a.warnings(), b.warnings(), what + " warnings");
        assertEquals(a.chunks(), b.chunks(), what + " chunks");
        assertEquals(a.strings().size(), b.strings().size(), what + " strings");
        for (int i = 0; i < a.strings().size(); i++) {
            assertEquals(a.strings().get(i), b.strings().get(i), what + " string " + i);
        }
        MethodTable ma = a.methods();
        MethodTable mb = b.methods();
        assertEquals(ma.size(), mb.size(), what + " methods");
        for (int m = 0; m < ma.size(); m++) {
            assertEquals(ma.className(m), mb.className(m), what + " method " + m + " class");
            assertEquals(ma.name(m), mb.name(m), what + " method " + m + " name");
            assertEquals(ma.descriptor(m), mb.descriptor(m), what + " method " + m + " descriptor");
        }
        FrameTable fa = a.frames();
        FrameTable fb = b.frames();
        assertEquals(fa.size(), fb.size(), what + " frames");
        for (int f = 0; f < fa.size(); f++) {
            assertEquals(fa.method(f), fb.method(f), what + " frame " + f + " method");
            assertEquals(fa.line(f), fb.line(f), what + " frame " + f + " line");
            assertEquals(fa.type(f), fb.type(f), what + " frame " + f + " type");
            assertEquals(a.frameName(f), b.frameName(f), what + " frame " + f + " name");
        }
        StackTable sa = a.stacks();
        StackTable sb = b.stacks();
        assertEquals(sa.size(), sb.size(), what + " stacks");
        for (int s = 0; s < sa.size(); s++) {
            assertArrayEquals(sa.frames(s), sb.frames(s), what + " stack " + s);
            assertEquals(sa.truncated(s), sb.truncated(s), what + " stack " + s + " truncated");
        }
        for (Kind k : Kind.values()) {
            SampleTable x = a.samples(k);
            SampleTable y = b.samples(k);
            assertEquals(x.size(), y.size(), what + " " + k + " samples");
            for (int i = 0; i < x.size(); i++) {
                assertEquals(x.stack(i), y.stack(i), what + " " + k + " stack " + i);
                assertEquals(x.thread(i), y.thread(i), what + " " + k + " thread " + i);
                assertEquals(x.time(i), y.time(i), what + " " + k + " time " + i);
                assertEquals(x.weight(i), y.weight(i), what + " " + k + " weight " + i);
            }
        }
    }
}
