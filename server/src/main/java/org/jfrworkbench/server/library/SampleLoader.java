package org.jfrworkbench.server.library;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.jfrworkbench.model.Kind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Imports the sample recordings bundled under {@code /samples} on the classpath (there may be none). */
public final class SampleLoader {
    private static final Logger LOG = LoggerFactory.getLogger(SampleLoader.class);

    private SampleLoader() {
    }

    /** Imports every bundled sample; returns how many were imported. A broken sample is logged and skipped. */
    public static int load(RecordingLibrary library) throws IOException {
        URL url = SampleLoader.class.getResource("/samples");
        if (url == null) {
            return 0;
        }
        URI uri;
        try {
            uri = url.toURI();
        } catch (URISyntaxException e) {
            throw new IOException(e);
        }
        if ("jar".equals(uri.getScheme())) {
            try (FileSystem fs = FileSystems.newFileSystem(uri, Map.of())) {
                return loadFrom(library, fs.getPath("/samples"));
            }
        }
        return loadFrom(library, Path.of(uri));
    }

    /** Imports the .jfr and .jfr.gz files of dir (a directory or a path inside the jar). */
    static int loadFrom(RecordingLibrary library, Path dir) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.getFileName().toString().matches(".*\\.jfr(\\.gz)?")).sorted().toList();
        }
        int n = 0;
        for (Path f : files) {
            String name = f.getFileName().toString();
            try (InputStream in = Files.newInputStream(f)) {
                library.add(library.stage(in), name, Map.of("sample", "true"), Kind.CPU);
                n++;
            } catch (IOException | RuntimeException e) {
                LOG.warn("sample {} was not imported: {}", name, e.getMessage());
            }
        }
        return n;
    }
}
