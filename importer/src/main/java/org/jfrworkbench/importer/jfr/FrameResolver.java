package org.jfrworkbench.importer.jfr;

import java.util.Arrays;

import org.jfrworkbench.model.FrameTable;

/**
 * A key space's packed frame keys ({@link FrameKeys}) to model frame ids: one probe of a map per frame seen before, the
 * model frame made when new. Separate from reading the pool because it outlives a key space: async-profiler starts
 * the constant pools of every chunk afresh (its metadata differs from chunk to chunk) but keeps its method and
 * frame-type keys for the whole recording, so the frames one chunk made are kept for the next, each method key
 * confirmed once per key space (at the first frame of it met) by the strings it names; the first key that names
 * another method drops them all. A chunk then costs one probe per frame and one method resolution per method instead
 * of making every frame again.
 */
final class FrameResolver {
    /** Method keys below this keep their frames from one key space to the next (see {@link #carried}). */
    private static final int CARRY_KEYS = 1 << 20;

    /** The key space's (method key, line, frame-type key) to model frame id: one probe per frame. */
    private final FrameKeyMap chunkFrames = new FrameKeyMap();
    /**
     * (Model method, line, frame-type ordinal) to model frame id, behind {@link #chunkFrames}: a chunk that numbers its
     * methods afresh (async-profiler's do) finds the frames of the chunks before it here instead of adding each to the
     * model's frame table again. Only a cache of that table: the first key space, which meets each model frame once
     * (through chunkFrames), goes to the table directly; the table's frames are put here when a later one starts.
     */
    private final FrameKeyMap modelFrames = new FrameKeyMap();
    /** Whether {@link #modelFrames} holds the frames the first key space made (see {@link #fillModelFrames}). */
    private boolean modelFramesFilled;

    // carried, carryable, keySpace and drops are read by StackTraces and StackResolver, written only here
    /** Whether {@link #chunkFrames} holds frames of an earlier key space that this one has not all confirmed. */
    boolean carried;
    /**
     * Whether every entry of chunkFrames has a method key below CARRY_KEYS (else the map is emptied for the next):
     * not for the JDK's method keys.
     */
    boolean carryable = true;
    /** The key space's number, from 1. */
    int keySpace;
    /** Per method key: the key space that confirmed it (or made its frames), and its model method id + 1. */
    private int[] confirmedIn = new int[0];
    private int[] methodOf = new int[0];
    /** Per frame-type key: the frame type ordinal + 1 of the frames made with it. */
    private final int[] typeOf = new int[256];
    private boolean typesConfirmed;
    /** How often the frames were dropped: model frame ids found through them before may be stale. */
    int drops;

    /** A new key space: its frames kept to be confirmed when carry allows and they can be, else dropped. */
    void nextKeySpace(boolean carry) {
        keySpace++;
        if (carry && carryable && chunkFrames.size() > 0) {
            carried = true;
            typesConfirmed = false;
        } else {
            dropFrames();
        }
    }

    /** Before a pool's frames are resolved: the carried frames' types confirmed, the map sized when empty. */
    void beginPool(ChunkResolver resolver, boolean hasEntries) {
        if (carried && !typesConfirmed) {
            confirmTypes(resolver);
        }
        if (hasEntries && chunkFrames.size() == 0) {
            // a method has two frames or more in every benchmark input (2.1 to 6 on average: lines differ)
            chunkFrames.expect(2 * resolver.poolMethods());
        }
    }

    private void dropFrames() {
        drops++;
        chunkFrames.clear();
        carried = false;
        carryable = true;
        Arrays.fill(methodOf, 0);
        Arrays.fill(typeOf, 0);
    }

    /** A frame of chunkFrames, or -1 (and the map emptied) when its method key now names another method. */
    private int confirmed(long methodKey, int frame, ChunkResolver resolver) {
        if (methodKey < 0 || methodKey >= confirmedIn.length) {
            return frame;   // made in this key space: only keys below the arrays' length are carried
        }
        // the check of every frame, small enough to be inlined into the probe; the confirmation once per key apart
        return confirmedIn[(int) methodKey] == keySpace ? frame : confirm(methodKey, frame, resolver);
    }

    /** {@link #confirmed} for a method key not yet confirmed in this key space. */
    private int confirm(long methodKey, int frame, ChunkResolver resolver) {
        int k = (int) methodKey;
        if (methodOf[k] != 0 && resolver.names(methodKey, methodOf[k] - 1)) {
            confirmedIn[k] = keySpace;
            return frame;
        }
        dropFrames();
        return -1;
    }

    /** Keeps the carried frames only when every frame-type key they were made with still means the same type. */
    private void confirmTypes(ChunkResolver resolver) {
        typesConfirmed = true;
        for (int t = 0; t < typeOf.length; t++) {
            if (typeOf[t] != 0 && typeOf[t] != resolver.frameType(t) + 1) {
                dropFrames();
                return;
            }
        }
    }

