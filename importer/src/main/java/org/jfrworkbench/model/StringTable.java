package org.jfrworkbench.model;

import java.util.Arrays;

/**
 * Interned strings addressed by a dense int id. Id 0 is always the empty string. An open-addressing table of ids
 * with the strings' hashes beside them (no boxed keys or map nodes): the importer interns every symbol of every chunk.
 */
public final class StringTable {
    private String[] values = new String[64];
    private int[] slots = new int[128];   // id + 1, 0 = empty
    private int[] hashes = new int[128];
    private int size;

    public StringTable() {
        intern("");
    }

    public int intern(String s) {
        if (s == null) {
            return 0;
        }
        int h = s.hashCode();
        int mask = slots.length - 1;
        int i = mix(h) & mask;
        for (int id; (id = slots[i]) != 0; i = (i + 1) & mask) {
            if (hashes[i] == h && values[id - 1].equals(s)) {
                return id - 1;
            }
        }
        int id = size++;
        if (id == values.length) {
            values = Arrays.copyOf(values, id * 2);
        }
        values[id] = s;
        slots[i] = id + 1;
        hashes[i] = h;
        if (size * 2 > slots.length) {
            rehash();
        }
        return id;
    }

    private void rehash() {
        int[] newSlots = new int[slots.length * 2];
        int[] newHashes = new int[slots.length * 2];
        int mask = newSlots.length - 1;
        for (int j = 0; j < slots.length; j++) {
            if (slots[j] != 0) {
                int i = mix(hashes[j]) & mask;
                while (newSlots[i] != 0) {
                    i = (i + 1) & mask;
                }
                newSlots[i] = slots[j];
                newHashes[i] = hashes[j];
            }
        }
        slots = newSlots;
        hashes = newHashes;
    }

    private static int mix(int h) {
        h *= 0x9E3779B9;
        return h ^ (h >>> 16);
    }

    public String get(int id) {
        if (id < 0 || id >= size) {
            throw new IndexOutOfBoundsException("string id " + id + " of " + size);
        }
        return values[id];
    }

    /** The id of s, or -1 when it was never interned. */
    public int find(String s) {
        if (s == null) {
            return -1;
        }
        int h = s.hashCode();
        int mask = slots.length - 1;
        for (int i = mix(h) & mask, id; (id = slots[i]) != 0; i = (i + 1) & mask) {
            if (hashes[i] == h && values[id - 1].equals(s)) {
                return id - 1;
            }
        }
        return -1;
    }

    public int size() {
        return size;
    }

    /** Approximate heap bytes: the tables plus each string (object header, array header, Latin-1 bytes at best). */
    public long footprint() {
        long bytes = 64 + 4L * values.length + 8L * slots.length;
        for (int i = 0; i < size; i++) {
            bytes += 40 + values[i].length();
        }
        return bytes;
    }
}
