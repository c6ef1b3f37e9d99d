package org.jfrworkbench.importer.jfr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

import org.jfrworkbench.importer.FoldedStacks;
import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.model.FrameNaming;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.SampleTable;
import org.jfrworkbench.testkit.Recordings;
import org.jfrworkbench.testkit.jfr.JfrWriter;
import org.jfrworkbench.testkit.jfr.JfrWriter.Field;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our importer against the JDK's own parser ({@link RecordingFile}) on every recording the tests have. The reference is
 * RecordingFile reading each chunk of a file alone (see {@link #readWithJdk}).
 */
class JfrDifferentialTest {
    private static final Set<String> CPU = Set.of("jdk.ExecutionSample", "jdk.CPUTimeSample", "datadog.ExecutionSample");

    @TestFactory
    Stream<DynamicTest> everyRecordingMatchesTheJdkParser() throws Exception {
        List<Path> recordings = Recordings.all();
        assertFalse(recordings.isEmpty(), "no recordings could be made");
        return recordings.stream().map(p -> DynamicTest.dynamicTest(p.getFileName().toString(), () -> compare(p)));
    }

    /**
     * Chunks of different recordings with byte-identical metadata: the same constant ids mean other things in each
     * part. The JDK's parser carries constant pools over between such chunks (and so misnames frames here), so the
     * reference is the JDK parser reading each part alone.
     */
    @Test
    void chunksWithTheSameMetadataButOtherConstantsReadLikeEachPartAlone() throws Exception {
        List<Path> parts = Recordings.sameMetadataParts();
        Path whole = Recordings.DIR.resolve("ap25-same-metadata-concatenated.jfr");
        Recordings.concatenate(whole, parts.toArray(new Path[0]));
        Profile profile = new Importer().read(whole);
        Map<String, Long> counts = new TreeMap<>();
        Map<String, Long> cpu = new TreeMap<>();
        long allocWeight = 0;
        long wallWeight = 0;
        for (Path part : parts) {
            Expected x = readWithJdk(part);
            x.counts.forEach((k, v) -> counts.merge(k, v, Long::sum));
            x.cpuCollapsed.forEach((k, v) -> cpu.merge(k, v, Long::sum));
            allocWeight += x.allocWeight;
            wallWeight += x.wallWeight;
        }
        assertEquals(counts, profile.sourceEvents());
        assertEquals(cpu, FoldedStacks.of(profile, Kind.CPU, null, null, FrameNaming.DEFAULT));
        assertEquals(allocWeight, profile.samples(Kind.ALLOC).totalWeight());
        assertEquals(wallWeight, profile.samples(Kind.WALL).totalWeight());
        assertTrue(profile.warnings().isEmpty(), () -> "warnings: " + profile.warnings());
    }

    /**
     * Chunks shaped like async-profiler's whose method, class and stack keys change meaning now and then from one chunk
     * to the next, their symbols numbered afresh in each: every frame is named as the JDK's parser names it reading each
     * chunk alone, descriptor and line included, whatever the importer carries from chunk to chunk.
     */
    @Test
    void keysThatChangeMeaningBetweenChunksReadLikeEachChunkAlone(@TempDir Path tmp) throws Exception {
        FrameNaming full = new FrameNaming(true, true);
        for (long seed = 1; seed <= 25; seed++) {
            List<byte[]> chunks = new RedefinedKeysRecording(seed, true).chunks(5);
            Map<String, Long> expected = new TreeMap<>();
            ByteArrayOutputStream file = new ByteArrayOutputStream();
            for (byte[] chunk : chunks) {
                file.writeBytes(chunk);
                try (RecordingFile rf = new RecordingFile(Files.write(tmp.resolve("chunk.jfr"), chunk))) {
                    while (rf.hasMoreEvents()) {
                        RecordedEvent e = rf.readEvent();
                        if (e.getEventType().getName().equals("jdk.ExecutionSample")) {
                            List<String> names = new ArrayList<>();
                            for (RecordedFrame f : e.getStackTrace().getFrames()) {
                                // the frame separator in a descriptor escaped, as the collapsed form writes it
                                names.add(0, (f.getMethod().getType().getName() + "." + f.getMethod().getName()
                                        + f.getMethod().getDescriptor() + ":" + f.getLineNumber()).replace(";", "\\;"));
                            }
                            expected.merge(String.join(";", names), 1L, Long::sum);
                        }
                    }
                }
            }
            Profile profile = new Importer().read(Files.write(tmp.resolve("redefined.jfr"), file.toByteArray()));
            assertEquals(chunks.size(), profile.chunks());
            assertTrue(profile.warnings().isEmpty(), () -> "warnings: " + profile.warnings());
            assertEquals(expected, FoldedStacks.of(profile, Kind.CPU, null, null, full), "seed " + seed);
        }
    }

    /**
     * A file whose chunks tick at different rates, as a jfrsync recording does on a machine whose TSC runs at 2.5 GHz:
     * the JDK's chunk counts 2.5 billion ticks a second, async-profiler's a billion from another origin. Written by
     * hand, so the lock durations and sample times are known: the importer and the reference must both give them.
     */
    @Test
    void chunksThatTickAtDifferentRatesKeepTheirOwnClocks(@TempDir Path tmp) throws Exception {
        long start = JfrWriter.START_NANOS;
        long second = 1_000_000_000L;
        long tsc = 2_500_000_000L;
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        // 2.5 GHz: 10 ms of lock from 1 ms into the chunk, a CPU sample at 2 ms
        file.writeBytes(clockedChunk(start, 7 * tsc, tsc, 2_500_000L, 25_000_000L, 5_000_000L));
        // 1 GHz on a clock of its own: 4 ms of lock at 100 ms, a CPU sample at 200 ms
        file.writeBytes(clockedChunk(start + second, 300 * second, second, 100_000_000L, 4_000_000L, 200_000_000L));
        // the first chunk's clock again, two seconds on: 1 ms of lock at 100 ms, a CPU sample at 200 ms
        file.writeBytes(clockedChunk(start + 2 * second, 9 * tsc, tsc, 250_000_000L, 2_500_000L, 500_000_000L));
        Path recording = Files.write(tmp.resolve("two-clocks.jfr"), file.toByteArray());
        List<Long> lockNanos = List.of(10_000_000L, 4_000_000L, 1_000_000L);
        List<Long> lockTimes = List.of(start + 1_000_000L, start + second + 100_000_000L, start + 2 * second + 100_000_000L);
        List<Long> cpuTimes = List.of(start + 2_000_000L, start + second + 200_000_000L, start + 2 * second + 200_000_000L);

        Profile profile = new Importer().read(recording);
        assertEquals(3, profile.chunks());
        SampleTable lock = profile.samples(Kind.LOCK);
        SampleTable cpu = profile.samples(Kind.CPU);
        List<Long> weights = new ArrayList<>();
        List<Long> lockAt = new ArrayList<>();
        List<Long> cpuAt = new ArrayList<>();
        for (int i = 0; i < lock.size(); i++) {
            weights.add(lock.weight(i));
            lockAt.add(lock.time(i));
        }
        for (int i = 0; i < cpu.size(); i++) {
            cpuAt.add(cpu.time(i));
        }
        assertEquals(lockNanos, weights, "lock ns per chunk");
        assertEquals(lockTimes, lockAt, "lock times");
        assertEquals(cpuTimes, cpuAt, "cpu sample times");

        Expected reference = readWithJdk(recording);
        assertEquals(15_000_000L, reference.lockNanos, "the reference reads each chunk on its own clock");
        assertEquals(lockTimes, reference.times(Kind.LOCK));
        assertEquals(cpuTimes, reference.times(Kind.CPU));
        compare(recording);
    }

    /** One chunk on its own clock: a thread, a jdk.JavaMonitorEnter and a jdk.ExecutionSample, times in its ticks. */
    private static byte[] clockedChunk(long startNanos, long startTicks, long ticksPerSecond, long lockAt, long lockTicks,
                                       long sampleAt) {
        JfrWriter w = new JfrWriter(startNanos, 1_000_000_000L, startTicks, ticksPerSecond);
        w.type("java.lang.Thread", null, Field.of("javaName", "java.lang.String"), Field.of("javaThreadId", "long"));
        w.type("jdk.JavaMonitorEnter", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                Field.timespan("duration", "long", "TICKS"), Field.pool("eventThread", "java.lang.Thread"));
        w.type("jdk.ExecutionSample", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                Field.pool("sampledThread", "java.lang.Thread"));
        w.constant("java.lang.Thread", 1, "worker", 7L);
        w.event("jdk.JavaMonitorEnter", startTicks + lockAt, lockTicks, 1L);
        w.event("jdk.ExecutionSample", startTicks + sampleAt, 1L);
        return w.chunk();
    }

    @Test
    void jdk25CpuTimeSamplesAreCpuSamples() throws Exception {
        Path recording = Recordings.jdk().stream().filter(p -> p.getFileName().toString().equals("jdk25-cputime.jfr"))
                .findFirst().orElse(null);
        org.junit.jupiter.api.Assumptions.assumeTrue(recording != null, "no JDK 25");
        Profile profile = new Importer().read(recording);
        assertTrue(profile.sourceEvents().getOrDefault("jdk.CPUTimeSample", 0L) > 0, "the recording has CPU-time samples");
        assertEquals(profile.sourceEvents().get("jdk.CPUTimeSample")
                + profile.sourceEvents().getOrDefault("jdk.ExecutionSample", 0L), profile.samples(Kind.CPU).size());
    }

    private static void compare(Path recording) throws Exception {
        Profile profile = new Importer().read(recording);
        Path plain = plainJfr(recording);
        Expected expected = readWithJdk(plain);

        assertEquals(expected.counts, profile.sourceEvents(), "events per type");
        assertTrue(profile.warnings().isEmpty(), () -> "warnings: " + profile.warnings());
        assertTrue(profile.chunks() >= 1);

        assertEquals(expected.cpuSamples, profile.samples(Kind.CPU).size(), "cpu samples");
        assertEquals(expected.cpuCollapsed, FoldedStacks.of(profile, Kind.CPU, null, null, FrameNaming.DEFAULT),
                "cpu collapsed stacks");
        assertEquals(expected.wallSamples, profile.samples(Kind.WALL).size(), "wall samples");
        assertEquals(expected.wallWeight, profile.samples(Kind.WALL).totalWeight(), "wall weight");
        assertEquals(expected.allocSamples, profile.samples(Kind.ALLOC).size(), "alloc samples");
        assertEquals(expected.allocWeight, profile.samples(Kind.ALLOC).totalWeight(), "alloc bytes");
        if (expected.liveExact) {
            assertEquals(expected.liveSamples, profile.samples(Kind.LIVE).size(), "live samples");
        } else {
            long live = profile.samples(Kind.LIVE).size();
            assertTrue((live > 0 || !expected.liveNonEmpty) && live <= expected.liveSamples,
                    "live samples: " + live + " of " + expected.liveSamples);
        }
        assertEquals(expected.lockSamples, profile.samples(Kind.LOCK).size(), "lock samples");
        long lockNanos = profile.samples(Kind.LOCK).totalWeight();
        assertTrue(Math.abs(lockNanos - expected.lockNanos) <= expected.lockSamples + expected.lockNanos / 1_000_000,
                () -> "lock ns " + lockNanos + " vs " + expected.lockNanos);
        assertEquals(expected.mallocSamples, profile.samples(Kind.NATIVEMEM).size(), "nativemem samples");
        assertEquals(expected.mallocBytes, profile.samples(Kind.NATIVEMEM).totalWeight(), "nativemem bytes");
        for (Kind kind : List.of(Kind.CPU, Kind.WALL, Kind.ALLOC, Kind.LOCK)) {
            assertSameTimes(kind, expected.times(kind), profile.samples(kind));
        }

        for (Kind kind : Kind.values()) {
            SampleTable samples = profile.samples(kind);
            long collapsed = FoldedStacks.of(profile, kind, null, null, new FrameNaming(true, true)).values().stream()
                    .mapToLong(Long::longValue).sum();
            assertEquals(samples.totalWeight(), collapsed, kind + ": collapsed total vs model total");
        }
        assertEquals(expected.gcs, profile.heap().gcs().stream().filter(g -> g.heapUsedBefore() >= 0 && g.name().length() > 0
                && !g.name().equals("System.gc")).count(), "GCs joined with their heap summaries");
    }

    /**
     * The samples' times, sorted, to within a microsecond: the importer multiplies ticks by nanoseconds per tick, the
     * JDK divides them by ticks per nanosecond, so the two may round a 2.5 GHz tick apart by a nanosecond. A chunk read
     * at another chunk's rate is off by milliseconds to seconds.
     */
    private static void assertSameTimes(Kind kind, List<Long> expected, SampleTable samples) {
        long[] reference = expected.stream().mapToLong(Long::longValue).sorted().toArray();
        long[] actual = new long[samples.size()];
        for (int i = 0; i < actual.length; i++) {
            actual[i] = samples.time(i);
        }
        Arrays.sort(actual);
        assertEquals(reference.length, actual.length, kind + " samples with a time");
        for (int i = 0; i < actual.length; i++) {
            long ref = reference[i];
            long act = actual[i];
            int n = i;
            assertTrue(Math.abs(act - ref) <= 1_000, () -> kind + " sample time #" + n + ": " + act + " vs " + ref
                    + " (epoch ns)");
        }
    }

    private static Path plainJfr(Path recording) throws IOException {
        if (!recording.toString().endsWith(".gz")) {
            return recording;
        }
        Path plain = recording.resolveSibling(recording.getFileName() + ".plain.jfr");
        try (InputStream in = new GZIPInputStream(Files.newInputStream(recording))) {
            Files.copy(in, plain, StandardCopyOption.REPLACE_EXISTING);
        }
        return plain;
    }

    static final class Expected {
        final Map<String, Long> counts = new TreeMap<>();
        final Map<String, Long> cpuCollapsed = new TreeMap<>();
        final Set<Long> gcsBefore = new java.util.HashSet<>();
        final Set<Long> gcIds = new java.util.HashSet<>();
        long liveReported;
        boolean liveExact;
        /** Whether a live sample must survive the importer's GC rule: only with jdk.GarbageCollection events. */
        boolean liveNonEmpty;
        long heapSummaries;
        long cpuSamples;
        long wallSamples;
        long wallWeight;
        long allocSamples;
        long allocWeight;
        long liveSamples;
        long lockSamples;
        long lockNanos;
        long mallocSamples;
        long mallocBytes;
        long gcs;
        /** jdk.GarbageCollection gcIds in file order (concatenated copies repeat them). */
        final List<Long> gcEvents = new ArrayList<>();
        /** Sample start times in epoch nanoseconds, per kind. */
        final Map<Kind, List<Long>> times = new java.util.EnumMap<>(Kind.class);

        List<Long> times(Kind kind) {
            return times.computeIfAbsent(kind, k -> new ArrayList<>());
        }

        void time(Kind kind, RecordedEvent e) {
            times(kind).add(epochNanos(e.getStartTime()));
        }
    }

    private static long epochNanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    /**
     * The reference: the JDK's parser reading each chunk of the file alone, split at the chunk headers. Reading a whole
     * file, RecordingFile converts every later chunk's ticks with the first chunk's clock (its ChunkParser hands its
     * TimeConverter on), which is right only while all chunks tick at one rate from one origin. A jfrsync file on a
     * machine whose TSC runs at 2.5 GHz has a JDK chunk at 2.5 GHz and async-profiler's at 1 GHz: read whole, the
     * profiler chunk's lock durations came out 2.5 times too short there, and its timestamps off. The JDK parser also
     * carries constant pools over from chunk to chunk. A chunk alone is complete (metadata, constants, its own clock).
     */
    static Expected readWithJdk(Path file) throws IOException {
        Expected x = new Expected();
        for (byte[] chunk : chunks(file)) {
            Path alone = Files.createTempFile(file.toAbsolutePath().getParent(), "chunk", ".jfr");
            try {
                Files.write(alone, chunk);
                readChunk(alone, x);
            } finally {
                Files.delete(alone);
            }
        }
        // async-profiler's live objects count when a GC started between their allocation and their report (LiveBuffer).
        // Which GCs the importer counts for that (real collections, heap summaries) is its own rule, so with GCs present
        // only the bounds are compared.
        // A lone after-GC heap summary (async-profiler writes some without jfrsync) is no collection, but a before-GC one
        // may be half of one, so only a file with neither keeps every sample.
        x.liveExact = x.liveReported == 0 || x.gcEvents.isEmpty() && x.gcsBefore.isEmpty();
        x.liveNonEmpty = !x.gcEvents.isEmpty();
        x.liveSamples += x.liveReported;
        // GCs with both a jdk.GarbageCollection and a before-GC heap summary; the recordings here never split a GC
        // across chunks, but concatenated copies repeat gc ids, and each copy's GC counts
        x.gcs = x.gcEvents.stream().filter(x.gcsBefore::contains).count();
        return x;
    }

    /** The chunks of a file, by their headers: magic "FLR\0", the chunk's size at offset 8. */
    static List<byte[]> chunks(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        ByteBuffer b = ByteBuffer.wrap(bytes);
        List<byte[]> chunks = new ArrayList<>();
        for (int pos = 0; pos < bytes.length; ) {
            assertEquals(0x464c5200, b.getInt(pos), "chunk magic at " + pos);
            long size = b.getLong(pos + 8);
            assertTrue(size >= 68 && pos + size <= bytes.length, "chunk at " + pos + " claims " + size + " bytes");
            chunks.add(Arrays.copyOfRange(bytes, pos, pos + (int) size));
            pos += (int) size;
        }
        return chunks;
    }

    private static void readChunk(Path chunk, Expected x) throws IOException {
        try (RecordingFile rf = new RecordingFile(chunk)) {
            while (rf.hasMoreEvents()) {
                RecordedEvent e = rf.readEvent();
                String name = e.getEventType().getName();
                x.counts.merge(name, 1L, Long::sum);
                if (CPU.contains(name)) {
                    x.cpuSamples++;
                    x.cpuCollapsed.merge(collapsed(e.getStackTrace()), 1L, Long::sum);
                    x.time(Kind.CPU, e);
                }
                switch (name) {
                    case "profiler.WallClockSample" -> {
                        x.wallSamples++;
                        int n = e.hasField("samples") ? e.getInt("samples") : 1;
                        x.wallWeight += n > 0 ? n : 1;
                        x.time(Kind.WALL, e);
                    }
                    case "jdk.NativeMethodSample" -> {
                        x.wallSamples++;
                        x.wallWeight++;
                        x.time(Kind.WALL, e);
                    }
                    case "jdk.ObjectAllocationSample" -> {
                        x.allocSamples++;
                        x.allocWeight += e.getLong("weight");
                        x.time(Kind.ALLOC, e);
                    }
                    case "jdk.ObjectAllocationInNewTLAB" -> {
                        x.allocSamples++;
                        long tlab = e.getLong("tlabSize");
                        x.allocWeight += tlab > 0 ? tlab : e.getLong("allocationSize");
                        x.time(Kind.ALLOC, e);
                    }
                    case "jdk.ObjectAllocationOutsideTLAB" -> {
                        x.allocSamples++;
                        x.allocWeight += e.getLong("allocationSize");
                        x.time(Kind.ALLOC, e);
                    }
                    case "jdk.OldObjectSample" -> x.liveSamples++;
                    // counted below: only those that met a GC between allocation and report
                    case "profiler.LiveObject" -> x.liveReported++;
                    case "jdk.JavaMonitorEnter", "jdk.ThreadPark" -> {
                        x.lockSamples++;
                        x.lockNanos += e.getDuration().toNanos();
                        x.time(Kind.LOCK, e);
                    }
                    case "profiler.Malloc" -> {
                        x.mallocSamples++;
                        x.mallocBytes += e.getLong("size");
                    }
                    case "jdk.GarbageCollection" -> {
                        x.gcIds.add((long) e.getInt("gcId"));
                        // G1's concurrent cycle collects nothing itself: the importer does not count it as a GC
                        if (!"G1Old".equals(e.getString("name"))) {
                            x.gcEvents.add((long) e.getInt("gcId"));
                        }
                    }
                    case "jdk.GCHeapSummary" -> {
                        x.heapSummaries++;
                        if (e.getString("when").startsWith("Before")) {
                            x.gcsBefore.add((long) e.getInt("gcId"));
                        }
                    }
                    default -> { }
                }
            }
        }
    }

    /** The JDK parser's view of a stack in our collapsed form: root first, {@code package.Class.method}. */
    private static String collapsed(RecordedStackTrace st) {
        if (st == null || st.getFrames().isEmpty()) {
            return FoldedStacks.NO_STACK;
        }
        List<RecordedFrame> frames = st.getFrames();
        StringBuilder sb = new StringBuilder();
        for (int i = frames.size() - 1; i >= 0; i--) {
            RecordedFrame f = frames.get(i);
            String cls = f.getMethod().getType() == null ? "" : f.getMethod().getType().getName();
            String name = (cls == null || cls.isEmpty() ? "" : cls + ".") + f.getMethod().getName();
            sb.append(name.replace(';', ':'));
            if (i > 0) {
                sb.append(';');
            }
        }
        return sb.toString();
    }
}
