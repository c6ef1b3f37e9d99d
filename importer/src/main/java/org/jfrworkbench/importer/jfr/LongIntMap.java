package org.jfrworkbench.importer.jfr;

import java.util.Arrays;

/** Open-addressing map from long keys to non-negative ints; {@link #get} answers -1 for absent keys. */
final class LongIntMap {
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
        int mask = keys.length - 1;
        for (int i = hash(key) & mask; used[i]; i = (i + 1) & mask) {
            if (keys[i] == key) {
                return values[i];
            }
        }
        return -1;
    }

    void put(long key, int value) {
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

    int size() {
        return size;
    }

    void clear() {
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
