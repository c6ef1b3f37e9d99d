package org.jfrworkbench.importer.jfr;

import java.util.Arrays;

/**
 * The events of one chunk counted by type as they are read, and those of types its metadata does not declare. One
 * thread counts at a time: the sequential reader, or an {@link EventDecoder} until it has finished.
 */
final class EventCounts {
    private final ChunkTypes types;
    final long[] byType;
    long unknown;

    EventCounts(ChunkTypes types) {
        this.types = types;
        this.byType = new long[types.size()];
    }

    /** Counts one event by its type id; its declared type, or null (ids 0 and 1: metadata and constant pools). */
    JfrType count(long typeId) {
        if (typeId <= 1) {
            return null;
        }
        JfrType t = types.byId(typeId);
        if (t == null) {
            unknown++;
        } else {
            byType[t.index]++;
        }
        return t;
    }

    void clear() {
        Arrays.fill(byType, 0);
        unknown = 0;
    }
}
