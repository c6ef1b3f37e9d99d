package org.jfrworkbench.importer.jfr;

import java.io.IOException;
import java.nio.file.Path;

import org.jfrworkbench.importer.InvalidRecordingException;
import org.jfrworkbench.model.Profile;

/** Reads every chunk of a JFR file into a profile. (Being written: the chunk parser lands next.) */
public final class JfrImporter {
    private JfrImporter() {
    }

    public static void read(Path file, Profile profile) throws IOException {
        throw new InvalidRecordingException(0, "JFR import is not available yet");
    }
}
