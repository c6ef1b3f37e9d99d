package org.jfrworkbench.server.library;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The data dir's scratch area, {@code tmp/}: uploads arrive here while their hash is computed, and writes in progress
 * wait here until they are renamed into place. Nothing in it is committed, so it is emptied on start.
 */
final class Staging {
    private final Path dir;

    Staging(Path dir) throws IOException {
        this.dir = dir;
        deleteTree(dir);
        Files.createDirectories(dir);
    }

    Path dir() {
        return dir;
    }

    /** Streams an upload into a fresh file, hashing on the way; throws when it exceeds maxBytes and keeps nothing. */
    StagedUpload stage(InputStream in, long maxBytes) throws IOException {
        long started = System.nanoTime();
        Path file = dir.resolve("upload-" + UUID.randomUUID());
        try {
            MessageDigest sha = sha256();
            long size = 0;
            byte[] buf = new byte[1 << 16];
            try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.CREATE_NEW)) {
                int r;
                while ((r = in.read(buf)) > 0) {
                    size += r;
                    if (size > maxBytes) {
                        throw new UploadTooLargeException(maxBytes);
                    }
                    sha.update(buf, 0, r);
                    out.write(buf, 0, r);
                    if (size >= 1 << 16 && size - r < 1 << 16) { // once per upload, mid-body
                        CrashPoint.reached("upload");
                    }
                }
            }
            return new StagedUpload(file, HexFormat.of().formatHex(sha.digest()), size, System.nanoTime() - started);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(file);
            throw e;
        }
    }

    /** A name for a new file in the scratch area (not created); the caller deletes it. */
    Path newFile(String prefix) {
        return dir.resolve(prefix + UUID.randomUUID());
    }

    void discard(StagedUpload staged) throws IOException {
        Files.deleteIfExists(staged.file());
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        List<Path> paths = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.forEach(paths::add);
        }
        paths.sort(Comparator.reverseOrder());
        for (Path p : paths) {
            Files.deleteIfExists(p);
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
