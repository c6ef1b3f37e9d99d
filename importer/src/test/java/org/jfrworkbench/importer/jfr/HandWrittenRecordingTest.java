package org.jfrworkbench.importer.jfr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.jfrworkbench.importer.FoldedStacks;
import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.model.FrameNaming;
import org.jfrworkbench.model.GcEvent;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.SampleTable;
import org.jfrworkbench.testkit.jfr.JfrWriter;
import org.jfrworkbench.testkit.jfr.JfrWriter.Field;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recordings written by hand whose metadata differs from what the JDK and async-profiler write: fields reordered,
 * unknown fields (inline objects, arrays, strings), missing optional fields, other integer widths and time units,
 * events without a stack trace. The importer must follow each chunk's metadata.
 */
class HandWrittenRecordingTest {
    private static final long START = JfrWriter.START_NANOS;

    @TempDir
    Path tmp;

    /** Pool types in unusual shapes: fields reordered, some missing, unknown ones added. */
    private static JfrWriter withPoolTypes(long start) {
        JfrWriter w = new JfrWriter(start, 1_000_000_000L);
        w.type("jdk.types.Symbol", null, Field.of("string", "java.lang.String"));
        w.type("java.lang.Class", null, Field.of("hash", "int"), Field.pool("name", "jdk.types.Symbol"));
        w.type("jdk.types.Method", null, Field.pool("name", "jdk.types.Symbol"),
                Field.pool("descriptor", "jdk.types.Symbol"), Field.of("modifiers", "short"),
                Field.pool("type", "java.lang.Class"));
        w.type("jdk.types.FrameType", null, Field.of("description", "java.lang.String"));
        w.type("jdk.types.StackFrame", null, Field.of("lineNumber", "int"), Field.pool("type", "jdk.types.FrameType"),
                Field.pool("method", "jdk.types.Method"), Field.of("bytecodeIndex", "int"));
        w.type("jdk.types.StackTrace", null, Field.array("frames", "jdk.types.StackFrame"),
                Field.of("truncated", "boolean"));
        // no osName / osThreadId, an extra field first
        w.type("java.lang.Thread", null, Field.of("priority", "byte"), Field.of("javaName", "java.lang.String"),
                Field.of("javaThreadId", "long"));
        w.type("acme.Context", null, Field.of("requestId", "long"), Field.of("route", "java.lang.String"));
        return w;
    }

    private static void poolConstants(JfrWriter w) {
        w.constant("jdk.types.Symbol", 1, "app/Main").constant("jdk.types.Symbol", 2, "main")
                .constant("jdk.types.Symbol", 3, "app/Work").constant("jdk.types.Symbol", 4, "run")
                .constant("jdk.types.Symbol", 5, "()V").constant("jdk.types.Symbol", 6, "[B");
        w.constant("java.lang.Class", 10, 77, 1L).constant("java.lang.Class", 11, 78, 3L)
                .constant("java.lang.Class", 12, 79, 6L);
        w.constant("jdk.types.Method", 20, 2L, 5L, (short) 9, 10L).constant("jdk.types.Method", 21, 4L, 5L, (short) 1, 11L);
        w.constant("jdk.types.FrameType", 1, "Interpreted").constant("jdk.types.FrameType", 2, "JIT compiled");
        Object[] runFrame = {42, 2L, 21L, 7};
        Object[] mainFrame = {10, 1L, 20L, 3};
        w.constant("jdk.types.StackTrace", 30, List.of(runFrame, mainFrame), false);
        w.constant("jdk.types.StackTrace", 31, List.<Object[]>of(mainFrame), true);
        w.constant("java.lang.Thread", 5, (byte) 5, "worker", 15L);
    }

