package org.jfrworkbench.importer.jfr;

/**
 * The frames of a stack-trace entry as packed frame keys ({@link FrameKeyMap#pack}: method key, line, frame-type key),
 * and the hash of a stack's keys. Kept apart from what the keys mean to the model because two threads decode alike:
 * {@link StackResolver} and its {@link StackDecoder} share these functions, which touch nothing but their arguments.
 */
final class FrameKeys {
    /** A field's role in a frame (see {@link FrameRoles}). */
    static final int SKIP = 0, METHOD = 1, LINE = 2, TYPE = 3, OTHER = 4;
    /** {@link FrameRoles#layout}s: any, or four compressed integers: method, line, (skipped) bytecode index, type. */
    static final int GENERAL = 0, METHOD_LINE_BCI_TYPE = 1;

    private FrameKeys() {
    }

    /** Whether f is a stack-trace type's array of frames, read in place (not through a pool). */
    static boolean isFrames(JfrField f) {
        return f.name.equals("frames") && f.array && !f.constantPool && f.type.primitive == JfrType.OBJECT;
    }

    /**
     * The frames of one stack when every frame field is a compressed integer and the chunk holds at least 9 bytes
     * per field for all of them (checked by the caller): no bounds check per byte. A frame whose integers all
     * lie in the next 8 bytes (most: small method ids, lines and bytecode indices) is decoded from one load; a value
     * ends at the first byte without the high bit. The frames' packed keys go to keys (room for n). Returns the new
     * position, or -1 (and nothing read) when a frame's key does not pack into a long.
     */
    static int decodeVarintFrames(JfrInput in, int p, int n, int[] role, int layout, long[] keys) {
        // all keys first, then all probes: the probes of a stack do not depend on each other, so the processor
        // overlaps their cache misses instead of waiting for each before decoding the next frame
        int fieldCount = role.length;
        int i = 0;
        if (layout == METHOD_LINE_BCI_TYPE) {
            // the layout of async-profiler's and the JDK's frames, without a branch per field: the first four ends of
            // values in the word are the ends of method, line, bytecode index and type
            for (; i < n; i++) {
                long w = in.word(p);
                long stops = ~w & JfrInput.STOP_BITS;
                if (Long.bitCount(stops) < 4) {
                    break;
                }
                long methodEnd = (stops & -stops) * 2 - 1;
                stops &= stops - 1;
                long lineEnd = (stops & -stops) * 2 - 1;
                stops &= stops - 1;
                long bciEnd = (stops & -stops) * 2 - 1;
                stops &= stops - 1;
                long typeEnd = (stops & -stops) * 2 - 1;
                long method = Long.compress(w, JfrInput.VALUE_BITS & methodEnd);
                long line = Long.compress(w, JfrInput.VALUE_BITS & lineEnd & ~methodEnd);
                long type = Long.compress(w, JfrInput.VALUE_BITS & typeEnd & ~bciEnd);
                p += (64 - Long.numberOfLeadingZeros(typeEnd)) >>> 3;
                int l = Math.max(0, (int) line);
                if (!FrameKeyMap.packs(method, l, type)) {
                    return -1;
                }
                keys[i] = FrameKeyMap.pack(method, l, type);
            }
        }
        for (; i < n; i++) {
            long method = 0;
            long type = 0;
            long line = 0;
            long w = in.word(p);
            long stops = ~w & JfrInput.STOP_BITS;
            if (Long.bitCount(stops) >= fieldCount) {
                long done = 0;
                for (int r : role) {
                    long last = stops & -stops;
                    stops ^= last;
                    long upTo = (last << 1) - 1;
                    long v = Long.compress(w, JfrInput.VALUE_BITS & upTo & ~done);
                    done = upTo;
                    if (r == METHOD) {
                        method = v;
                    } else if (r == LINE) {
                        line = v;
                    } else if (r == TYPE) {
                        type = v;
                    }
                }
                p += (64 - Long.numberOfLeadingZeros(done)) >>> 3;
            } else {
                for (int r : role) {
                    w = in.word(p);
                    stops = ~w & JfrInput.STOP_BITS;
                    long v;
                    if (stops != 0) {
                        int bits = Long.numberOfTrailingZeros(stops) + 1;
                        v = Long.compress(w & (-1L >>> (64 - bits)), JfrInput.VALUE_BITS);
                        p += bits >>> 3;
                    } else {
                        v = Long.compress(w, JfrInput.VALUE_BITS) | (long) in.byteAt(p + 8) << 56;
                        p += 9;
                    }
                    if (r == METHOD) {
                        method = v;
                    } else if (r == LINE) {
                        line = v;
                    } else if (r == TYPE) {
                        type = v;
                    }
                }
            }
            int l = Math.max(0, (int) line);
            if (!FrameKeyMap.packs(method, l, type)) {
                return -1;
            }
            keys[i] = FrameKeyMap.pack(method, l, type);
        }
        return p;
    }

    /**
     * A 64-bit hash of n frame keys that every bit of every key changes (each key mixed before it is added): two
     * different stacks under one stack key hash alike with a chance of about 2^-64.
     */
    static long hashKeys(long[] keys, int n) {
        long h = n;
        for (int i = 0; i < n; i++) {
            h = mixKey(h, keys[i]);
        }
        return finishKeys(h);
    }

    /** One step of {@link #hashKeys}: callers that probe the keys anyway hash them in the same loop. */
    static long mixKey(long h, long key) {
        long k = key * 0xBF58476D1CE4E5B9L;
        return (h + (k ^ k >>> 31)) * 0x94D049BB133111EBL;
    }

    /** The end of {@link #hashKeys} after its {@link #mixKey} steps. */
    static long finishKeys(long h) {
        return h ^ h >>> 29;
    }
}
