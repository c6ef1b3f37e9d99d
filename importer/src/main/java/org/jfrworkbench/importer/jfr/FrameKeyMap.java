package org.jfrworkbench.importer.jfr;

import java.util.Arrays;

/**
 * Open-addressing map from a chunk's (method key, line, frame-type key) to a model frame id: stacks share most of
 * their frames, so each distinct frame of a chunk is resolved once.
 */
final class FrameKeyMap {
    private long[] methods = new long[4096];
    private long[] types = new long[4096];
    private int[] lines = new int[4096];
    private int[] values = new int[4096];   // id + 1, 0 = empty
    private int size;

    int get(long method, int line, long type) {
        int mask = values.length - 1;
        for (int i = hash(method, line, type) & mask; values[i] != 0; i = (i + 1) & mask) {
            if (methods[i] == method && lines[i] == line && types[i] == type) {
                return values[i] - 1;
            }
        }
        return -1;
    }

    void put(long method, int line, long type, int id) {
        if ((size + 1) * 2 > values.length) {
            grow();
        }
        insert(method, line, type, id + 1);
        size++;
    }

    private void insert(long method, int line, long type, int value) {
        int mask = values.length - 1;
        int i = hash(method, line, type) & mask;
        while (values[i] != 0) {
            i = (i + 1) & mask;
        }
        methods[i] = method;
        lines[i] = line;
        types[i] = type;
        values[i] = value;
    }

    void clear() {
        Arrays.fill(values, 0);
        size = 0;
    }

    private void grow() {
        long[] m = methods;
        long[] t = types;
        int[] l = lines;
        int[] v = values;
        int cap = v.length * 2;
        methods = new long[cap];
        types = new long[cap];
        lines = new int[cap];
        values = new int[cap];
        for (int i = 0; i < v.length; i++) {
            if (v[i] != 0) {
                insert(m[i], l[i], t[i], v[i]);
            }
        }
    }

    private static int hash(long method, int line, long type) {
        long h = (method * 0x9E3779B97F4A7C15L + line) * 0xC2B2AE3D27D4EB4FL + type;
        return (int) (h ^ (h >>> 29));
    }
}
