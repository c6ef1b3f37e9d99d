package org.jfrworkbench.server.library;

import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Enumeration;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.regex.Pattern;

import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.importer.jfr.RunImport;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.server.store.BlobStore;
import org.jfrworkbench.server.store.RecordingStore;

/**
 * What makes the parts of a run one recording: its id, derived from the run key alone (so every part, after any
 * restart of server or agent, finds it), and its profile, the import of its parts' chunks concatenated in part order
 * (exactly what importing one file of those chunks gives).
 */
public final class Runs {
    /** Run keys: what an agent or a browser names a run by. */
    public static final Pattern KEY = Pattern.compile("[A-Za-z0-9._:-]{1,128}");
    /** Part numbers run from 0 to this. */
    public static final int MAX_PART = 1_000_000;

    private Runs() {
    }

    /** The full SHA-256 (hex) of {@code "run:" + runKey}; its first 16 digits are the run's recording id. */
    public static String sha256(String runKey) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(("run:" + runKey).getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String id(String runKey) {
        return sha256(runKey).substring(0, RecordingLibrary.ID_LENGTH);
    }

    /** Whether a file starts as a JFR chunk does: only those can be appended to a run's chunks. */
    static boolean isJfr(Path file) throws IOException {
        byte[] magic = new byte[4];
        try (InputStream in = Files.newInputStream(file)) {
            return in.readNBytes(magic, 0, 4) == 4 && magic[0] == 'F' && magic[1] == 'L' && magic[2] == 'R' && magic[3] == 0;
        }
    }

    /** Whether the stored part holds exactly the bytes whose SHA-256 is sha256 (read through, bounded by its size). */
    static boolean sameBytes(RecordingStore store, String id, int part, String sha256) throws IOException {
        try (BlobStore.Blob blob = store.openPart(id, part)) {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[1 << 16];
            for (int n; (n = blob.content().read(buf)) > 0; ) {
                digest.update(buf, 0, n);
            }
            return HexFormat.of().formatHex(digest.digest()).equals(sha256);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Imports the stored parts, in the given order, as one JFR file of their chunks; runStartMillis (0 = none) pins
     * where the run's time starts. The parts are copied into the scratch area one after the other, opened one at a time.
     */
    static Profile importParts(RecordingStore store, Staging staging, Importer importer, String id, List<Integer> parts,
                               long runStartMillis) throws IOException {
        StagedUpload joined;
        try (InputStream in = openParts(store, id, parts)) {
            joined = staging.stage(in, Long.MAX_VALUE);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        try {
            return importer.readRun(joined.file(), runStartMillis * 1_000_000);
        } finally {
            staging.discard(joined);
        }
    }

    /**
     * Reads the stored parts and a new one (part number part, from a local file) in part order as one JFR file of
     * their chunks, leaving the run open: what a part is added by when the run's kept state does not fit it
     * ({@link RunState}).
     */
    static RunImport readParts(RecordingStore store, Staging staging, Importer importer, String id, List<Integer> stored,
                               int part, Path partFile) throws IOException {
        List<Integer> parts = new java.util.ArrayList<>(stored);
        parts.add(part);
        parts.sort(null);
        StagedUpload joined;
        try (InputStream in = openParts(store, id, parts, part, partFile)) {
            joined = staging.stage(in, Long.MAX_VALUE);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        try {
            RunImport run = importer.startRun();
            importer.readRunPart(run, joined.file());
            return run;
        } finally {
            staging.discard(joined);
        }
    }

    /** The stored parts' bytes one after the other: the run as one JFR file. Each part is opened when it is reached. */
    static InputStream openParts(RecordingStore store, String id, List<Integer> parts) {
        return openParts(store, id, parts, -1, null);
    }

    /** As {@link #openParts(RecordingStore, String, List)}, with part number local read from a local file instead. */
    private static InputStream openParts(RecordingStore store, String id, List<Integer> parts, int local, Path localFile) {
        Iterator<Integer> next = parts.iterator();
        Enumeration<InputStream> streams = new Enumeration<>() {
            @Override
            public boolean hasMoreElements() {
                return next.hasNext();
            }

            @Override
            public InputStream nextElement() {
                try {
                    int part = next.next();
                    return part == local ? Files.newInputStream(localFile) : store.openPart(id, part).content();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        };
        return new SequenceInputStream(streams);
    }
}
