package org.jfrworkbench.importer.jfr;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

import org.jfrworkbench.importer.InvalidRecordingException;
import org.jfrworkbench.model.FrameTable;
import org.jfrworkbench.model.StackTable;

/**
 * The stack-trace pool of one key space: each stack key's model stack id. The pool is usually most of a chunk, and
 * its stacks come before the methods, classes and symbols their frames name, so it is read in two passes. While the
 * pools are read, each entry is only checked and skipped (counting the ends of its compressed integers), and its
 * position noted. Once every pool is known, {@link #resolve} decodes the noted entries and turns each frame straight
 * into a model frame (a frame seen before costs one probe of {@link FrameKeyMap}) and each stack into a model stack:
 * no per-frame intermediate is stored, and nothing touches the model before the chunk's pools have all been read.
 * Which field is which comes from the metadata, found by name.
 */
final class StackTraces {
    /** Larger than most maps' dense part: async-profiler's stack keys go up to a few times the number of stacks. */
    private static final int DENSE_KEYS = 1 << 20;
    private static final int MAX_FRAMES = 65536;

    private final LongIntMap index = new LongIntMap(1024, DENSE_KEYS);
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
    /** Entries noted by {@link #read} and not yet resolved: their keys and the chunk positions of their values. */
    private long[] pendingKeys = new long[1024];
    private int[] pendingPositions = new int[1024];
    private int pending;
    /** The frames of the pending entries (each up to {@link #MAX_FRAMES}): room the model stacks may need. */
    private long pendingFrames;
    private JfrType pendingType;
    private final FrameRoles frameRoles = new FrameRoles();
    private int[] frames = new int[256];
    private long[] packedKeys = new long[256];
    /** The {@link StackTable#framesHash} of the frames {@link #probeFrames} made. */
    private int framesHash;

    /** Whether frames (and stacks) are carried at all; tests turn it off to compare the model made without. */
    static volatile boolean carry = true;
    /** Method keys below this keep their frames from one key space to the next (see {@link #carried}). */
    private static final int CARRY_KEYS = 1 << 20;
    /**
     * Whether {@link #chunkFrames} holds frames of an earlier key space that this one has not all confirmed.
     * async-profiler starts the constant pools of every chunk afresh (its metadata differs from chunk to chunk) but keeps
     * its method and frame-type keys for the whole recording: a method key that still names the same model method
     * (checked once per key space, at the first frame of it met) keeps all its frames, so a chunk costs one probe per
     * frame and one method resolution per method instead of making every frame again. The first key that names another
     * method empties the map.
     */
    private boolean carried;
    /** Whether every entry of chunkFrames has a method key below CARRY_KEYS (else the map is emptied for the next). */
    private boolean carryable = true;
    private int keySpace;
    /** Per method key: the key space that confirmed it (or made its frames), and its model method id + 1. */
    private int[] confirmedIn = new int[0];
    private int[] methodOf = new int[0];
    /** Per frame-type key: the frame type ordinal + 1 of the frames made with it. */
    private final int[] typeOf = new int[256];
    private boolean typesConfirmed;

    /** Stack keys below this keep their model stack from one key space to the next (see {@link #carriedStack}). */
    private static final int CARRY_STACK_KEYS = 1 << 22;
    /**
     * Per stack key: the model stack id + 1 it had in an earlier key space whose frames {@link #chunkFrames} still
     * holds, and the {@link #keysHash} of its frames' keys then. async-profiler repeats in a chunk the stacks of
     * earlier chunks under the same keys; a stack whose frame keys hash the same, all its method keys confirmed (and
     * its frame-type keys, by {@link #confirmTypes}), is that model stack again without a probe of the frame map or
     * the stack table. Emptied with the frames they were made of.
     */
    private int[] carriedStack = new int[0];
    private long[] carriedHash = new long[0];
    /** Whether {@link #carriedStack} holds anything (it is emptied only then). */
    private boolean stacksCarried;
    /** After {@link #readFrames}: the frames' keys are in {@link #packedKeys} and not yet turned into model frames. */
    private boolean keysOnly;
    /** The {@link FrameKeys#hashKeys} of the frame keys in {@link #packedKeys}, once computed for them. */
    private long keysHash;

