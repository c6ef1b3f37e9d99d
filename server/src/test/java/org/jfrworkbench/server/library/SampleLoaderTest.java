package org.jfrworkbench.server.library;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;

import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.server.store.RecordingStore;
import org.jfrworkbench.testkit.JfrFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SampleLoaderTest {
    @TempDir
    Path dir;

    @Test
    void samplesAreImportedWithTheSampleLabelAndBrokenOnesAreSkipped() throws Exception {
        Path samples = Files.createDirectories(dir.resolve("samples"));
        Files.copy(JfrFixture.recording("a"), samples.resolve("demo.jfr"));
        Files.write(samples.resolve("broken.jfr"), new byte[] {'F', 'L', 'R', 0, 9, 9});
        Files.writeString(samples.resolve("notes.txt"), "not a sample");
        try (RecordingStore store = new RecordingStore(dir.resolve("data"), new Importer(), Long.MAX_VALUE)) {
            assertEquals(1, SampleLoader.loadFrom(store, samples));
            var page = store.index().list("sample:true", 0, 10);
            assertEquals(1, page.total());
            assertEquals("demo.jfr", page.recordings().get(0).name());
        }
    }

    @Test
    void noBundledSamplesMeansNothingToLoad() throws Exception {
        try (RecordingStore store = new RecordingStore(dir.resolve("data"), new Importer(), Long.MAX_VALUE)) {
            int loaded = SampleLoader.load(store);
            assertEquals(loaded, store.size());
        }
    }
}
