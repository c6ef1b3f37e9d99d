package org.jfrworkbench.server.store;

import java.io.IOException;
import java.nio.file.Path;

/** Lets tests remove a directory tree the way the store does. */
public final class RecordingStoreTestAccess {
    private RecordingStoreTestAccess() {
    }

    public static void deleteTree(Path dir) throws IOException {
        RecordingStore.deleteTree(dir);
    }
}