    /**
     * Pools of at least this many pending entries are resolved with a {@link StackDecoder} beside, when a processor is
     * spare; Integer.MAX_VALUE: never. Tests lower it (and the block size) to take the two-thread path on small files.
     */
    static volatile int splitEntries = Integer.getInteger("workbench.importer.splitStacks",
            Runtime.getRuntime().availableProcessors() > 1 ? 16_384 : Integer.MAX_VALUE);
    static volatile int splitBlockEntries = 512;
    /** Whether pools whose method keys are too large to carry (the JDK's) are split too: for tests only. */
    static volatile boolean splitLargeKeys;
    /** Blocks merged from a helper's decoding, over every import (tests see that the path was taken). */
    static final AtomicLong splitBlocks = new AtomicLong();
    /** Per local id of the helper's frames: its model frame id, or -1 until met. */
    private int[] localModel = new int[0];
    /** How often the frames were dropped: a local id's model frame found before may then be looked up again. */
    private int drops;
    /** {@link #drops} when the helper started: after a drop the helper's model ids are not used (see probeLocal). */
    private int dropsBeside;
    /** The entry of the helper's block being merged, and whether the helper found all its model frames. */
    private int mergedEntry;
    private boolean mergedKnown;

    /** Empties the pool for the next key space, keeping the arrays (and the frames, to be confirmed). */
    void reset() {
        index.clear();
        pending = 0;
        pendingFrames = 0;
        frameRoles.forget();
        keySpace++;
        if (carry && carryable && chunkFrames.size() > 0) {
            carried = true;
            typesConfirmed = false;
        } else {
            dropFrames();
        }
    }

