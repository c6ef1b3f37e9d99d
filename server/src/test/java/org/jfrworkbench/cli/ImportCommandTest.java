package org.jfrworkbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.file.Files;
import java.nio.file.Path;

import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.server.library.RecordingLibrary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ImportCommandTest {
    @TempDir
    Path dir;

    @Test
    void importedFilesAreStoredWithLabelsLikeUploads() throws Exception {
        Path stacks = Files.writeString(dir.resolve("app.collapsed"), "main;work;HashMap.resize 7\nmain;idle 3\n");
        Path data = dir.resolve("data");
        int code = new CommandLine(new Workbench()).execute("import", stacks.toString(), "--data", data.toString(),
                "--labels", "service=shop");
        assertEquals(0, code);
        assertEquals(0, new CommandLine(new Workbench()).execute("import", stacks.toString(), "--data", data.toString()),
                "the same bytes again are already stored");
        try (RecordingLibrary library = RecordingLibrary.open(data, new Importer(), Long.MAX_VALUE)) {
            assertEquals(1, library.size());
            var page = library.list("service:shop", 0, 10);
            assertEquals(1, page.total());
            assertEquals("app.collapsed", page.recordings().get(0).name());
            assertEquals(10, page.recordings().get(0).kinds().get("cpu").weight());
        }
    }

    @Test
    void badFilesExitNonZeroAndStoreNothing() throws Exception {
        Path garbage = Files.write(dir.resolve("x.jfr"), new byte[] {1, 2, 3, 0, 5});
        Path data = dir.resolve("data");
        assertNotEquals(0, new CommandLine(new Workbench()).execute("import", garbage.toString(), "--data", data.toString()));
        assertNotEquals(0, new CommandLine(new Workbench()).execute("import", dir.resolve("missing.jfr").toString(),
                "--data", data.toString()));
        assertNotEquals(0, new CommandLine(new Workbench()).execute("import", garbage.toString(), "--data", data.toString(),
                "--labels", "oops"));
        try (RecordingLibrary library = RecordingLibrary.open(data, new Importer(), Long.MAX_VALUE)) {
            assertEquals(0, library.size());
            assertEquals(0, library.list(null, 0, 10).total());
        }
    }
}
