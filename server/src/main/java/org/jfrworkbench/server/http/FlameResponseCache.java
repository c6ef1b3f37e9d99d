package org.jfrworkbench.server.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

import org.jfrworkbench.server.library.ByteBudgetCache;

/**
 * Encoded flame graph and diff responses, least recently used first out within a byte budget. An uploaded recording
 * never changes (the id is a hash of the bytes); a run grows, and each of its versions (its info's updatedMillis,
 * read before its profile is loaded) is a key of its own, so an entry is valid until its recording is deleted or
 * outgrown; opening the same view
 * again (a permalink, back/forward, a second user) then costs no tree build and no encoding. A diff is dropped
 * when either of its recordings is deleted.
 */
final class FlameResponseCache {
    /**
     * What a response depends on: the recording (a diff's baseline), a diff's target (else null), every parameter
     * of the query, parsed, and the versions of both recordings.
     */
    record Key(String id, String otherId, Object query, String format, long version, long otherVersion) {
        Key(String id, Object query, String format, long version) {
            this(id, null, query, format, version, 0);
        }

        boolean involves(String recording) {
            return id.equals(recording) || recording.equals(otherId);
        }
    }

    /** An encoded body and, once a client asked for it, its gzip form. */
    static final class Entry {
        final byte[] body;
        final String contentType;
        private byte[] gzip;

        Entry(byte[] body, String contentType) {
            this.body = body;
            this.contentType = contentType;
        }

        synchronized byte[] gzip() {
            if (gzip == null) {
                // level 1: these bodies are megabytes, level 6 costs more time than it saves on a LAN
                ByteArrayOutputStream bytes = new ByteArrayOutputStream(body.length / 4);
                try (GZIPOutputStream out = new GZIPOutputStream(bytes, 1 << 16) {
                    {
                        def.setLevel(Deflater.BEST_SPEED);
                    }
                }) {
                    out.write(body);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                gzip = bytes.toByteArray();
            }
            return gzip;
        }

        /** Counted once, at put: the body plus room for a gzip form as large as the body (its worst case). */
        long bytes() {
            return 2L * body.length;
        }
    }

    private final ByteBudgetCache<Key, Entry> entries;

    FlameResponseCache(long budget) {
        entries = new ByteBudgetCache<>(budget, Entry::bytes);
    }

    Entry get(Key key) {
        return entries.get(key);
    }

    /** Keeps the entry unless it alone would take more than a quarter of the budget. */
    void put(Key key, Entry entry) {
        if (entry.bytes() <= entries.budget() / 4) {
            entries.put(key, entry);
        }
    }

    void removeRecording(String id) {
        entries.removeIf(key -> key.involves(id));
    }
}