    private void dropFrames() {
        drops++;
        chunkFrames.clear();
        if (stacksCarried) {
            Arrays.fill(carriedStack, 0);
            stacksCarried = false;
        }
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
        int k = (int) methodKey;
        if (confirmedIn[k] == keySpace) {
            return frame;
        }
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

    /** Pass 1: checks one entry of the stack-trace type st and moves past it, noting where it is. */
    void read(JfrInput in, ValueReader values, long key, JfrType st) throws InvalidRecordingException {
        int start = in.pos;
        for (JfrField f : st.fields) {
            if (FrameKeys.isFrames(f)) {
                pendingFrames += Math.min(MAX_FRAMES, skipFrames(in, values, f.type));
            } else {
                values.skip(f, 1);
            }
        }
        if (pending == pendingKeys.length) {
            pendingKeys = Arrays.copyOf(pendingKeys, pending * 2);
            pendingPositions = Arrays.copyOf(pendingPositions, pending * 2);
        }
        pendingKeys[pending] = key;
        pendingPositions[pending++] = start;
        pendingType = st;
    }

    /** Moves past the frames of one stack; returns their number. */
    private int skipFrames(JfrInput in, ValueReader values, JfrType frame) throws InvalidRecordingException {
        int n = in.readCount("stack frame");
        JfrField[] fields = frame.fields;
        if (frameRoles.of(frame).allVarints) {
            in.skipVarints((long) n * fields.length);
            return n;
        }
        for (int i = 0; i < n; i++) {
            for (JfrField f : fields) {
                values.skip(f, 2);
            }
        }
        return n;
    }

    /**
     * Pass 2: every entry noted since the last call becomes a model stack. The entries were checked by pass 1, so
     * they decode without error. A key noted twice keeps its last entry, as a map of the pool would.
     */
    void resolve(JfrInput in, ValueReader values, ChunkResolver resolver) throws InvalidRecordingException {
        if (carried && !typesConfirmed) {
            confirmTypes(resolver);
        }
        JfrType st = pendingType;
        if (pending > 0) {
            resolver.reserveStacks(pending, pendingFrames);
            index.reserve(pending);
            if (chunkFrames.size() == 0) {
                // a method has two frames or more in every benchmark input (2.1 to 6 on average: lines differ)
                chunkFrames.expect(2 * resolver.poolMethods());
            }
        }
        int first = 0;
        StackDecoder helper = null;
        if (pending >= splitEntries) {
            // the first block on this thread, which shows whose frames these are: the JDK's method keys (a class id in
            // their high bits) leave carryable false, and its pools gain nothing from the helper
            first = Math.min(pending, splitBlockEntries);
            for (int e = 0; e < first; e++) {
                resolveEntry(e, in, values, st, resolver);
            }
            helper = carryable || splitLargeKeys ? startHelper(in, st, first) : null;
        }
        if (helper == null) {
            for (int e = first; e < pending; e++) {
                resolveEntry(e, in, values, st, resolver);
            }
        } else {
            try {
                resolveBeside(helper, in, values, st, resolver);
            } finally {
                helper.stop();
            }
        }
        pending = 0;
        pendingFrames = 0;
    }

    private void resolveEntry(int e, JfrInput in, ValueReader values, JfrType st, ChunkResolver resolver)
            throws InvalidRecordingException {
        in.pos = pendingPositions[e];
        values.budget(in.remaining());
        boolean wasTruncated = false;
        int depth = 0;
        keysOnly = false;
        for (JfrField f : st.fields) {
            if (f.name.equals("truncated") && ValueReader.isScalar(f)) {
                wasTruncated = values.scalar(f) != 0;
            } else if (FrameKeys.isFrames(f)) {
                depth = readFrames(in, values, f.type, resolver);
            } else {
                values.skip(f, 1);
            }
        }
        long key = pendingKeys[e];
        if (keysOnly) {
            index.put(key, carriedStack(key, depth, wasTruncated, resolver, null, 0, 0));
            return;
        }
        int kept = Math.min(depth, MAX_FRAMES);
        int hash = StackTable.framesHash(frames, 0, kept);
        index.put(key, resolver.stack(frames, kept, wasTruncated || kept < depth, hash));
    }

    /**
     * A {@link StackDecoder} for the pending entries from first on, started, when their frames are all compressed
     * integers (the decoder's fast path) and a processor is spare; else null.
     */
    private StackDecoder startHelper(JfrInput in, JfrType st, int first) {
        JfrType frame = null;
        for (JfrField f : st.fields) {
            if (FrameKeys.isFrames(f)) {
                frame = f.type;
            }
        }
        if (frame == null) {
            return null;
        }
        FrameRoles roles = frameRoles.of(frame);
        if (!roles.allVarints) {
            return null;
        }
        return StackDecoder.start(in.copy(), st, pendingPositions, first, pending, splitBlockEntries, roles.role,
                roles.layout, keySpace > 1);
    }

    /**
     * The pending entries block by block in pool order: a block the helper did not take is resolved here as
     * sequentially, one it took is merged from its decoded form; the model is the sequential reader's.
     */
    private void resolveBeside(StackDecoder helper, JfrInput in, ValueReader values, JfrType st, ChunkResolver resolver)
            throws InvalidRecordingException {
        int blockEntries = helper.blockEntries;
        localModel = localModel.length > 0 ? localModel : new int[4096];
        Arrays.fill(localModel, -1);
        helper.known = localModel;
        dropsBeside = drops;
        for (int b = 0; b < helper.blocks; b++) {
            int from = helper.first + b * blockEntries;
            int to = Math.min(pending, from + blockEntries);
            StackDecoder.Block block = helper.claim(b) ? null : helper.take(b);
            if (block == null || block.failed) {
                for (int e = from; e < to; e++) {
                    resolveEntry(e, in, values, st, resolver);
                }
            } else {
                merge(helper, block, from, to, in, values, st, resolver);
                splitBlocks.incrementAndGet();
            }
            if (block != null) {
                helper.release();
            }
        }
    }

    /** Entries [from, to) from the helper's block: model frames through {@link #localModel}, stacks as sequentially. */
    private void merge(StackDecoder helper, StackDecoder.Block block, int from, int to, JfrInput in, ValueReader values,
            JfrType st, ChunkResolver resolver) throws InvalidRecordingException {
        if (localModel.length < block.keys.length) {
            int old = localModel.length;
            localModel = Arrays.copyOf(localModel, Math.max(block.keys.length, old * 2));
            Arrays.fill(localModel, old, localModel.length, -1);
            helper.known = localModel;
        }
        int[] entries = block.entries;
        int at = 0;
        for (int e = from; e < to; e++) {
            int i = e - from;
            int depth = entries[2 * i];
            int flags = entries[2 * i + 1];
            if ((flags & StackDecoder.LEFT) != 0) {
                resolveEntry(e, in, values, st, resolver);
                continue;
            }
            if (frames.length < depth) {
                frames = new int[Math.max(depth, frames.length * 2)];
            }
            long key = pendingKeys[e];
            mergedEntry = i;
            mergedKnown = (flags & StackDecoder.KNOWN) != 0 && drops == dropsBeside;
            index.put(key, carriedStack(key, depth, (flags & StackDecoder.TRUNCATED) != 0, resolver, block, at,
                    block.hashes[i]));
            at += depth;
        }
    }

    /**
     * The model stack of a stack whose frame keys {@link FrameKeys#decodeVarintFrames} left in {@link #packedKeys}: the
     * stack the key had in an earlier key space when its frames are the same, else made from them; remembered for the next.
     */
    private int carriedStack(long key, int depth, boolean wasTruncated, ChunkResolver resolver, StackDecoder.Block block,
            int at, long hashOfKeys) {
        boolean small = key >= 0 && key < CARRY_STACK_KEYS;
        int k = (int) key;
        boolean known = carried && small && k < carriedStack.length && carriedStack[k] != 0;
        if (known) {
            if (block != null) {
                keysHash = hashOfKeys;
                unpackKeys(block, at, depth);
            } else {
                // hashed before the probes only when the key had a stack: else while their cache misses are waited for
                keysHash = FrameKeys.hashKeys(packedKeys, depth);
            }
            if (carriedHash[k] == stackHash(wasTruncated) && confirmedAll(depth, resolver)) {
                return carriedStack[k] - 1;
            }
        }
        // not noted in the first key space: a file of one chunk would pay for the notes and never use them (what the
        // second chunk repeats of the first is made again)
        boolean note = small && carryable && keySpace > 1;
        int[] stackFrames = frames;
        int from = 0;
        if (block != null) {
            keysHash = hashOfKeys;
            if (mergedKnown && drops == dropsBeside) {
                // the helper found every frame's model id in what this thread had found before: nothing to probe
                // (unless confirming the keys above dropped the frames: then they are probed again, as on one thread)
                stackFrames = block.model;
                from = at;
                framesHash = block.framesHashes[mergedEntry];
            } else {
                probeLocal(block, at, depth, resolver);
            }
        } else {
            probeFrames(depth, resolver, known || !note);
        }
        long hash = stackHash(wasTruncated);
        int kept = Math.min(depth, MAX_FRAMES);
        int hashOfFrames = kept == depth ? framesHash : StackTable.framesHash(stackFrames, from, kept);
        int stack = resolver.stack(stackFrames, from, kept, wasTruncated || kept < depth, hashOfFrames);
        if (note) {
            if (k >= carriedStack.length) {
                int n = Math.min(CARRY_STACK_KEYS, Math.max(k + 1, carriedStack.length * 2 + 4096));
                carriedStack = Arrays.copyOf(carriedStack, n);
                carriedHash = Arrays.copyOf(carriedHash, n);
            }
            carriedStack[k] = stack + 1;
            carriedHash[k] = hash;
            stacksCarried = true;
        }
        return stack;
    }

    private long stackHash(boolean wasTruncated) {
        return keysHash * 0x9E3779B97F4A7C15L + (wasTruncated ? 1 : 2);
    }

    /**
     * Whether every method key of the frames in {@link #packedKeys} is confirmed in this key space (confirming those met
     * first here, as a probe of the frame map would); false, and the carried frames dropped, when one names another
     * method.
     */
    private boolean confirmedAll(int n, ChunkResolver resolver) {
        long[] keys = packedKeys;
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

    /** Decodes the frames of one stack into {@link #frames} as model frame ids; returns their number. */
    private int readFrames(JfrInput in, ValueReader values, JfrType frame, ChunkResolver resolver)
            throws InvalidRecordingException {
        int n = in.readCount("stack frame");
        JfrField[] fields = frame.fields;
        FrameRoles roles = frameRoles.of(frame);
        int[] role = roles.role;
        if (frames.length < n) {
            frames = new int[Math.max(n, frames.length * 2)];
        }
        if (roles.allVarints && (long) n * fields.length * 9 <= in.limit() - in.pos) {
            if (packedKeys.length < n) {
                packedKeys = new long[Math.max(n, packedKeys.length * 2)];
            }
            int end = FrameKeys.decodeVarintFrames(in, in.pos, n, role, roles.layout, packedKeys);
            if (end >= 0) {
                in.pos = end;
                keysOnly = true;
                return n;
            }
            // a frame key too large to pack (never seen): the stack again, frame by frame
        }
        keysOnly = false;
        for (int i = 0; i < n; i++) {
            long method = 0;
            long type = 0;
            int line = 0;
            for (int j = 0; j < fields.length; j++) {
                int r = role[j];
                if (r == FrameKeys.OTHER) {
                    values.skip(fields[j], 2);
                    continue;
                }
                // a compressed integer is read directly; other scalars by their declared type
                long v = fields[j].varint ? in.varLong() : values.scalar(fields[j]);
                if (r == FrameKeys.METHOD) {
                    method = v;
                } else if (r == FrameKeys.LINE) {
                    line = (int) v;
                } else if (r == FrameKeys.TYPE) {
                    type = v;
                }
            }
            frames[i] = modelFrame(method, Math.max(0, line), type, resolver);
        }
        return n;
    }

    /**
     * The model frames of the n keys in {@link #packedKeys}, into {@link #frames}, and their {@link #framesHash}; the
     * keys' {@link FrameKeys#hashKeys} too when keysHashed is false (then in {@link #keysHash}).
     */
    private void probeFrames(int n, ChunkResolver resolver, boolean keysHashed) {
        long[] keys = packedKeys;
        int[] out = frames;
        int hash = 0;
        long h = n;
        for (int i = 0; i < n; i++) {
            long key = keys[i];
            if (!keysHashed) {
                h = FrameKeys.mixKey(h, key);
            }
            int f = frameOfKey(key, resolver);
            out[i] = f;
            // the stack table's hash, while the probes' cache misses are waited for anyway
            hash = hash * 31 + f;
        }
        framesHash = hash;
        if (!keysHashed) {
            keysHash = FrameKeys.finishKeys(h);
        }
    }

    /**
     * The model frames of n frames of a helper's block (its local ids from at), into {@link #frames}, and their
     * {@link #framesHash}: a frame map probe (and what a miss costs) only at a local id's first frame, as the sequential
     * reader pays it at the same frame, since the block's frames come in pool order. Dropping the carried frames empties
     * {@link #chunkFrames}, and then every local id's model frame is looked up again, as the sequential reader would.
     */
    private void probeLocal(StackDecoder.Block block, int at, int n, ChunkResolver resolver) {
        int[] locals = block.locals;
        long[] keys = block.keys;
        int[] model = localModel;
        // the frames the helper found need no look-up here, until frames are dropped
        int[] found = block.model;
        boolean helperFound = drops == dropsBeside;
        int[] out = frames;
        int hash = 0;
        for (int i = 0; i < n; i++) {
            int local = locals[at + i];
            int f = helperFound ? found[at + i] : -1;
            if (f < 0) {
                f = model[local];
            }
            if (f < 0) {
                int dropsBefore = drops;
                f = frameOfKey(keys[local], resolver);
                if (drops != dropsBefore) {
                    Arrays.fill(model, -1);
                    helperFound = false;
                }
                model[local] = f;
            }
            out[i] = f;
            hash = hash * 31 + f;
        }
        framesHash = hash;
    }

    /** The frame keys of n frames of a helper's block (its local ids from at), into {@link #packedKeys}. */
    private void unpackKeys(StackDecoder.Block block, int at, int n) {
        if (packedKeys.length < n) {
            packedKeys = new long[Math.max(n, packedKeys.length * 2)];
        }
        int[] locals = block.locals;
        long[] keys = block.keys;
        for (int i = 0; i < n; i++) {
            packedKeys[i] = keys[locals[at + i]];
        }
    }

    /**
     * The model frame of a packed frame key: one probe of {@link #chunkFrames}, its method confirmed where the frames
     * are carried from an earlier key space, made when new.
     */
    private int frameOfKey(long key, ChunkResolver resolver) {
        int f = chunkFrames.get(key);
        if (f >= 0 && carried) {
            f = confirmed(key >>> 32, f, resolver);
        }
        return f >= 0 ? f : newFrame(key >>> 32, (int) (key >>> 8) & 0xffffff, key & 0xff, true, key, resolver);
    }

    /** The model frame id of a chunk frame (method key, line, frame-type key), made (and remembered) when new. */
    private int modelFrame(long methodKey, int line, long typeKey, ChunkResolver resolver) {
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

    /** The model stack id of a stack key, or -1. */
    int find(long key) {
        return index.get(key);
    }
}
