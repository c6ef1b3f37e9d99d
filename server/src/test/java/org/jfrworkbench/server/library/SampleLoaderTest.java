package org.jfrworkbench.server.library;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;

import org.jfrworkbench.importer.Importer;
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
        try (RecordingLibrary library = RecordingLibrary.open(dir.resolve("data"), new Importer(), Long.MAX_VALUE)) {
            assertEquals(1, SampleLoader.loadFrom(library, samples));
            var page = library.list("sample:true", 0, 10);
            assertEquals(1, page.total());
            assertEquals("demo.jfr", page.recordings().get(0).name());
        }
    }

    @Test
    void noBundledSamplesMeansNothingToLoad() throws Exception {
        try (RecordingLibrary library = RecordingLibrary.open(dir.resolve("data"), new Importer(), Long.MAX_VALUE)) {
            int loaded = SampleLoader.load(library);
            assertEquals(loaded, library.size());
        }
    }
}
