package org.jfrworkbench.analysis;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Iterator;

/**
 * Arrays the size of a call tree (or of its sample slots, or of its inverted part) that a query fills and drops when
 * it has answered, kept for the next query on a tree of the same size instead of allocated anew. Under G1 an array
 * of a megabyte or more is a humongous allocation, and a few of them per query started concurrent cycles and the
 * pauses that made the views' slowest answers. One pool for every thread, bounded in bytes
 * ({@code -Djfrworkbench.queryArrayBytes}, by default a sixteenth of the heap and at most 256 MB): past that the
 * longest unused go first. Arrays shorter than {@link #MIN_LENGTH} are not kept; young collections take them cheaply.
 *
 * <p>An array taken belongs to its taker until given back, and is given back at most once, when no answer holds it.
 */
final class QueryArrays {
    static final int MIN_LENGTH = 1 << 16;
    private static final long CAP = Long.getLong("jfrworkbench.queryArrayBytes",
            Math.min(256L << 20, Runtime.getRuntime().maxMemory() / 16));
    /** Oldest given back first. */
    private static final ArrayDeque<Object> FREE = new ArrayDeque<>();
    private static long held;

    private QueryArrays() {
    }

    /** Zeroed, of length n. */
    static int[] ints(int n) {
        int[] a = (int[]) take(int[].class, n);
        if (a == null) {
            return new int[n];
        }
        Arrays.fill(a, 0);
        return a;
    }

    /** Zeroed, of length n. */
    static long[] longs(int n) {
        long[] a = (long[]) take(long[].class, n);
        if (a == null) {
            return new long[n];
        }
        Arrays.fill(a, 0);
        return a;
    }

    /** All false, of length n. */
    static boolean[] booleans(int n) {
        boolean[] a = (boolean[]) take(boolean[].class, n);
        if (a == null) {
            return new boolean[n];
        }
        Arrays.fill(a, false);
        return a;
    }

    /** Of length n, as the pool left it (not zeroed): for a column whose every element is written before it is read. */
    static int[] intsToWrite(int n) {
        int[] a = (int[]) take(int[].class, n);
        return a == null ? new int[n] : a;
    }

    /** {@link #intsToWrite} for longs. */
    static long[] longsToWrite(int n) {
        long[] a = (long[]) take(long[].class, n);
        return a == null ? new long[n] : a;
    }

    /** A copy of a. */
    static int[] copyOf(int[] a) {
        int[] out = (int[]) take(int[].class, a.length);
        if (out == null) {
            return a.clone();
        }
        System.arraycopy(a, 0, out, 0, a.length);
        return out;
    }

    /** A copy of a. */
    static long[] copyOf(long[] a) {
        long[] out = (long[]) take(long[].class, a.length);
        if (out == null) {
            return a.clone();
        }
        System.arraycopy(a, 0, out, 0, a.length);
        return out;
    }

    /** a's elements at the start of an array of length cap, zero after them, as Arrays.copyOf; a is given back. */
    static int[] grow(int[] a, int cap) {
        int[] out = ints(cap);
        System.arraycopy(a, 0, out, 0, Math.min(a.length, cap));
        give(a);
        return out;
    }

    /** a's elements at the start of an array of length cap, zero after them, as Arrays.copyOf; a is given back. */
    static long[] grow(long[] a, int cap) {
        long[] out = longs(cap);
        System.arraycopy(a, 0, out, 0, Math.min(a.length, cap));
        give(a);
        return out;
    }

    /**
     * a's elements at the start of an array of length cap, the rest as the pool left them (not zeroed); a is given
     * back. For columns whose every element is written before it is read: growing them zeroed
     * took a tenth of an inverted graph's time.
     */
    static int[] extend(int[] a, int cap) {
        int[] out = intsToWrite(cap);
        System.arraycopy(a, 0, out, 0, Math.min(a.length, cap));
        give(a);
        return out;
    }

    /** {@link #extend(int[], int)} for longs. */
    static long[] extend(long[] a, int cap) {
        long[] out = longsToWrite(cap);
        System.arraycopy(a, 0, out, 0, Math.min(a.length, cap));
        give(a);
        return out;
    }

    /** Gives an array back (null is ignored); its giver no longer reads or writes it. */
    static void give(Object array) {
        if (array == null || length(array) < MIN_LENGTH) {
            return;
        }
        long bytes = bytes(array);
        if (bytes > CAP) {
            return;
        }
        synchronized (FREE) {
            while (held + bytes > CAP) {
                held -= bytes(FREE.removeFirst());
            }
            FREE.addLast(array);
            held += bytes;
        }
    }

    /** Bytes the pool holds now. */
    static long held() {
        synchronized (FREE) {
            return held;
        }
    }

    private static Object take(Class<?> type, int n) {
        if (n < MIN_LENGTH) {
            return null;
        }
        synchronized (FREE) {
            // the most recently given back first: the likeliest still in a cache
            for (Iterator<Object> it = FREE.descendingIterator(); it.hasNext(); ) {
                Object a = it.next();
                if (a.getClass() == type && length(a) == n) {
                    it.remove();
                    held -= bytes(a);
                    return a;
                }
            }
        }
        return null;
    }

    private static int length(Object a) {
        return switch (a) {
            case int[] x -> x.length;
            case long[] x -> x.length;
            case boolean[] x -> x.length;
            default -> throw new IllegalArgumentException("not a query array: " + a.getClass());
        };
    }

    private static long bytes(Object a) {
        return 16 + switch (a) {
            case int[] x -> 4L * x.length;
            case long[] x -> 8L * x.length;
            case boolean[] x -> (long) x.length;
            default -> throw new IllegalArgumentException("not a query array: " + a.getClass());
        };
    }
}
