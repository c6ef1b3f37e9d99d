package org.jfrworkbench.importer.jfr;

import java.util.Arrays;

/**
 * Map from long keys to non-negative ints; {@link #get} answers -1 for absent keys. JFR ids are mostly small and
 * dense, so keys below a limit (by default {@link #DENSE_LIMIT}) live in a direct array; the rest in an
 * open-addressing table.
 */
final class LongIntMap {
    private static final int DENSE_LIMIT = 1 << 16;
    /** Keys below this live in the dense array. */
    private final int denseLimit;
    /** value + 1 per small key, 0 = absent; grows with the largest small key put */
    private int[] dense = new int[0];
    /**
     * Slots of two longs, key and value + 1 (0 = empty): a probe reads one cache line, where separate key and value
     * arrays cost two misses (the JDK's method keys, for one, all lie above the dense limit).
     */
    private long[] table;
    private int size;
    /** Keys {@link #reserve} announced: the table, once keys go there, grows to hold them all at once. */
    private int expected;

    LongIntMap() {
        this(16);
    }

    LongIntMap(int expected) {
        this(expected, DENSE_LIMIT);
    }

    /** A map whose keys below denseLimit live in a direct array (at most 4 bytes per key below the largest put). */
    LongIntMap(int expected, int denseLimit) {
        this.denseLimit = denseLimit;
        int cap = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
        table = new long[2 * cap];
    }

    int get(long key) {
        if (key >= 0 && key < denseLimit) {
            return key < dense.length ? dense[(int) key] - 1 : -1;
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

    void put(long key, int value) {
        if (value < 0) {
            return;   // get answers -1 for absent keys anyway
        }
        if (key >= 0 && key < denseLimit) {
            int k = (int) key;
            if (k >= dense.length) {
                dense = Arrays.copyOf(dense, Math.min(denseLimit, Math.max(k + 1, dense.length * 2 + 64)));
            }
            dense[k] = value + 1;
            return;
        }
        if ((size + 1) * 2 > table.length >>> 1) {
            // keys above the dense part (the JDK's method keys): straight to the announced number, not by doublings
            rehash(Math.max(table.length * 2, slotsFor(Math.max(size + 1, expected))));
        }
        long[] t = table;
        int mask = (t.length >>> 1) - 1;
        int i = hash(key) & mask;
        while (t[2 * i + 1] != 0) {
            if (t[2 * i] == key) {
                t[2 * i + 1] = value + 1L;
                return;
            }
            i = (i + 1) & mask;
        }
        t[2 * i] = key;
        t[2 * i + 1] = value + 1L;
        size++;
    }

    /**
     * Room for n keys, assumed to be about 0 to n (a pool's count: JFR writers number most pools from 1): the direct
     * array is made that long at once instead of grown by copies; larger keys grow it as before.
     */
    void reserve(int n) {
        int k = Math.min(denseLimit, n + 1);
        if (k > dense.length) {
            dense = Arrays.copyOf(dense, k);
        }
        expected = Math.max(expected, n);
    }

    /** The table length (two longs a slot) that holds n keys at most half full. */
    private static int slotsFor(int n) {
        return 2 * (Integer.highestOneBit((int) Math.min(1 << 29, 2L * n - 1)) << 1);
    }

    void clear() {
        Arrays.fill(dense, 0);
        if (size > 0) {
            Arrays.fill(table, 0);
        }
        size = 0;
    }

    private void rehash(int length) {
        long[] old = table;
        table = new long[length];
        size = 0;
        for (int i = 0; i < old.length; i += 2) {
            if (old[i + 1] != 0) {
                put(old[i], (int) old[i + 1] - 1);
            }
        }
    }

    private static int hash(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }
}
