package org.jfrworkbench.server.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/**
 * Encoded flame graph responses, least recently used first out within a byte budget. Recordings never change
 * (the id is a hash of the bytes), so an entry is valid until its recording is deleted; opening the same view
 * again (a permalink, back/forward, a second user) then costs no tree build and no encoding.
 */
final class FlameResponseCache {
    /** What a response depends on: the recording and every parameter of the query, parsed. */
    record Key(String id, Object query, String format) {
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

        /** Counted once, at put: the body plus room for its gzip form (these compress to well under half). */
        long bytes() {
            return body.length + body.length / 2L;
        }
    }

    private final long budget;
    private long used;
    private final LinkedHashMap<Key, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);

    FlameResponseCache(long budget) {
        this.budget = budget;
    }

    synchronized Entry get(Key key) {
        return entries.get(key);
    }

    /** Keeps the entry unless it alone would take more than a quarter of the budget. */
    synchronized void put(Key key, Entry entry) {
        if (entry.bytes() > budget / 4) {
            return;
        }
        Entry old = entries.put(key, entry);
        if (old != null) {
            used -= old.bytes();
        }
        used += entry.bytes();
        Iterator<Map.Entry<Key, Entry>> it = entries.entrySet().iterator();
        while (used > budget && it.hasNext()) {
            used -= it.next().getValue().bytes();
            it.remove();
        }
    }

    synchronized void removeRecording(String id) {
        Iterator<Map.Entry<Key, Entry>> it = entries.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<Key, Entry> e = it.next();
            if (e.getKey().id().equals(id)) {
                used -= e.getValue().bytes();
                it.remove();
            }
        }
    }
}
