package org.jfrworkbench.importer.jfr;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Map from a frame's (method, line, frame type), as a chunk's keys or as model ids, to its model frame id: stacks
 * share most of their frames, so each distinct frame is resolved once. It is probed once per frame of every stack in
 * the pool, millions of times per recording, and the probes go all over the table, so its size decides its speed: a
 * key that has a 41-bit form ({@link #compactKey}) shares one long with its id, and the table of a recording's tens
 * of thousands of frames stays in or near the processor's second-level cache. Two forms: small method keys (below
 * 2^20, lines below 2^16: async-profiler's method keys and every model method id), and the JDK's, whose method keys
 * hold a class id in their high bits and the method's number in the class in their low 16 (class ids below 2^16,
 * method numbers below 256, lines below 8192). Other keys that pack into a long go to slots of two longs, key and id,
 * beside; which table holds a key follows from the key alone. An id too large for the compact slots moves every entry
 * to the wide slots; keys that do not even pack into a long go to a hash map of their own.
 */
final class FrameKeyMap {
    /** Compact slots: compact key << 23 | (index + 1), 0 = free; null once the map holds an index too large for it. */
    private long[] compact = new long[4096];
    /**
     * Wide slots, pairs of (packed key, index + 1), index + 1 == 0 marking a free slot: the keys without a compact
     * form, and every key once compact is null; null while there are none.
     */
    private long[] table;
    private int compactSize;
    private int tableSize;
    /** Entries {@link #expect} announced: a growth goes straight to a table that holds them. */
    private int expected;
    private final Map<Wide, Integer> wide = new HashMap<>();

    private record Wide(long method, int line, long type) {
    }

    private static final int INDEX_BITS = 23;
    private static final long INDEX_MASK = (1L << INDEX_BITS) - 1;

    /** Whether the key packs into one long, see {@link #pack}. */
    static boolean packs(long method, int line, long type) {
        return (method >>> 32) == 0 && (line >>> 24) == 0 && (type >>> 8) == 0;
    }

    static long pack(long method, int line, long type) {
        return method << 32 | (long) line << 8 | type;
    }

    /**
     * The 41-bit form of a packed key, or -1: below 2^40 a small method key (below 2^20), line below 2^16, type
     * below 16; from 2^40 on a JDK method key (class id below 2^16 in its high bits, method number below 256 in its
     * low 16), line below 8192, type below 8.
     */
    static long compactKey(long key) {
        long method = key >>> 32;
        long line = key >>> 8 & 0xffffff;
        long type = key & 0xff;
        if ((method >>> 20) == 0 && (line >>> 16) == 0 && (type >>> 4) == 0) {
            return method << 20 | line << 4 | type;
        }
        return (method >>> 20) == 0 ? -1 : jdkCompactKey(method, line, type);
    }

    /** The compact form of a key whose method key is 2^20 or more (the JDK's), or -1. */
    private static long jdkCompactKey(long method, long line, long type) {
        long cls = method >>> 16;
        long number = method & 0xffff;
        return (cls >>> 16) == 0 && (number >>> 8) == 0 && (line >>> 13) == 0 && (type >>> 3) == 0
                ? 1L << 40 | cls << 24 | number << 16 | line << 3 | type : -1;
    }

    /** The index of a packed key, or -1. */
    int get(long key) {
        long[] c = compact;
        if (c != null) {
            long k = compactKey(key);
            if (k < 0) {
                return getWideSlot(key);
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
        return getWideSlot(key);
    }

    /** The index of a packed key in the wide slots, or -1. */
    private int getWideSlot(long key) {
        long[] t = table;
        if (t == null) {
            return -1;
        }
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
                if ((compactSize + 1) * 4 > compact.length * 3L) {
                    compact = growCompact(compact, Math.max(compactSize + 1, expected));
                }
                insertCompact(compact, k << INDEX_BITS | (index + 1L));
                compactSize++;
                return;
            }
            if (k >= 0) {
                widen();
            }
        }
        if (table == null) {
            // the few keys without a compact form (or all, after widen): a small table, grown as they come
            table = new long[2 * 4096];
        }
        if ((tableSize + 1) * 2 > table.length >>> 1) {
            table = growTable(table, Math.max(tableSize + 1, compact == null ? expected : 0));
        }
        insert(table, key, index + 1L);
        tableSize++;
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
        return compactSize + tableSize + wide.size();
    }

    /** The number of entries in slots of two longs: keys without a compact form, or all after an index too large. */
    int wideSlotEntries() {
        return tableSize;
    }

    /** Empties the map for the next key space; it starts compact again. */
    void clear() {
        if (compact == null) {
            compact = new long[Math.max(4096, Integer.highestOneBit(Math.max(1, table.length >>> 1)))];
            table = null;
        } else {
            Arrays.fill(compact, 0);
            if (table != null) {
                Arrays.fill(table, 0);
            }
        }
        compactSize = 0;
        tableSize = 0;
        wide.clear();
    }

    /** Moves every entry to wide slots. */
    private void widen() {
        long[] c = compact;
        int entries = compactSize + tableSize;
        long[] t = new long[Math.max(Math.max(2 * 4096, c.length * 2), 2 * halfFull(Math.max(entries + 1, expected)))];
        for (long slot : c) {
            if (slot != 0) {
                insert(t, unpackCompact(slot >>> INDEX_BITS), slot & INDEX_MASK);
            }
        }
        if (table != null) {
            for (int i = 0; i < table.length; i += 2) {
                if (table[i + 1] != 0) {
                    insert(t, table[i], table[i + 1]);
                }
            }
        }
        table = t;
        tableSize = entries;
        compactSize = 0;
        compact = null;
    }

    /** The packed key of a {@link #compactKey}. */
    static long unpackCompact(long k) {
        if ((k >>> 40) == 0) {
            return pack(k >>> 20, (int) (k >>> 4 & 0xffff), k & 0xf);
        }
        long method = (k >>> 24 & 0xffff) << 16 | (k >>> 16 & 0xff);
        return pack(method, (int) (k >>> 3 & 0x1fff), k & 0x7);
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
