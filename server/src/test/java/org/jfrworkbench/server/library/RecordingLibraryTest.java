package org.jfrworkbench.server.library;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.jfrworkbench.analysis.ProfileData;
import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.server.catalog.RecordingInfo;
import org.jfrworkbench.server.catalog.RecordingNotFoundException;
import org.jfrworkbench.server.store.ProfileCodec;
import org.jfrworkbench.server.store.RecordingStore;
import org.jfrworkbench.testkit.JfrFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecordingLibraryTest {
    static final Path CHECKOUT = Path.of(System.getProperty("samples.dir", "../sample-recordings"), "checkout-before.jfr");
    static final String STACKS = "app.Main.main;app.Cart.total;java.util.HashMap.resize 7\napp.Main.main 2\n";

    @TempDir
    Path data;

    private RecordingLibrary open() throws IOException {
        return RecordingLibrary.open(data, new Importer(), 1L << 30);
    }

    private Path file(String name, String content) throws IOException {
        return Files.writeString(Files.createDirectories(data.resolveSibling(data.getFileName() + "-in")).resolve(name), content);
    }

    @Test
    void uploadLabelsJoinTheRecordingsOwnInItsInfoAndTheProfileStaysAsImported() throws Exception {
        String id;
        try (RecordingLibrary library = open()) {
            RecordingInfo info = library.importFile(CHECKOUT, null, Map.of("version", "after-fix", "team", "perf"), Kind.CPU)
                    .info();
            id = info.id();
            assertEquals("checkout", info.labels().get("service"), "the recording's own label");
            assertEquals("after-fix", info.labels().get("version"), "the uploader's label wins");
            assertEquals("perf", info.labels().get("team"));
            assertEquals("before", library.load(id).profile().labels().get("version"));
            assertEquals(1, library.list("version:after-fix AND service:checkout", 0, 10).total());
        }
        try (RecordingLibrary library = open()) {
            assertEquals("after-fix", library.info(id).labels().get("version"), "the info is stored with its labels");
            assertEquals("before", library.load(id).profile().labels().get("version"), "and the stored profile without");
        }
    }

    @Test
    void aRecordingsInvertedGraphsAndThreadListsArePreparedOnceItIsImportedOrLoadedWithoutAQuery() throws Exception {
        String id;
        try (RecordingLibrary library = open()) {
            id = library.importFile(CHECKOUT, null, Map.of(), Kind.CPU).info().id();
            ProfileData imported = library.loaded(id);
            awaitPrepared(imported, "after its import");
        }
        try (RecordingLibrary library = open()) {
            awaitPrepared(library.load(id), "after it was read from the store");
        }
    }

    @Test
    void aRunsInvertedGraphsAndThreadListsArePreparedOnceAPartIsAdded() throws Exception {
        try (RecordingLibrary library = open()) {
            String id;
            try (var in = Files.newInputStream(CHECKOUT)) {
                id = library.addPart(library.stage(in), new RecordingLibrary.RunPart("svc-1", 1, false, 0), null, Map.of())
                        .info().id();
            }
            awaitPrepared(library.loaded(id), "after the run's first part");
            try (var in = Files.newInputStream(CHECKOUT)) {
                library.addPart(library.stage(in), new RecordingLibrary.RunPart("svc-1", 2, true, 0), null, Map.of());
            }
            awaitPrepared(library.loaded(id), "after the run's next part");
        }
    }

    @Test
    void theProfileOfADeletedRecordingOrOfARunBeforeItsNextPartHasNothingMoreMadeForIt() throws Exception {
        try (RecordingLibrary library = open()) {
            String id = library.importFile(CHECKOUT, null, Map.of(), Kind.CPU).info().id();
            ProfileData imported = library.loaded(id);
            assertFalse(imported.discarded());
            library.delete(id);
            assertTrue(imported.discarded(), "its background work still queued is skipped");
            String run;
            try (var in = Files.newInputStream(CHECKOUT)) {
                run = library.addPart(library.stage(in), new RecordingLibrary.RunPart("svc-2", 1, false, 0), null,
                        Map.of()).info().id();
            }
            ProfileData first = library.loaded(run);
            try (var in = Files.newInputStream(CHECKOUT)) {
                library.addPart(library.stage(in), new RecordingLibrary.RunPart("svc-2", 2, true, 0), null, Map.of());
            }
            assertTrue(first.discarded(), "the run's profile before its second part");
            assertFalse(library.loaded(run).discarded(), "the run's profile now");
        }
    }

    private static void awaitPrepared(ProfileData data, String when) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!data.invertedGraphsPrepared()) {
            assertTrue(System.nanoTime() < deadline, "the tree's inverted part is made " + when);
            Thread.sleep(10);
        }
        while (!data.threadListsPrepared()) {
            assertTrue(System.nanoTime() < deadline, "each kind's samples are listed per thread " + when);
            Thread.sleep(10);
        }
    }

    @Test
    void aProfileOfAnEarlierVersionIsImportedAgainOnStart() throws Exception {
        String id;
        try (RecordingLibrary library = open()) {
            id = library.importFile(JfrFixture.recording("a"), "a.jfr", Map.of("team", "x"), Kind.CPU).info().id();
        }
        Path profile = data.resolve("recordings").resolve(id).resolve(RecordingStore.PROFILE);
        byte[] bytes = Files.readAllBytes(profile);
        bytes[7] = 1; // the version of the first format, whose samples had no state or source
        Files.write(profile, bytes);
        assertThrows(ProfileCodec.OutdatedProfileException.class, () -> ProfileCodec.read(profile));
        try (RecordingLibrary library = open()) {
            assertTrue(ProfileCodec.isCurrent(profile), "imported again from the original");
            assertEquals("jdk", library.info(id).kinds().get("cpu").source());
            assertEquals("x", library.info(id).labels().get("team"));
            assertEquals("a.jfr", library.info(id).name());
            assertEquals(library.info(id).kinds().get("cpu").samples(), library.load(id).profile().samples(Kind.CPU).size());
            assertEquals(1, library.list("team:x", 0, 10).total());
        }
    }

    @Test
    void aDeletedIndexIsRebuiltFromTheStoredRecordings() throws Exception {
        String id = importTwo();
        deleteRecursively(data.resolve("index"));
        assertSearchable(id);
    }

    @Test
    void aDamagedIndexIsReplacedAndRebuilt() throws Exception {
        String id = importTwo();
        try (Stream<Path> files = Files.list(data.resolve("index"))) {
            for (Path f : files.toList()) {
                if (!f.getFileName().toString().equals("write.lock")) {
                    Files.write(f, "not a lucene file".repeat(8).getBytes());
                }
            }
        }
        assertSearchable(id);
    }

    /** Imports the checkout sample and a collapsed file; returns the collapsed one's id. */
    private String importTwo() throws IOException {
        try (RecordingLibrary library = open()) {
            library.importFile(CHECKOUT, null, Map.of("team", "perf"), Kind.CPU);
            return library.importFile(file("stacks.txt", STACKS), null, Map.of(), Kind.CPU).info().id();
        }
    }

    private void assertSearchable(String id) throws IOException {
        try (RecordingLibrary library = open()) {
            assertEquals(2, library.list(null, 0, 10).total());
            assertEquals(1, library.list("team:perf", 0, 10).total());
            assertEquals(Map.of("team=perf", 1L), library.list(null, 0, 10).facets().get("labels").entrySet().stream()
                    .filter(e -> e.getKey().startsWith("team=")).collect(java.util.stream.Collectors.toMap(
                            Map.Entry::getKey, Map.Entry::getValue)));
            var hits = library.searchMethods("HashMap.resize", "cpu", 10);
            assertTrue(hits.hits().stream().anyMatch(h -> h.recording().id().equals(id)), hits.toString());
        }
        try (RecordingLibrary library = open()) {
            assertEquals(2, library.list(null, 0, 10).total(), "the rebuilt index was committed");
        }
    }

    @Test
    void aDeletedRecordingLeavesNoPieceAndNoIndexEntry() throws Exception {
        try (RecordingLibrary library = open()) {
            String id = library.importFile(file("stacks.txt", STACKS), "s", Map.of(), Kind.CPU).info().id();
            library.delete(id);
            assertThrows(RecordingNotFoundException.class, () -> library.info(id));
            assertThrows(RecordingNotFoundException.class, () -> library.delete(id));
            assertEquals(0, library.list(null, 0, 10).total());
            assertEquals(0, library.searchMethods("resize", null, 10).total());
            assertFalse(Files.exists(data.resolve("recordings").resolve(id)));
        }
        try (RecordingLibrary library = open()) {
            assertEquals(0, library.size());
            assertEquals(0, library.list(null, 0, 10).total());
        }
    }

    @Test
    void anUploadThatCannotBeImportedLeavesNothing() throws Exception {
        try (RecordingLibrary library = open()) {
            assertThrows(IOException.class, () -> library.importFile(file("bad.jfr", "FLR\0 not really"), null, Map.of(), Kind.CPU));
            assertEquals(0, library.size());
        }
        assertEquals(List.of(), filesUnder(data.resolve("recordings")));
        assertEquals(List.of(), filesUnder(data.resolve("tmp")));
    }

    @Test
    void theSameBytesTwiceAreOneRecording() throws Exception {
        try (RecordingLibrary library = open()) {
            RecordingLibrary.Imported first = library.importFile(file("a.txt", STACKS), "a", Map.of(), Kind.CPU);
            RecordingLibrary.Imported second = library.importFile(file("b.txt", STACKS), "b", Map.of(), Kind.CPU);
            assertTrue(first.created());
            assertFalse(second.created());
            assertEquals(first.info(), second.info());
            assertEquals(1, library.size());
        }
    }

    private static List<Path> filesUnder(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(Files::isRegularFile).toList();
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
