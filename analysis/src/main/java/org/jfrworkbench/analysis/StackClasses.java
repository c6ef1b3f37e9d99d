package org.jfrworkbench.analysis;

import java.util.Arrays;

import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.SampleTable;

/**
 * The distinct (stack, allocated class) pairs of a recording's allocation and live samples: the allocated class is
 * a leaf frame under its stack in those graphs (as async-profiler and JMC draw them), so the call tree needs a node
 * per pair. Kept per stack in sorted runs (stack slot {@code stacks} holds the samples without a stack), so a
 * sample finds its node by scanning its stack's few classes, never by hashing.
 */
final class StackClasses {
    static final StackClasses NONE = new StackClasses(new int[0], new int[0], new int[0]);

    /** Per stack slot s, its classes are classes[start[s] .. start[s + 1]); empty when start is empty. */
    private final int[] start;
    private final int[] classes;
    private final int[] distinct;

    private StackClasses(int[] start, int[] classes, int[] distinct) {
        this.start = start;
        this.classes = classes;
        this.distinct = distinct;
    }

    /** Whether samples of a kind end in their allocated class. */
    static boolean hasClassFrames(Kind kind) {
        return kind == Kind.ALLOC || kind == Kind.LIVE;
    }

    static StackClasses of(Profile p) {
        int slots = p.stacks().size() + 1;
        LongSet pairs = new LongSet();
        for (Kind k : new Kind[] {Kind.ALLOC, Kind.LIVE}) {
            SampleTable t = p.kinds().get(k);
            if (t == null) {
                continue;
            }
            for (int i = 0, n = t.size(); i < n; i++) {
                int c = t.objectClass(i);
                if (c != 0) {
                    pairs.add((long) slot(t.stack(i), slots) << 32 | c);
                }
            }
        }
        if (pairs.size() == 0) {
            return NONE;
        }
        long[] keys = pairs.toSortedArray();
        int[] start = new int[slots + 1];
        int[] classes = new int[keys.length];
        for (int i = 0; i < keys.length; i++) {
            start[(int) (keys[i] >>> 32) + 1]++;
            classes[i] = (int) keys[i];
        }
        for (int s = 0; s < slots; s++) {
            start[s + 1] += start[s];
        }
        int[] distinct = classes.clone();
        Arrays.sort(distinct);
        int d = 0;
        for (int i = 0; i < distinct.length; i++) {
            if (d == 0 || distinct[d - 1] != distinct[i]) {
                distinct[d++] = distinct[i];
            }
        }
        return new StackClasses(start, classes, Arrays.copyOf(distinct, d));
    }

    /** The slot of a sample's stack id: itself, or the no-stack slot for -1 and ids out of range. */
    static int slot(int stack, int slots) {
        return stack < 0 || stack >= slots - 1 ? slots - 1 : stack;
    }

    int pairs() {
        return classes.length;
    }

    /** First pair index of a stack slot. */
    int first(int slot) {
        return start.length == 0 ? 0 : start[slot];
    }

    /** End (exclusive) of a stack slot's pairs. */
    int end(int slot) {
        return start.length == 0 ? 0 : start[slot + 1];
    }

    /** The class (a string id) of pair i. */
    int classOf(int pair) {
        return classes[pair];
    }

    /** The pair of (slot, class), or -1. Pairs of one stack are few, so a scan. */
    int find(int slot, int objectClass) {
        for (int i = first(slot), e = end(slot); i < e; i++) {
            if (classes[i] == objectClass) {
                return i;
            }
        }
        return -1;
    }

    /** The distinct classes, sorted. */
    int[] distinctClasses() {
        return distinct;
    }

    long footprint() {
        return 48 + 4L * (start.length + classes.length + distinct.length);
    }

    /** An open-addressing set of non-zero longs, for the one pass over the samples. */
    private static final class LongSet {
        private long[] keys = new long[1024];
        private int size;

        void add(long key) {
            int mask = keys.length - 1;
            int h = (int) mix(key) & mask;
            while (keys[h] != 0) {
                if (keys[h] == key) {
                    return;
                }
                h = (h + 1) & mask;
            }
            keys[h] = key;
            if (++size * 2 > keys.length) {
                grow();
            }
        }

        private void grow() {
            long[] old = keys;
            keys = new long[old.length * 2];
            size = 0;
            for (long k : old) {
                if (k != 0) {
                    add(k);
                }
            }
        }

        int size() {
            return size;
        }

        long[] toSortedArray() {
            long[] out = new long[size];
            int n = 0;
            for (long k : keys) {
                if (k != 0) {
                    out[n++] = k;
                }
            }
            Arrays.sort(out);
            return out;
        }

        private static long mix(long k) {
            k *= 0x9E3779B97F4A7C15L;
            return k ^ (k >>> 31);
        }
    }
}
