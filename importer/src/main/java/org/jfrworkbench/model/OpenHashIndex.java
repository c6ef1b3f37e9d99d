package org.jfrworkbench.model;

import java.util.function.IntPredicate;

/**
 * Open-addressing index from a caller-computed hash to dense ids; equality is decided by the caller's arrays. Each
 * slot keeps the id beside its hash, so a probe reads one cache line: the stack table is probed once per distinct
 * stack of a recording, hundreds of thousands of times, all over a table of megabytes.
 */
final class OpenHashIndex {
    /** Pairs of (id + 1, mixed hash); id + 1 == 0 marks a free slot. */
    private int[] table = new int[128];
    private int count;

    int find(int hash, IntPredicate equalsId) {
        int[] t = live();
        int mask = (t.length >>> 1) - 1;
        int h = mix(hash);
        for (int i = h & mask; ; i = (i + 1) & mask) {
            int s = t[2 * i];
            if (s == 0) {
                return -1;
            }
            if (t[2 * i + 1] == h && equalsId.test(s - 1)) {
                return s - 1;
            }
        }
    }

    void insert(int hash, int id) {
        live();
        if ((count + 1) * 2 > table.length >>> 1) {
            rehash(table.length * 2);
        }
        put(table, mix(hash), id + 1);
        count++;
    }

    /** Room for count ids in all without a rehash (the caller knows how many are coming). */
    void reserve(int count) {
        if ((count + 1L) * 2 <= live().length >>> 1) {
            return;
        }
        int slots = Integer.highestOneBit((int) Math.min(1 << 29, (count + 1L) * 2 - 1)) << 1;
        rehash(2 * slots);
    }

    private static void put(int[] t, int h, int slot) {
        int mask = (t.length >>> 1) - 1;
        int i = h & mask;
        while (t[2 * i] != 0) {
            i = (i + 1) & mask;
        }
        t[2 * i] = slot;
        t[2 * i + 1] = h;
    }

    /** The same entries in a table of length ints (a power of two, room for them). */
    private void rehash(int length) {
        int[] old = table;
        int[] t = new int[length];
        for (int i = 0; i < old.length; i += 2) {
            if (old[i] != 0) {
                put(t, old[i + 1], old[i]);
            }
        }
        table = t;
    }

    private static int mix(int h) {
        h *= 0x9E3779B9;
        return h ^ (h >>> 16);
    }

    /**
     * Drops the table: a sealed profile adds nothing, and its tables' indexes were a third of a cached profile's heap
     * (a heap dump of a server importing eight recordings of random frame names beside heavy views).
     */
    void release() {
        table = null;
    }

    private int[] live() {
        if (table == null) {
            throw new IllegalStateException("the table is sealed: nothing can be added");
        }
        return table;
    }

    /** Heap bytes of the table. */
    long footprint() {
        return 16 + (table == null ? 0 : 4L * table.length);
    }
}
