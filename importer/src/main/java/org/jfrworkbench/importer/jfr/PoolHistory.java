package org.jfrworkbench.importer.jfr;

import java.util.Arrays;

/**
 * The raw bytes of the constant-pool entries read since the key space last changed meaning. JFR writers (the JDK,
 * async-profiler) keep constant ids stable for a whole recording and repeat in each chunk the entries it needs. So
 * when a chunk's metadata is byte-identical to the previous chunk's, an entry whose bytes equal the stored entry of
 * the same type and key means what it meant before: it is skipped, and the pools, the stack traces and the
 * key-to-model-id caches of earlier chunks stay valid; only new keys are read and resolved. An entry that
 * contradicts the history makes the chunk start over from scratch (see {@link ChunkReader#readPools}).
 * Memory is bounded by the pool bytes of the file.
 */
final class PoolHistory {
    private byte[] metadata = new byte[0];
    private int metadataLength = -1;
    /** per type index: key -> entry number */
    private LongIntMap[] entries = new LongIntMap[0];
    private int[] starts = new int[256];
    private int[] ends = new int[256];
    private byte[] arena = new byte[1 << 16];
    private int arenaSize;
    private int count;
    /** Set when a chunk read from scratch repeated a key with other bytes: its keys are not stable. */
    private boolean unstable;

    /**
     * Starts a chunk. True when its entries may be checked against the history (same metadata as the previous
     * chunk); otherwise the history starts over with this chunk.
     */
    boolean startChunk(byte[] chunk, int metadataStart, int metadataEnd, int typeCount) {
        int length = metadataEnd - metadataStart;
        boolean same = !unstable && count > 0 && length == metadataLength
                && Arrays.equals(metadata, 0, length, chunk, metadataStart, metadataEnd);
        if (!same) {
            clear(typeCount);
            metadata = Arrays.copyOfRange(chunk, metadataStart, metadataEnd);
            metadataLength = length;
        }
        return same;
    }

    /** The stored entry of this type and key, or -1. */
    int find(int typeIndex, long key) {
        LongIntMap byKey = typeIndex < entries.length ? entries[typeIndex] : null;
        return byKey == null ? -1 : byKey.get(key);
    }

    /** Whether the chunk holds the stored entry's bytes at start. */
    boolean sameBytes(int entry, byte[] chunk, int start, int limit) {
        int length = ends[entry] - starts[entry];
        return length <= limit - start && Arrays.equals(arena, starts[entry], ends[entry], chunk, start, start + length);
    }

    int length(int entry) {
        return ends[entry] - starts[entry];
    }

    /** Stores an entry just read; a key repeated with other bytes marks the key space unstable. */
    void record(int typeIndex, long key, byte[] chunk, int start, int end) {
        if (typeIndex >= entries.length) {
            unstable = true;
            return;
        }
        LongIntMap byKey = entries[typeIndex];
        if (byKey == null) {
            byKey = entries[typeIndex] = new LongIntMap();
        }
        int known = byKey.get(key);
        if (known >= 0) {
            if (ends[known] - starts[known] != end - start
                    || !Arrays.equals(arena, starts[known], ends[known], chunk, start, end)) {
                unstable = true;
            }
            return;
        }
        byKey.put(key, add(chunk, start, end));
    }

    private int add(byte[] chunk, int start, int end) {
        int length = end - start;
        if (arena.length - arenaSize < length) {
            arena = Arrays.copyOf(arena, Math.max(arena.length * 2, arenaSize + length));
        }
        System.arraycopy(chunk, start, arena, arenaSize, length);
        if (count == starts.length) {
            starts = Arrays.copyOf(starts, count * 2);
            ends = Arrays.copyOf(ends, count * 2);
        }
        starts[count] = arenaSize;
        ends[count] = arenaSize + length;
        arenaSize += length;
        return count++;
    }

    /** Forgets every entry (the next chunk starts over), keeping the arrays. */
    void clear(int typeCount) {
        entries = new LongIntMap[typeCount];
        arenaSize = 0;
        count = 0;
        unstable = false;
    }
}