    @Test
    void eventLayoutsAreReadFromEachChunksMetadata() throws Exception {
        JfrWriter w = withPoolTypes(START);
        // stack trace first, an unknown string, the thread, then the time as an int
        w.type("jdk.ExecutionSample", "jdk.jfr.Event", Field.pool("stackTrace", "jdk.types.StackTrace"),
                Field.of("note", "java.lang.String"), Field.pool("sampledThread", "java.lang.Thread"),
                Field.timestamp("startTime", "int", "TICKS"));
        // weight as an int, an inline object and an array before the class
        w.type("jdk.ObjectAllocationSample", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                Field.of("weight", "int"), Field.of("ctx", "acme.Context"), Field.array("tags", "java.lang.String"),
                Field.pool("objectClass", "java.lang.Class"), Field.pool("eventThread", "java.lang.Thread"),
                Field.pool("stackTrace", "jdk.types.StackTrace"));
        // no stack trace, the duration in milliseconds
        w.type("jdk.ThreadPark", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                Field.timespan("duration", "long", "MILLISECONDS"), Field.pool("eventThread", "java.lang.Thread"),
                Field.pool("parkedClass", "java.lang.Class"));
        // no samples field: one sample each
        w.type("profiler.WallClockSample", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                Field.pool("sampledThread", "java.lang.Thread"), Field.pool("stackTrace", "jdk.types.StackTrace"));
        w.type("acme.Unknown", "jdk.jfr.Event", Field.of("payload", "acme.Context"), Field.of("ratio", "double"),
                Field.array("values", "float"));
        poolConstants(w);
        w.event("jdk.ExecutionSample", 30L, "first", 5L, 1_000)
                .event("jdk.ExecutionSample", 31L, null, 5L, 2_000)
                .event("acme.Unknown", new Object[] {1L, "x"}, 0.5, List.of(1f, 2f))
                .event("jdk.ObjectAllocationSample", 3_000L, 4096, new Object[] {9L, "/checkout"}, List.of("a", "b"),
                        12L, 5L, 30L)
                .event("jdk.ThreadPark", 4_000L, 3L, 5L, 11L)
                .event("profiler.WallClockSample", 5_000L, 5L, 30L);

        Profile p = read(w.chunk());
        assertEquals(Map.of("jdk.ExecutionSample", 2L, "acme.Unknown", 1L, "jdk.ObjectAllocationSample", 1L,
                "jdk.ThreadPark", 1L, "profiler.WallClockSample", 1L), p.sourceEvents());
        assertTrue(p.warnings().isEmpty(), p.warnings().toString());
        assertEquals(Map.of("app.Main.main;app.Work.run", 1L, "app.Main.main", 1L),
                FoldedStacks.of(p, Kind.CPU, null, null, FrameNaming.DEFAULT));
        assertEquals(Map.of("app.Main.main()V:10;app.Work.run()V:42", 1L, "app.Main.main()V:10", 1L),
                FoldedStacks.of(p, Kind.CPU, null, null, new FrameNaming(true, true)));
        SampleTable cpu = p.samples(Kind.CPU);
        assertEquals(START + 1_000, cpu.time(0));
        assertEquals("worker", p.threads().get(cpu.thread(0)).name());
        assertEquals(15, p.threads().get(cpu.thread(0)).javaId());
        assertTrue(p.stacks().truncated(cpu.stack(1)));

        SampleTable alloc = p.samples(Kind.ALLOC);
        assertEquals(1, alloc.size());
        assertEquals(4096, alloc.weight(0));
        assertEquals("byte[]", p.strings().get(alloc.objectClass(0)));

        SampleTable lock = p.samples(Kind.LOCK);
        assertEquals(3_000_000, lock.weight(0), "3 ms in ns");
        assertEquals("app.Work", p.strings().get(lock.objectClass(0)));
        assertEquals(Map.of(FoldedStacks.NO_STACK, 3_000_000L), FoldedStacks.of(p, Kind.LOCK, null, null, FrameNaming.DEFAULT));

        assertEquals(1, p.samples(Kind.WALL).totalWeight());
    }

    @Test
    void gcWhoseHeapSummariesFallIntoTwoChunksIsJoined() throws Exception {
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        JfrWriter first = gcTypes(START);
        first.event("jdk.GarbageCollection", 100L, 5_000_000L, 6L, "G1 Young", "Allocation Failure")
                .event("jdk.GCHeapSummary", 100L, 6L, "Before GC", 9_000L)
                .event("jdk.GCHeapSummary", 5_000_100L, 6L, "After GC", 2_000L)
                // GC 7 starts just before the chunk ends ...
                .event("jdk.GarbageCollection", 999_000_000L, 3_000_000L, 7L, "G1 Young", "Allocation Failure")
                .event("jdk.GCHeapSummary", 999_000_000L, 7L, "Before GC", 8_000L);
        file.writeBytes(first.chunk());
        // ... and its after-GC summary is in the next chunk
        JfrWriter second = gcTypes(START + 1_000_000_000L);
        second.event("jdk.GCHeapSummary", 2_000_000L, 7L, "After GC", 1_000L);
        file.writeBytes(second.chunk());

        Profile p = read(file.toByteArray());
        assertEquals(2, p.chunks());
        List<GcEvent> gcs = p.heap().gcs();
        assertEquals(2, gcs.size(), gcs.toString());
        GcEvent split = gcs.stream().filter(g -> g.gcId() == 7).findFirst().orElseThrow();
        assertEquals(8_000, split.heapUsedBefore());
        assertEquals(1_000, split.heapUsedAfter());
        assertEquals("G1 Young", split.name());
        assertEquals(START + 999_000_000L, split.startNanos());
        GcEvent whole = gcs.stream().filter(g -> g.gcId() == 6).findFirst().orElseThrow();
        assertEquals(9_000, whole.heapUsedBefore());
        assertEquals(2_000, whole.heapUsedAfter());
    }

