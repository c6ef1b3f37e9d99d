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
    private long[] keys;
    /** value + 1 per slot, 0 = empty (one array less to touch per probe than a separate used flag) */
    private int[] values;
    private int size;

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
        keys = new long[cap];
        values = new int[cap];
    }

    int get(long key) {
        if (key >= 0 && key < denseLimit) {
            return key < dense.length ? dense[(int) key] - 1 : -1;
        }
        int mask = keys.length - 1;
        for (int i = hash(key) & mask, v; (v = values[i]) != 0; i = (i + 1) & mask) {
            if (keys[i] == key) {
                return v - 1;
            }
        }
        return -1;
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
        if ((size + 1) * 2 > keys.length) {
            rehash();
        }
        int mask = keys.length - 1;
        int i = hash(key) & mask;
        while (values[i] != 0) {
            if (keys[i] == key) {
                values[i] = value + 1;
                return;
            }
            i = (i + 1) & mask;
        }
        keys[i] = key;
        values[i] = value + 1;
        size++;
    }

    void clear() {
        Arrays.fill(dense, 0);
        Arrays.fill(values, 0);
        size = 0;
    }

    private void rehash() {
        long[] oldKeys = keys;
        int[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        values = new int[oldKeys.length * 2];
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldValues[i] != 0) {
                put(oldKeys[i], oldValues[i] - 1);
            }
        }
    }

    private static int hash(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }
}
