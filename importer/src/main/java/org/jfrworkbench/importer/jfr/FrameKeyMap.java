package org.jfrworkbench.importer.jfr;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Map from a frame's (method, line, frame type), as a chunk's keys or as model ids, to its model frame id: stacks
 * share most of their frames, so each distinct frame is resolved once. It is probed once per frame of every stack in
 * the pool, millions of times per recording, and the probes go all over the table, so its size decides its speed:
 * while every key and id is small (methods below 2^20, lines below 2^16: async-profiler's method keys and every
 * model method id) a slot is one long holding both, and the table of a recording's tens of thousands of frames stays
 * in or near the processor's second-level cache. The first key too large for that (the JDK's method keys hold a
 * class id) moves every entry to slots of two longs, key and id; keys that do not even pack into a long go to a hash
 * map of their own.
 */
final class FrameKeyMap {
    /** Compact slots: key << 24 | (index + 1), 0 = free; null once the map holds a key or index too large for it. */
    private long[] compact = new long[4096];
    /** Wide slots, pairs of (packed key, index + 1), index + 1 == 0 marking a free slot; used once compact is null. */
    private long[] table;
    private int size;
    /** Entries {@link #expect} announced: a growth goes straight to a table that holds them. */
    private int expected;
    private final Map<Wide, Integer> wide = new HashMap<>();

    private record Wide(long method, int line, long type) {
    }

    private static final int INDEX_BITS = 24;
    private static final long INDEX_MASK = (1L << INDEX_BITS) - 1;

    /** Whether the key packs into one long, see {@link #pack}. */
    static boolean packs(long method, int line, long type) {
        return (method >>> 32) == 0 && (line >>> 24) == 0 && (type >>> 8) == 0;
    }

    static long pack(long method, int line, long type) {
        return method << 32 | (long) line << 8 | type;
    }

    /** The 40-bit form of a packed key (method below 2^20, line below 2^16, type below 16), or -1. */
    private static long compactKey(long key) {
        long method = key >>> 32;
        long line = key >>> 8 & 0xffffff;
        long type = key & 0xff;
        return (method >>> 20) == 0 && (line >>> 16) == 0 && (type >>> 4) == 0 ? method << 20 | line << 4 | type : -1;
    }

    /** The index of a packed key, or -1. */
    int get(long key) {
        long[] c = compact;
        if (c != null) {
            long k = compactKey(key);
            if (k < 0) {
                return -1;
            }
            int mask = c.length - 1;
            for (int i = hash(k) & mask; ; i = (i + 1) & mask) {
                long slot = c[i];
                if (slot == 0) {
                    return -1;
                }
                if (slot >>> INDEX_BITS == k) {
                    return (int) (slot & INDEX_MASK) - 1;
                }
            }
        }
        long[] t = table;
        int mask = (t.length >>> 1) - 1;
        for (int i = hash(key) & mask; ; i = (i + 1) & mask) {
            long v = t[2 * i + 1];
            if (v == 0) {
                return -1;
            }
            if (t[2 * i] == key) {
                return (int) v - 1;
            }
        }
    }

    /** Adds a packed key that is not in the map. */
    void put(long key, int index) {
        if (compact != null) {
            long k = compactKey(key);
            if (k >= 0 && index + 1L < INDEX_MASK) {
                if ((size + 1) * 4 > compact.length * 3L) {
                    compact = growCompact(compact, Math.max(size + 1, expected));
                }
                insertCompact(compact, k << INDEX_BITS | (index + 1L));
                size++;
                return;
            }
            widen();
        }
        if ((size + 1) * 2 > table.length >>> 1) {
            table = growTable(table, Math.max(size + 1, expected));
        }
        insert(table, key, index + 1L);
        size++;
    }

    /**
     * About n entries are coming: the table, when it next grows, is made for them at once instead of doubling its way
     * there (each doubling copies the table and leaves the old one to the collector).
     */
    void expect(int n) {
        expected = n;
    }

    int getWide(long method, int line, long type) {
        Integer i = wide.get(new Wide(method, line, type));
        return i == null ? -1 : i;
    }

    void putWide(long method, int line, long type, int index) {
        wide.put(new Wide(method, line, type), index);
    }

    /** The number of entries (wide ones included). */
    int size() {
        return size + wide.size();
    }

    /** Empties the map for the next key space; it starts compact again. */
    void clear() {
        if (compact == null) {
            compact = new long[Math.max(4096, Integer.highestOneBit(Math.max(1, table.length >>> 1)))];
            table = null;
        } else {
            Arrays.fill(compact, 0);
        }
        size = 0;
        wide.clear();
    }

    /** Moves every entry to wide slots. */
    private void widen() {
        long[] c = compact;
        long[] t = new long[Math.max(Math.max(2 * 4096, c.length * 2), 2 * halfFull(Math.max(size + 1, expected)))];
        for (long slot : c) {
            if (slot != 0) {
                long k = slot >>> INDEX_BITS;
                insert(t, pack(k >>> 20, (int) (k >>> 4 & 0xffff), k & 0xf), slot & INDEX_MASK);
            }
        }
        table = t;
        compact = null;
    }

    private static void insertCompact(long[] c, long slot) {
        int mask = c.length - 1;
        int i = hash(slot >>> INDEX_BITS) & mask;
        while (c[i] != 0) {
            i = (i + 1) & mask;
        }
        c[i] = slot;
    }

    /** Slots for n entries, a table at most three quarters full. */
    private static int threeQuartersFull(int n) {
        return Integer.highestOneBit((int) Math.min(1 << 29, (4L * n + 2) / 3)) << 1;
    }

    /** Slots for n entries, a table at most half full. */
    private static int halfFull(int n) {
        return Integer.highestOneBit((int) Math.min(1 << 28, 2L * n - 1)) << 1;
    }

    private static long[] growCompact(long[] old, int entries) {
        long[] c = new long[Math.max(old.length * 2, threeQuartersFull(entries))];
        for (long slot : old) {
            if (slot != 0) {
                insertCompact(c, slot);
            }
        }
        return c;
    }

    private static void insert(long[] t, long key, long value) {
        int mask = (t.length >>> 1) - 1;
        int i = hash(key) & mask;
        while (t[2 * i + 1] != 0) {
            i = (i + 1) & mask;
        }
        t[2 * i] = key;
        t[2 * i + 1] = value;
    }

    private static long[] growTable(long[] old, int entries) {
        long[] t = new long[Math.max(old.length * 2, 2 * halfFull(entries))];
        for (int i = 0; i < old.length; i += 2) {
            if (old[i + 1] != 0) {
                insert(t, old[i], old[i + 1]);
            }
        }
        return t;
    }

    /** Every bit of the key reaches the low bits the slot is taken from (the JDK's method keys differ high up). */
    private static int hash(long key) {
        long h = (key ^ key >>> 32) * 0x9E3779B97F4A7C15L;
        return (int) (h >>> 32);
    }
}
