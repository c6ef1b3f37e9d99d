package org.jfrworkbench.server.store;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Named blobs: what the workbench keeps of each recording (original bytes, derived profile, metadata, and a run's
 * chunks). The local disk is one implementation; the contract is the one object stores (S3-compatible) give, so that
 * one fits behind it:
 * <ul>
 *   <li>{@link #put} replaces the blob under its key as a whole: a reader sees the old content, none or the new one,
 *       never a part. When it returns, the blob is durable (it survives a crash of the process and of the machine).</li>
 *   <li>Nothing is atomic across keys and there are no directories to create, rename or remove. A caller that writes
 *       several blobs that belong together writes one of them last, as its commit marker, and deletes it first.</li>
 *   <li>Keys are {@code /}-separated segments of letters, digits, {@code . _ -} (no empty, {@code .} or {@code ..}
 *       segment), so they are safe as file paths and as object names.</li>
 *   <li>{@link #list} returns every key that starts with a prefix, in lexicographic order; deleting a missing key is
 *       no error.</li>
 * </ul>
 */
public interface BlobStore extends Closeable {
    Pattern KEY = Pattern.compile("(?!\\.{1,2}(/|$))[A-Za-z0-9._-]+(/(?!\\.{1,2}(/|$))[A-Za-z0-9._-]+)*");

    /** Writes a blob's bytes to a stream, which it must not close. */
    @FunctionalInterface
    interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    /** An open blob: its bytes and their count. */
    record Blob(InputStream content, long size) implements Closeable {
        @Override
        public void close() throws IOException {
            content.close();
        }
    }

    /** Stores what content writes under key, replacing any blob there; durable when it returns. */
    void put(String key, Content content) throws IOException;

    /** Stores a copy of a local file's bytes under key (the file stays the caller's); durable when it returns. */
    void putFile(String key, Path file) throws IOException;

    /** Opens a blob for reading; {@link NoSuchFileException} when there is none under key. */
    Blob open(String key) throws IOException;

    /** Every key that starts with prefix ("" for all), in lexicographic order. */
    List<String> list(String prefix) throws IOException;

    /** Removes the blob under key, if there is one. */
    void delete(String key) throws IOException;

    /** The key itself, or an IllegalArgumentException when it is not a valid key. */
    static String checkKey(String key) {
        if (key == null || !KEY.matcher(key).matches()) {
            throw new IllegalArgumentException("not a blob key: '" + key + "'");
        }
        return key;
    }
}