    /**
     * Whether every method key of the n packed frame keys is confirmed in this key space (confirming those met first
     * here, as a probe of the frame map would); false, and the carried frames dropped, when one names another method.
     */
    boolean confirmedAll(long[] keys, int n, ChunkResolver resolver) {
        int[] confirmed = confirmedIn;
        int space = keySpace;
        for (int i = 0; i < n; i++) {
            long m = keys[i] >>> 32;
            if (m >= confirmed.length) {
                return false;
            }
            int k = (int) m;
            if (confirmed[k] != space) {
                if (methodOf[k] == 0 || confirmed(m, 0, resolver) < 0) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * The model frame of a packed frame key: one probe of {@link #chunkFrames}, its method confirmed where the frames
     * are carried from an earlier key space, made when new.
     */
    int frameOfKey(long key, ChunkResolver resolver) {
        int f = chunkFrames.get(key);
        if (f >= 0 && carried) {
            f = confirmed(key >>> 32, f, resolver);
        }
        return f >= 0 ? f : newFrame(key >>> 32, (int) (key >>> 8) & 0xffffff, key & 0xff, true, key, resolver);
    }

    /** The model frame id of a chunk frame (method key, line, frame-type key), made (and remembered) when new. */
    int frameOf(long methodKey, int line, long typeKey, ChunkResolver resolver) {
        boolean packs = FrameKeyMap.packs(methodKey, line, typeKey);
        long chunkKey = packs ? FrameKeyMap.pack(methodKey, line, typeKey) : 0;
        int f = packs ? chunkFrames.get(chunkKey) : chunkFrames.getWide(methodKey, line, typeKey);
        if (f >= 0 && carried) {
            f = confirmed(methodKey, f, resolver);
        }
        return f >= 0 ? f : newFrame(methodKey, line, typeKey, packs, chunkKey, resolver);
    }

    /**
     * The model frame of a chunk frame that {@link #chunkFrames} does not hold (or no longer: its key space's frames
     * were dropped), remembered there; chunkKey is its packed key when it packs.
     */
    private int newFrame(long methodKey, int line, long typeKey, boolean packs, long chunkKey, ChunkResolver resolver) {
        int method = resolver.method(methodKey);
        int type = resolver.frameType(typeKey);
        int f = modelFrame(method, line, type, resolver);
        boolean small = methodKey >= 0 && methodKey < CARRY_KEYS;
        int k = (int) methodKey;
        if (carried && small && k < methodOf.length && methodOf[k] != 0 && methodOf[k] != method + 1
                && confirmedIn[k] != keySpace) {
            dropFrames();   // the key's carried frames name another method
        }
        if (packs) {
            chunkFrames.put(chunkKey, f);
        } else {
            chunkFrames.putWide(methodKey, line, typeKey, f);
        }
        if (small && packs) {
            if (k >= methodOf.length) {
                int n = Math.min(CARRY_KEYS, Math.max(k + 1, methodOf.length * 2 + 1024));
                methodOf = Arrays.copyOf(methodOf, n);
                confirmedIn = Arrays.copyOf(confirmedIn, n);
            }
            methodOf[k] = method + 1;
            confirmedIn[k] = keySpace;
            typeOf[(int) typeKey] = type + 1;
        } else {
            carryable = false;
        }
        return f;
    }

    private int modelFrame(int method, int line, int type, ChunkResolver resolver) {
        if (keySpace == 1) {
            return resolver.frame(method, line, type);
        }
        if (!modelFramesFilled) {
            fillModelFrames(resolver.frames());
        }
        if (FrameKeyMap.packs(method, line, type)) {
            long key = FrameKeyMap.pack(method, line, type);
            int f = modelFrames.get(key);
            if (f < 0) {
                f = resolver.frame(method, line, type);
                modelFrames.put(key, f);
            }
            return f;
        }
        int f = modelFrames.getWide(method, line, type);
        if (f < 0) {
            f = resolver.frame(method, line, type);
            modelFrames.putWide(method, line, type, f);
        }
        return f;
    }

    /**
     * Puts every frame of the model in {@link #modelFrames}, at the first frame a later key space makes: one pass
     * over the table's columns, where the frames the next chunk repeats (the JDK's chunk of a jfrsync file names the
     * methods the profiler's did) would each cost a probe of the table.
     */
    private void fillModelFrames(FrameTable table) {
        for (int f = 0, n = table.size(); f < n; f++) {
            int method = table.method(f);
            int line = table.line(f);
            int type = table.type(f).ordinal();
            if (FrameKeyMap.packs(method, line, type)) {
                modelFrames.put(FrameKeyMap.pack(method, line, type), f);
            } else {
                modelFrames.putWide(method, line, type, f);
            }
        }
        modelFramesFilled = true;
    }
}
