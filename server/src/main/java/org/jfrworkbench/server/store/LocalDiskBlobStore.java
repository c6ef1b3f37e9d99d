package org.jfrworkbench.server.store;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.UUID;

/**
 * Blobs as files under a root directory, a key's segments as its path. A blob is written to a temporary file,
 * fsynced and renamed over its key's file, then the directory is fsynced; directories appear as keys need them and
 * go when their last key is deleted.
 */
public final class LocalDiskBlobStore implements BlobStore {
    /** A rename races with a delete that removes the emptied directory: that many tries before giving up. */
    private static final int RENAME_TRIES = 5;

    private final Path root;
    private final Path tmp;

    /**
     * root: where the blobs live. tmp: a directory on the same file system for writes in progress; its owner empties
     * it on start, since a crash leaves partial files there (and only there).
     */
    public LocalDiskBlobStore(Path root, Path tmp) throws IOException {
        this.root = Files.createDirectories(root).toAbsolutePath();
        this.tmp = Files.createDirectories(tmp).toAbsolutePath();
    }

    @Override
    public void put(String key, Content content) throws IOException {
        Path target = path(key);
        Path temp = tempFile();
        try {
            try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                OutputStream out = new BufferedOutputStream(Channels.newOutputStream(ch), 1 << 16);
                content.writeTo(out);
                out.flush();
                ch.force(true);
            }
            moveIntoPlace(temp, target);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    @Override
    public void putFile(String key, Path file) throws IOException {
        Path target = path(key);
        Path temp = tempFile();
        try {
            try {
                // a second name for the same bytes: no copy, and the caller may go on reading its file
                Files.createLink(temp, file);
            } catch (UnsupportedOperationException | FileSystemException e) {
                Files.copy(file, temp);
            }
            try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.WRITE)) {
                ch.force(true);
            }
            moveIntoPlace(temp, target);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    @Override
    public Blob open(String key) throws IOException {
        FileChannel ch = FileChannel.open(path(key), StandardOpenOption.READ);
        try {
            return new Blob(Channels.newInputStream(ch), ch.size());
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        // walk only the directory the prefix names completely
        int slash = prefix.lastIndexOf('/');
        Path start = slash < 0 ? root : root.resolve(prefix.substring(0, slash));
        List<String> keys = new ArrayList<>();
        if (!Files.isDirectory(start)) {
            return keys;
        }
        Files.walkFileTree(start, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                String key = root.relativize(file).toString().replace(file.getFileSystem().getSeparator(), "/");
                if (attrs.isRegularFile() && key.startsWith(prefix) && KEY.matcher(key).matches()) {
                    keys.add(key);
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE; // deleted while we walked
                }
                throw e;
            }
        });
        keys.sort(null);
        return keys;
    }

    @Override
    public void delete(String key) throws IOException {
        Path file = path(key);
        if (!Files.deleteIfExists(file)) {
            return;
        }
        fsyncDirectory(file.getParent());
        // empty directories go with their last key; one that got a new key meanwhile stays
        for (Path dir = file.getParent(); !dir.equals(root); dir = dir.getParent()) {
            try {
                Files.delete(dir);
            } catch (IOException e) {
                break;
            }
        }
    }

    @Override
    public void close() {
        // nothing held open
    }

    private Path path(String key) {
        return root.resolve(BlobStore.checkKey(key));
    }

    private Path tempFile() {
        return tmp.resolve("blob-" + UUID.randomUUID() + ".tmp");
    }

    /** Renames a durable temporary file to its key's path and makes the new directory entry durable. */
    private void moveIntoPlace(Path temp, Path target) throws IOException {
        for (int attempt = 1; ; attempt++) {
            try {
                createDirectories(target.getParent());
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                break;
            } catch (NoSuchFileException e) {
                if (attempt == RENAME_TRIES || !Files.exists(temp)) {
                    throw e;
                }
            }
        }
        fsyncDirectory(target.getParent());
    }

    /** Creates the missing directories down to dir, each made durable in its parent. */
    private void createDirectories(Path dir) throws IOException {
        Deque<Path> missing = new ArrayDeque<>();
        for (Path d = dir; !d.equals(root) && !Files.isDirectory(d); d = d.getParent()) {
            missing.push(d);
        }
        for (Path d : missing) {
            try {
                Files.createDirectory(d);
            } catch (java.nio.file.FileAlreadyExistsException e) {
                continue;
            }
            fsyncDirectory(d.getParent());
        }
    }

    private static void fsyncDirectory(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }
}
