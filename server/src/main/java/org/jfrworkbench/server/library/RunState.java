package org.jfrworkbench.server.library;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.importer.jfr.RunImport;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.server.store.BlobStore;
import org.jfrworkbench.server.store.ProfileCodec;
import org.jfrworkbench.server.store.RecordingStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a run keeps beside its profile so that its next part is read alone ({@link RunImport}): the importer's state
 * and the open profile after the parts it names, with the run's time origin. It is written after the metadata that
 * counts its last part, so it is a cache that is checked on use: when it does not name exactly the run's counted parts
 * and origin (a crash between the two writes, a run made by an earlier version), or cannot be read, or the next part
 * is not after the run's last one, the part is added by reading the run's parts again.
 */
final class RunState {
    private static final Logger LOG = LoggerFactory.getLogger(RunState.class);
    private static final int MAGIC = 0x57425253; // "WBRS"
    private static final int VERSION = 1;

    private RunState() {
    }

    /** Writes the run's state (call before it is finished) for these parts and origin to a local file. */
    static void write(Path file, List<Integer> parts, long runStartMillis, RunImport run) throws IOException {
        ByteArrayOutputStream carry = new ByteArrayOutputStream();
        try (DataOutputStream c = new DataOutputStream(carry)) {
            run.writeState(c);
        }
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16))) {
            out.writeInt(MAGIC);
            out.writeInt(VERSION);
            out.writeLong(runStartMillis);
            out.writeInt(parts.size());
            for (int p : parts) {
                out.writeInt(p);
            }
            out.writeInt(carry.size());
            carry.writeTo(out);
            // the profile last: its reader buffers ahead
            ProfileCodec.write(run.profile(), out);
        }
    }

    /**
     * The run as its stored state left it, when that state is for exactly these parts and origin; null when there is
     * none that fits (the caller reads the parts again).
     */
    static RunImport resume(RecordingStore store, Importer importer, String id, List<Integer> parts, long runStartMillis)
            throws IOException {
        try (BlobStore.Blob blob = store.openRunState(id)) {
            if (blob == null) {
                return null;
            }
            DataInputStream in = new DataInputStream(new BufferedInputStream(blob.content(), 1 << 16));
            if (in.readInt() != MAGIC || in.readInt() != VERSION || in.readLong() != runStartMillis) {
                return null;
            }
            int n = in.readInt();
            if (n < 0 || n > Runs.MAX_PART + 1) {
                return null;
            }
            List<Integer> named = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                named.add(in.readInt());
            }
            if (!named.equals(parts)) {
                return null;
            }
            int carrySize = in.readInt();
            if (carrySize < 0 || carrySize > blob.size()) {
                return null;
            }
            byte[] carry = in.readNBytes(carrySize);
            Profile open = ProfileCodec.readOpen(in, blob.size());
            return importer.resumeRun(open, new DataInputStream(new ByteArrayInputStream(carry)));
        } catch (IOException | RuntimeException e) {
            // a damaged or outdated state costs one reading of the run's parts, which writes a new one
            LOG.warn("run {}: its stored state is not used ({}); its parts are read again", id, e.toString());
            return null;
        }
    }
}
