package org.jfrworkbench.importer.jfr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Our importer against the JDK's own parser ({@link RecordingFile}) on every recording the tests have. */
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

        for (Kind kind : Kind.values()) {
            SampleTable samples = profile.samples(kind);
            long collapsed = FoldedStacks.of(profile, kind, null, null, new FrameNaming(true, true)).values().stream()
                    .mapToLong(Long::longValue).sum();
            assertEquals(samples.totalWeight(), collapsed, kind + ": collapsed total vs model total");
        }
        assertEquals(expected.gcs, profile.heap().gcs().stream().filter(g -> g.heapUsedBefore() >= 0 && g.name().length() > 0
                && !g.name().equals("System.gc")).count(), "GCs joined with their heap summaries");
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

    private static final class Expected {
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
    }

    private static Expected readWithJdk(Path file) throws IOException {
        Expected x = new Expected();
        try (RecordingFile rf = new RecordingFile(file)) {
            while (rf.hasMoreEvents()) {
                RecordedEvent e = rf.readEvent();
                String name = e.getEventType().getName();
                x.counts.merge(name, 1L, Long::sum);
                if (CPU.contains(name)) {
                    x.cpuSamples++;
                    x.cpuCollapsed.merge(collapsed(e.getStackTrace()), 1L, Long::sum);
                }
                switch (name) {
                    case "profiler.WallClockSample" -> {
                        x.wallSamples++;
                        int n = e.hasField("samples") ? e.getInt("samples") : 1;
                        x.wallWeight += n > 0 ? n : 1;
                    }
                    case "jdk.NativeMethodSample" -> {
                        x.wallSamples++;
                        x.wallWeight++;
                    }
                    case "jdk.ObjectAllocationSample" -> {
                        x.allocSamples++;
                        x.allocWeight += e.getLong("weight");
                    }
                    case "jdk.ObjectAllocationInNewTLAB" -> {
                        x.allocSamples++;
                        long tlab = e.getLong("tlabSize");
                        x.allocWeight += tlab > 0 ? tlab : e.getLong("allocationSize");
                    }
                    case "jdk.ObjectAllocationOutsideTLAB" -> {
                        x.allocSamples++;
                        x.allocWeight += e.getLong("allocationSize");
                    }
                    case "jdk.OldObjectSample" -> x.liveSamples++;
                    // counted below: only those that met a GC between allocation and report
                    case "profiler.LiveObject" -> x.liveReported++;
                    case "jdk.JavaMonitorEnter", "jdk.ThreadPark" -> {
                        x.lockSamples++;
                        x.lockNanos += e.getDuration().toNanos();
                    }
                    case "profiler.Malloc" -> {
                        x.mallocSamples++;
                        x.mallocBytes += e.getLong("size");
                    }
                    case "jdk.GarbageCollection" -> x.gcIds.add((long) e.getInt("gcId"));
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
        // async-profiler's live objects count when a GC started between their allocation and their report (LiveBuffer).
        // The JDK parser cannot check that rule: in a jfrsync file it puts the profiler chunk's timestamps off from the
        // JDK chunk's by a varying amount, so with GCs present only the bounds are compared.
        // A heap summary alone (async-profiler writes some without jfrsync) also tells the importer a GC happened then,
        // so such a file gets the same rule; whether any sample met that GC depends on timing, so none may be left.
        x.liveExact = x.liveReported == 0 || x.gcIds.isEmpty() && x.heapSummaries == 0;
        x.liveNonEmpty = !x.gcIds.isEmpty();
        x.liveSamples += x.liveReported;
        // GCs with both a jdk.GarbageCollection and a before-GC heap summary, counted per chunk by the importer;
        // the recordings here never split a GC across chunks, but concatenated copies repeat gc ids
        x.gcs = 0;
        try (RecordingFile rf = new RecordingFile(file)) {
            // count GarbageCollection events whose id has a before summary (duplicates from concatenation included)
            while (rf.hasMoreEvents()) {
                RecordedEvent e = rf.readEvent();
                if (e.getEventType().getName().equals("jdk.GarbageCollection") && x.gcsBefore.contains((long) e.getInt("gcId"))) {
                    x.gcs++;
                }
            }
        }
        return x;
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
