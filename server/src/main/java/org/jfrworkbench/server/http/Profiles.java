package org.jfrworkbench.server.http;

import java.io.IOException;

import org.jfrworkbench.analysis.ProfileData;
import org.jfrworkbench.server.catalog.RecordingInfo;
import org.jfrworkbench.server.library.RecordingLibrary;

/** The recordings' profiles as every handler reads them: from the library's cache, or decoded under the gate. */
final class Profiles {
    private final RecordingLibrary library;
    private final WorkGate gate;

    Profiles(RecordingLibrary library, WorkGate gate) {
        this.library = library;
        this.gate = gate;
    }

    /** The profile, read under the gate when it is not in memory: decoding it allocates about its size a few times. */
    ProfileData load(String id) throws IOException {
        RecordingInfo info = library.info(id);
        ProfileData cached = library.loaded(info.id());
        if (cached != null) {
            return cached; // nothing to decode: no reason to wait behind heavy work
        }
        try {
            return gate.run("loading a recording", info.sizeBytes() * 4, () -> library.load(info.id()));
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
