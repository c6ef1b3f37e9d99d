package org.jfrworkbench.model;

import java.util.Arrays;

/** Growth of the primitive arrays behind the tables; capacity only ever follows what was actually added. */
final class IntArrays {
    private IntArrays() {
    }

    static int[] grow(int[] a, int needed) {
        return needed <= a.length ? a : Arrays.copyOf(a, Math.max(needed, a.length + (a.length >> 1) + 16));
    }

    static long[] grow(long[] a, int needed) {
        return needed <= a.length ? a : Arrays.copyOf(a, Math.max(needed, a.length + (a.length >> 1) + 16));
    }

    static byte[] grow(byte[] a, int needed) {
        return needed <= a.length ? a : Arrays.copyOf(a, Math.max(needed, a.length + (a.length >> 1) + 16));
    }
}
