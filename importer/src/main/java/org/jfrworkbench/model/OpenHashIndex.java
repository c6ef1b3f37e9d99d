package org.jfrworkbench.model;

import java.util.function.IntPredicate;

/** Open-addressing index from a caller-computed hash to dense ids; equality is decided by the caller's arrays. */
final class OpenHashIndex {
    private int[] slots = new int[64];   // id + 1, 0 = empty
    private int[] hashes = new int[64];
    private int count;

    int find(int hash, IntPredicate equalsId) {
        int mask = slots.length - 1;
        int h = mix(hash);
        for (int i = h & mask; ; i = (i + 1) & mask) {
            int s = slots[i];
            if (s == 0) {
                return -1;
            }
            if (hashes[i] == h && equalsId.test(s - 1)) {
                return s - 1;
            }
        }
    }

    void insert(int hash, int id) {
        if ((count + 1) * 2 > slots.length) {
            rehash();
        }
        put(mix(hash), id);
        count++;
    }

    private void put(int h, int id) {
        int mask = slots.length - 1;
        int i = h & mask;
        while (slots[i] != 0) {
            i = (i + 1) & mask;
        }
        slots[i] = id + 1;
        hashes[i] = h;
    }

    private void rehash() {
        int[] oldSlots = slots;
        int[] oldHashes = hashes;
        slots = new int[oldSlots.length * 2];
        hashes = new int[oldSlots.length * 2];
        for (int i = 0; i < oldSlots.length; i++) {
            if (oldSlots[i] != 0) {
                put(oldHashes[i], oldSlots[i] - 1);
            }
        }
    }

    private static int mix(int h) {
        h *= 0x9E3779B9;
        return h ^ (h >>> 16);
    }

    /** Heap bytes of the two arrays. */
    long footprint() {
        return 32 + 8L * slots.length;
    }
}