    /**
     * The agent's GC readings carry its collector's own GC number; one the JVM's events do not cover (a GC between two
     * chunks' recordings) joins the JVM's GCs under no id, so that it does not take a JVM GC's pools or counts.
     */
    @Test
    void anAgentGcBesideTheJvmsDoesNotTakeAJvmGcsId() throws Exception {
        JfrWriter w = gcTypes(START);
        w.type("workbench.HeapSummary", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                Field.of("gcId", "long"), Field.of("gcName", "java.lang.String"), Field.of("gcCause", "java.lang.String"),
                Field.of("gcStartMillis", "long"), Field.of("gcDurationMillis", "long"), Field.of("usedBefore", "long"),
                Field.of("usedAfter", "long"), Field.of("committedAfter", "long"));
        w.event("jdk.GarbageCollection", 100L, 1_000_000L, 5L, "ParallelScavenge", "Allocation Failure")
                .event("jdk.GCHeapSummary", 100L, 5L, "Before GC", 9_000L)
                .event("jdk.GCHeapSummary", 1_000_100L, 5L, "After GC", 2_000L)
                // the agent's fifth scavenge, 500 ms later: the JVM's recording has no GC then
                .event("workbench.HeapSummary", 502_000_000L, 5L, "PS Scavenge", "Allocation Failure",
                        (START + 500_000_000L) / 1_000_000, 1L, 8_000L, 3_000L, 64_000L);
        Profile p = read(w.chunk());
        List<GcEvent> gcs = p.heap().gcs();
        assertEquals(2, gcs.size(), gcs.toString());
        assertEquals(List.of(5L, -1L), gcs.stream().sorted(java.util.Comparator.comparingLong(GcEvent::startNanos))
                .map(GcEvent::gcId).toList(), gcs.toString());
        GcEvent agent = gcs.stream().filter(g -> g.gcId() == -1).findFirst().orElseThrow();
        assertEquals("PS Scavenge", agent.name());
        assertEquals(3_000, agent.heapUsedAfter());
    }

    /**
     * Chunks with the same metadata continue each other's constants (read from a heap copy of each, where they are
     * compared): a stack key the second chunk uses without defining it is the first chunk's stack. A chunk between
     * them with metadata of its own starts the pools afresh, and then the key is unknown.
     */
    @Test
    void aChunkWithTheSameMetadataContinuesTheConstantsOfTheOneBefore() throws Exception {
        ByteArrayOutputStream same = new ByteArrayOutputStream();
        same.writeBytes(stackChunk(0, "acme.Same", true));
        same.writeBytes(stackChunk(1, "acme.Same", false));
        Profile p = read(same.toByteArray());
        assertEquals(2, p.chunks());
        assertEquals(Map.of("app.Main.main", 2L), FoldedStacks.of(p, Kind.CPU, null, null, FrameNaming.DEFAULT));

        ByteArrayOutputStream other = new ByteArrayOutputStream();
        other.writeBytes(stackChunk(0, "acme.Same", true));
        other.writeBytes(stackChunk(1, "acme.Other", false));
        Profile q = read(other.toByteArray());
        assertEquals(2, q.chunks());
        SampleTable cpu = q.samples(Kind.CPU);
        assertEquals(2, cpu.size());
        assertTrue(cpu.stack(0) >= 0, "the first chunk's sample has its stack");
        assertTrue(cpu.stack(1) < 0, "the other chunk does not know the key");
    }

    /** A chunk of one CPU sample of stack key 30 (defined only when withConstants), with a type named typeName. */
    private static byte[] stackChunk(int c, String typeName, boolean withConstants) {
        JfrWriter w = new JfrWriter(START + c * 1_000_000_000L, 1_000_000_000L).stackTypes();
        w.type(typeName, null, Field.of("n", "int"));
        w.type("jdk.ExecutionSample", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                Field.pool("sampledThread", "java.lang.Thread"), Field.pool("stackTrace", "jdk.types.StackTrace"));
        w.constant("java.lang.Thread", 1, "worker", 1L);
        if (withConstants) {
            w.constant("jdk.types.Symbol", 1, "app/Main").constant("jdk.types.Symbol", 2, "main");
            w.constant("java.lang.Class", 6, 1L);
            w.constant("jdk.types.Method", 21, 6L, 2L);
            w.constant("jdk.types.StackTrace", 30, false, List.<Object[]>of(new Object[] {21L, 3}));
        }
        w.event("jdk.ExecutionSample", 1_000L, 1L, 30L);
        return w.chunk();
    }

