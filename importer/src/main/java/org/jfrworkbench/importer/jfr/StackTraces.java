package org.jfrworkbench.importer.jfr;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

import org.jfrworkbench.importer.InvalidRecordingException;

/**
 * The stack-trace pool of one key space: each stack key's model stack id. The pool is usually most of a chunk, and
 * its stacks come before the methods, classes and symbols their frames name, so it is read in two passes. While the
 * pools are read, each entry is only checked and skipped (counting the ends of its compressed integers), and its
 * position noted. Once every pool is known, {@link #resolve} has the noted entries made into model stacks by the
 * {@link StackResolver}, on this thread or with a {@link StackDecoder} decoding blocks of them beside: no per-frame
 * intermediate is stored, and nothing touches the model before the chunk's pools have all been read. Which field is
 * which comes from the metadata, found by name ({@link FrameRoles}).
 */
final class StackTraces {
    /** Larger than most maps' dense part: async-profiler's stack keys go up to a few times the number of stacks. */
    private static final int DENSE_KEYS = 1 << 20;

    /** Whether frames (and stacks) are carried at all; tests turn it off to compare the model made without. */
    static volatile boolean carry = true;
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

    private final LongIntMap index = new LongIntMap(1024, DENSE_KEYS);
    private final FrameRoles frameRoles = new FrameRoles();
    private final FrameResolver frameResolver = new FrameResolver();
    private final StackResolver stackResolver = new StackResolver(frameResolver, frameRoles);
    /** Entries noted by {@link #read} and not yet resolved: their keys and the chunk positions of their values. */
    private long[] pendingKeys = new long[1024];
    private int[] pendingPositions = new int[1024];
    private int pending;
    /** The frames of the pending entries (each up to {@link StackResolver#MAX_FRAMES}): room the model stacks need. */
    private long pendingFrames;
    private JfrType pendingType;

    /** Empties the pool for the next key space, keeping the arrays (and the frames, to be confirmed). */
    void reset() {
        index.clear();
        pending = 0;
        pendingFrames = 0;
        frameRoles.forget();
        frameResolver.nextKeySpace(carry);
        stackResolver.forgetDroppedStacks();
    }

    /** Pass 1: checks one entry of the stack-trace type st and moves past it, noting where it is. */
    void read(JfrInput in, ValueReader values, long key, JfrType st) throws InvalidRecordingException {
        int start = in.pos;
        for (JfrField f : st.fields) {
            if (FrameKeys.isFrames(f)) {
                pendingFrames += Math.min(StackResolver.MAX_FRAMES, skipFrames(in, values, f.type));
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
        frameResolver.beginPool(resolver, pending > 0);
        JfrType st = pendingType;
        if (pending > 0) {
            resolver.reserveStacks(pending, pendingFrames);
            index.reserve(pending);
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
            helper = frameResolver.carryable || splitLargeKeys ? startHelper(in, st, first) : null;
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
        long key = pendingKeys[e];
        index.put(key, stackResolver.stack(key, pendingPositions[e], in, values, st, resolver));
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
                roles.layout, frameResolver.keySpace > 1);
    }

    /**
     * The pending entries block by block in pool order: a block the helper did not take is resolved here as
     * sequentially, one it took is merged from its decoded form; the model is the sequential reader's.
     */
    private void resolveBeside(StackDecoder helper, JfrInput in, ValueReader values, JfrType st, ChunkResolver resolver)
            throws InvalidRecordingException {
        int blockEntries = helper.blockEntries;
        stackResolver.beginMerge(helper);
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

    /** Entries [from, to) from the helper's block: those it left decoded here, the others merged from it. */
    private void merge(StackDecoder helper, StackDecoder.Block block, int from, int to, JfrInput in, ValueReader values,
            JfrType st, ChunkResolver resolver) throws InvalidRecordingException {
        stackResolver.fitBlock(helper, block);
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
            long key = pendingKeys[e];
            index.put(key, stackResolver.merged(key, block, i, at, depth, flags, resolver));
            at += depth;
        }
    }

    /** The model stack id of a stack key, or -1. */
    int find(long key) {
        return index.get(key);
    }
}
