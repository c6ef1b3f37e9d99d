package org.jfrworkbench.importer.jfr;

import java.util.Arrays;

/**
 * Map from long keys to non-negative ints; {@link #get} answers -1 for absent keys. JFR ids are mostly small and
 * dense, so keys below {@link #DENSE_LIMIT} live in a direct array; the rest in an open-addressing table.
 */
final class LongIntMap {
    private static final int DENSE_LIMIT = 1 << 16;
    /** value + 1 per small key, 0 = absent; grows with the largest small key put */
    private int[] dense = new int[0];
    private long[] keys;
    private int[] values;
    private boolean[] used;
    private int size;

    LongIntMap() {
        this(16);
    }

    LongIntMap(int expected) {
        int cap = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
        keys = new long[cap];
        values = new int[cap];
        used = new boolean[cap];
    }

    int get(long key) {
        if (key >= 0 && key < DENSE_LIMIT) {
            return key < dense.length ? dense[(int) key] - 1 : -1;
        }
        int mask = keys.length - 1;
        for (int i = hash(key) & mask; used[i]; i = (i + 1) & mask) {
            if (keys[i] == key) {
                return values[i];
            }
        }
        return -1;
    }

    void put(long key, int value) {
        if (key >= 0 && key < DENSE_LIMIT) {
            int k = (int) key;
            if (k >= dense.length) {
                dense = Arrays.copyOf(dense, Math.min(DENSE_LIMIT, Math.max(k + 1, dense.length * 2 + 64)));
            }
            dense[k] = value + 1;
            return;
        }
        if ((size + 1) * 2 > keys.length) {
            rehash();
        }
        int mask = keys.length - 1;
        int i = hash(key) & mask;
        while (used[i]) {
            if (keys[i] == key) {
                values[i] = value;
                return;
            }
            i = (i + 1) & mask;
        }
        used[i] = true;
        keys[i] = key;
        values[i] = value;
        size++;
    }

    void clear() {
        Arrays.fill(dense, 0);
        Arrays.fill(used, false);
        size = 0;
    }

    private void rehash() {
        long[] oldKeys = keys;
        int[] oldValues = values;
        boolean[] oldUsed = used;
        keys = new long[oldKeys.length * 2];
        values = new int[oldKeys.length * 2];
        used = new boolean[oldKeys.length * 2];
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldUsed[i]) {
                put(oldKeys[i], oldValues[i]);
            }
        }
    }

    private static int hash(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }
}