    /**
     * async-profiler's chunks each start their pools afresh but keep method keys: frames made in one chunk serve the
     * next while the key names the same method (here with its symbols numbered anew), and not once it names another.
     */
    @Test
    void aMethodKeyKeepsItsFramesIntoTheNextChunkOnlyWhileItNamesTheSameMethod() throws Exception {
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        String[][] methods = {{"app/A", "a"}, {"app/A", "a"}, {"app/B", "b"}};
        for (int c = 0; c < methods.length; c++) {
            JfrWriter w = new JfrWriter(START + c * 1_000_000_000L, 1_000_000_000L).stackTypes();
            // a type of its own per chunk: the metadata differs, so every chunk is a new key space
            w.type("acme.Chunk" + c, null, Field.of("n", "int"));
            w.type("jdk.ExecutionSample", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                    Field.pool("sampledThread", "java.lang.Thread"), Field.pool("stackTrace", "jdk.types.StackTrace"));
            long symbols = 10L * (c + 1);
            w.constant("jdk.types.Symbol", symbols, methods[c][0]).constant("jdk.types.Symbol", symbols + 1, methods[c][1])
                    .constant("jdk.types.Symbol", 1, "app/Main").constant("jdk.types.Symbol", 2, "main");
            w.constant("java.lang.Class", 5, symbols).constant("java.lang.Class", 6, 1L);
            w.constant("jdk.types.Method", 20, 5L, symbols + 1).constant("jdk.types.Method", 21, 6L, 2L);
            w.constant("jdk.types.StackTrace", 30, false, List.of(new Object[] {20L, 7}, new Object[] {21L, 3}));
            w.constant("java.lang.Thread", 1, "worker", 1L);
            w.event("jdk.ExecutionSample", 1_000L, 1L, 30L);
            file.writeBytes(w.chunk());
        }

        Profile p = read(file.toByteArray());
        assertEquals(3, p.chunks());
        assertTrue(p.warnings().isEmpty(), p.warnings().toString());
        assertEquals(Map.of("app.Main.main;app.A.a", 2L, "app.Main.main;app.B.b", 1L),
                FoldedStacks.of(p, Kind.CPU, null, null, FrameNaming.DEFAULT));
        assertEquals(3, p.frames().size(), "A.a, B.b and Main.main, each once");
    }

