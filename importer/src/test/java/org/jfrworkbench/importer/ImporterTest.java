package org.jfrworkbench.importer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import org.jfrworkbench.model.FrameNaming;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.testkit.Recordings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The formats the importer accepts and the messages for what it does not. */
class ImporterTest {
    @TempDir
    Path tmp;

    @Test
    void gzipOfARecordingImportsLikeTheRecording() throws Exception {
        Path jfr = Recordings.smallAsyncProfiler();
        Path gz = tmp.resolve("r.jfr.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            Files.copy(jfr, out);
        }
        assertSameProfile(new Importer().read(jfr), new Importer().read(gz));
    }

    @Test
    void zipOfRecordingsImportsEveryJfrEntry() throws Exception {
        Path jfr = Recordings.smallAsyncProfiler();
        Path zip = tmp.resolve("r.zip");
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(zip))) {
            out.putNextEntry(new ZipEntry("README.md"));
            out.write("not a recording".getBytes(StandardCharsets.UTF_8));
            out.putNextEntry(new ZipEntry("dir/a.jfr"));
            Files.copy(jfr, out);
            out.putNextEntry(new ZipEntry("b.jfr"));
            Files.copy(jfr, out);
        }
        Profile single = new Importer().read(jfr);
        Profile both = new Importer().read(zip);
        assertEquals(2 * single.chunks(), both.chunks());
        assertEquals(2 * single.samples(Kind.CPU).size(), both.samples(Kind.CPU).size());
        single.sourceEvents().forEach((type, n) -> assertEquals(2 * n, both.sourceEvents().get(type), type));
    }

    @Test
    void collapsedTextBecomesSamplesOfTheAskedKind() throws Exception {
        Path txt = tmp.resolve("stacks.txt");
        Files.writeString(txt, "# comment\nmain;app.Service.handle;app.Dao.query_[j] 7\nmain;app.Service.handle 3\n"
                + "main;app.Service.handle;app.Dao.query_[j] 5\n");
        Profile p = new Importer().read(txt, Kind.ALLOC);
        assertEquals(3, p.samples(Kind.ALLOC).size());
        assertEquals(15, p.samples(Kind.ALLOC).totalWeight());
        Map<String, Long> collapsed = FoldedStacks.of(p, Kind.ALLOC, null, null, FrameNaming.DEFAULT);
        assertEquals(Map.of("main;app.Service.handle;app.Dao.query", 12L, "main;app.Service.handle", 3L), collapsed);
    }

    @Test
    void emptyFileIsRejectedWithItsReason() throws Exception {
        Path empty = Files.createFile(tmp.resolve("empty.jfr"));
        InvalidRecordingException e = assertThrows(InvalidRecordingException.class, () -> new Importer().read(empty));
        assertEquals("at offset 0: empty file", e.getMessage());
    }

    @Test
    void binaryGarbageIsRejectedAsAnUnknownFormat() throws Exception {
        Path junk = tmp.resolve("junk.bin");
        Files.write(junk, new byte[] {(byte) 0xca, (byte) 0xfe, 0, 1, 2, 3});
        InvalidRecordingException e = assertThrows(InvalidRecordingException.class, () -> new Importer().read(junk));
        assertTrue(e.getMessage().contains("unknown format"), e.getMessage());
        assertEquals(0, e.offset());
    }

    @Test
    void jfrMagicFollowedByNothingUsableNamesTheOffset() throws Exception {
        Path bad = tmp.resolve("bad.jfr");
        Files.write(bad, new byte[] {'F', 'L', 'R', 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 100});
        InvalidRecordingException e = assertThrows(InvalidRecordingException.class, () -> new Importer().read(bad));
        assertTrue(e.getMessage().startsWith("at offset 0: "), e.getMessage());
        assertTrue(e.getMessage().contains("less than a chunk header"), e.getMessage());
    }

    @Test
    void recordingCarriesThreadsFramesJvmFactsLabelsAndGcs() throws Exception {
        Profile p = new Importer().read(Recordings.jdk25Default());
        assertTrue(p.threads().size() > 2);
        assertEquals("workload", p.labels().get("service"), "workbench.Label events become labels");
        assertTrue(p.metadata().get("jvmVersion").contains("25"), p.metadata().toString());
        assertEquals("25", p.metadata().get("javaVersion").split("\\.")[0]);
        assertFalse(p.heap().gcs().isEmpty());
        assertTrue(p.heap().samples().stream().anyMatch(s -> s.source().equals("workbench.HeapSummary")),
                "workbench.HeapSummary readings become heap samples");
        assertTrue(p.heap().gcs().stream().anyMatch(g -> g.heapUsedBefore() > 0 && g.heapUsedAfter() > 0),
                "jdk.GarbageCollection joined with jdk.GCHeapSummary before/after");
        boolean workloadFrame = FoldedStacks.of(p, Kind.CPU, null, null, FrameNaming.DEFAULT).keySet().stream()
                .anyMatch(s -> s.contains("Workload.lambda$main$0"));
        assertTrue(workloadFrame, "cpu stacks name the workload's methods");
        long all = p.samples(Kind.CPU).size();
        long firstHalf = FoldedStacks.of(p, Kind.CPU, 0L, p.durationMillis() / 2, FrameNaming.DEFAULT).values().stream()
                .mapToLong(Long::longValue).sum();
        assertTrue(firstHalf > 0 && firstHalf < all, firstHalf + " of " + all);
    }

    @Test
    void asyncProfilerLiveObjectsAreUpscaledBySamplingInterval() throws Exception {
        Profile p = new Importer().read(Recordings.all().stream()
                .filter(f -> f.getFileName().toString().equals("ap25-jfrsync-profile.jfr")).findFirst().orElseThrow());
        var live = p.samples(Kind.LIVE);
        assertTrue(live.size() > 0);
        for (int i = 0; i < live.size(); i++) {
            assertTrue(live.objectClass(i) > 0, "live samples carry the object class");
        }
        assertEquals(24, org.jfrworkbench.importer.jfr.LiveUpscaling.upscale(24, 0));
        assertEquals(Math.round(1000 / -Math.expm1(-1000.0 / 65536)),
                org.jfrworkbench.importer.jfr.LiveUpscaling.upscale(1000, 65536));
    }

    private static void assertSameProfile(Profile a, Profile b) {
        assertEquals(a.sourceEvents(), b.sourceEvents());
        assertEquals(a.chunks(), b.chunks());
        for (Kind k : Kind.values()) {
            assertEquals(a.samples(k).totalWeight(), b.samples(k).totalWeight(), k.id());
        }
    }
}