    /**
     * A stack key keeps its model stack into later chunks only while its frames are the same: the same keys (its
     * method keys naming the same methods) and the same truncation. Here one key keeps its frames and its methods,
     * then names a method key that now names another method; one key names other frames from the third chunk on; one
     * keeps its frames and becomes truncated. Every chunk starts its pools afresh and numbers its symbols anew, as
     * async-profiler's do.
     */
    @Test
    void aStackKeyKeepsItsStackIntoLaterChunksOnlyWhileItsFramesAreTheSame() throws Exception {
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        String[][] methods = {{"app/A", "a"}, {"app/A", "a"}, {"app/A", "a"}, {"app/B", "b"}};
        for (int c = 0; c < methods.length; c++) {
            JfrWriter w = new JfrWriter(START + c * 1_000_000_000L, 1_000_000_000L).stackTypes();
            w.type("acme.Chunk" + c, null, Field.of("n", "int"));
            w.type("jdk.ExecutionSample", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                    Field.pool("sampledThread", "java.lang.Thread"), Field.pool("stackTrace", "jdk.types.StackTrace"));
            long symbols = 10L * (c + 1);
            w.constant("jdk.types.Symbol", symbols, methods[c][0]).constant("jdk.types.Symbol", symbols + 1, methods[c][1])
                    .constant("jdk.types.Symbol", symbols + 2, "app/Main").constant("jdk.types.Symbol", symbols + 3, "main");
            w.constant("java.lang.Class", 5, symbols).constant("java.lang.Class", 6, symbols + 2);
            w.constant("jdk.types.Method", 20, 5L, symbols + 1).constant("jdk.types.Method", 21, 6L, symbols + 3);
            boolean later = c >= 2;
            w.constant("jdk.types.StackTrace", 30, false, List.of(new Object[] {20L, 7}, new Object[] {21L, 3}));
            w.constant("jdk.types.StackTrace", 31, false, later
                    ? List.of(new Object[] {20L, 9}, new Object[] {21L, 3}) : List.<Object[]>of(new Object[] {21L, 3}));
            w.constant("jdk.types.StackTrace", 32, later, List.<Object[]>of(new Object[] {21L, 4}));
            w.constant("java.lang.Thread", 1, "worker", 1L);
            for (long stack = 30; stack <= 32; stack++) {
                w.event("jdk.ExecutionSample", 1_000L + stack, 1L, stack);
            }
            file.writeBytes(w.chunk());
        }

        Profile p = read(file.toByteArray());
        assertEquals(4, p.chunks());
        assertTrue(p.warnings().isEmpty(), p.warnings().toString());
        assertEquals(Map.of("app.Main.main:3;app.A.a:7", 3L, "app.Main.main:3;app.B.b:7", 1L,
                        "app.Main.main:3", 2L, "app.Main.main:3;app.A.a:9", 1L, "app.Main.main:3;app.B.b:9", 1L,
                        "app.Main.main:4", 4L),
                FoldedStacks.of(p, Kind.CPU, null, null, new FrameNaming(false, true)));
        assertEquals(7, p.stacks().size(), "[A.a:7, main:3], [main:3], [main:4], [A.a:9, main:3], [main:4] truncated, "
                + "[B.b:7, main:3], [B.b:9, main:3]");
        SampleTable cpu = p.samples(Kind.CPU);
        long truncated = 0;
        for (int i = 0; i < cpu.size(); i++) {
            truncated += p.stacks().truncated(cpu.stack(i)) ? 1 : 0;
        }
        assertEquals(2, truncated, "stack 32 of the last two chunks");
    }

    private static JfrWriter gcTypes(long start) {
        JfrWriter w = new JfrWriter(start, 1_000_000_000L);
        w.gcTypes();
        return w;
    }

    /**
     * A stack pool written in several checkpoints of one chunk (as the JDK's flushes write it), each announcing its own
     * entries, reads as the same pool in one checkpoint: a checkpoint's count is of its own entries only, so a reader
     * that sized or reset a pool's tables by it would lose the entries of the checkpoints before.
     */
    @Test
    void aStackPoolSpreadOverCheckpointsReadsAsInOne() throws Exception {
        Map<String, Long> one = FoldedStacks.of(read(manyStacks(1)), Kind.CPU, null, null, FrameNaming.DEFAULT);
        assertEquals(3_000, one.size());
        Profile p = read(manyStacks(3));
        assertEquals(3_000, p.stacks().size());
        assertEquals(one, FoldedStacks.of(p, Kind.CPU, null, null, FrameNaming.DEFAULT));
    }

    /** 3,000 distinct stacks of up to 12 frames of 40 methods (keys well above the pools' counts), a sample each. */
    private static byte[] manyStacks(int checkpoints) {
        JfrWriter w = new JfrWriter(START, 1_000_000_000L).stackTypes().checkpoints(checkpoints);
        w.type("jdk.ExecutionSample", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                Field.pool("sampledThread", "java.lang.Thread"), Field.pool("stackTrace", "jdk.types.StackTrace"));
        w.constant("java.lang.Thread", 1, "worker", 1L);
        for (int m = 0; m < 40; m++) {
            w.constant("jdk.types.Symbol", 1000 + m, "app/C" + m).constant("jdk.types.Symbol", 2000 + m, "m" + m);
            w.constant("java.lang.Class", 3000 + m, 1000L + m);
            w.constant("jdk.types.Method", 5000 + m, 3000L + m, 2000L + m);
        }
        for (int s = 0; s < 3_000; s++) {
            // the frames spell s in base 40, from the leaf
            List<Object[]> frames = new java.util.ArrayList<>();
            for (int rest = s; ; rest /= 40) {
                frames.add(new Object[] {5000L + rest % 40, 1 + frames.size()});
                if (rest < 40) {
                    break;
                }
            }
            frames.add(new Object[] {5000L, 0});
            w.constant("jdk.types.StackTrace", 70_000 + 7L * s, false, frames);
            w.event("jdk.ExecutionSample", 1_000L + s, 1L, 70_000 + 7L * s);
        }
        return w.chunk();
    }

    private Profile read(byte[] recording) throws Exception {
        Path file = Files.write(tmp.resolve("hand-written.jfr"), recording);
        return new Importer().read(file);
    }
}
