package org.jfrworkbench.importer.jfr;

import java.util.Arrays;

import org.jfrworkbench.importer.InvalidRecordingException;
import org.jfrworkbench.model.StackTable;

/**
 * One noted stack-trace entry to its model stack, decoded here or merged from a {@link StackDecoder}'s block: its
 * frames' keys to model frames through the {@link FrameResolver}, then the stack to the model's stack table. A stack
 * key that had a stack in an earlier key space whose frames are still carried is that stack again when its frames'
 * keys hash the same. {@link StackTraces} decides which entries come here in what order; this class holds what one
 * stack needs: its buffers, the stacks carried, the model frames a helper's local ids stand for.
 */
final class StackResolver {
    /** The most frames a model stack keeps: deeper stacks are cut and marked truncated. */
    static final int MAX_FRAMES = 65536;
    /** Stack keys below this keep their model stack from one key space to the next (see {@link #carriedStack}). */
    private static final int CARRY_STACK_KEYS = 1 << 22;

    private final FrameResolver frameResolver;
    private final FrameRoles frameRoles;
    private int[] frames = new int[256];
    private long[] packedKeys = new long[256];
    /** The {@link StackTable#framesHash} of the frames {@link #probeFrames} made. */
    private int framesHash;
    /** After {@link #readFrames}: the frames' keys are in {@link #packedKeys} and not yet turned into model frames. */
    private boolean keysOnly;
    /** The {@link FrameKeys#hashKeys} of the frame keys in {@link #packedKeys}, once computed for them. */
    private long keysHash;

    /** Per local id of the helper's frames: its model frame id, or -1 until met. */
    private int[] localModel = new int[0];
    /** The frame resolver's drops when the helper started: after a drop its model ids are not used (see probeLocal). */
    private int dropsBeside;
    /** The entry of the helper's block being merged, and whether the helper found all its model frames. */
    private int mergedEntry;
    private boolean mergedKnown;

    /**
     * Per stack key: the model stack id + 1 it had in an earlier key space whose frames the frame resolver still
     * holds, and the {@link #keysHash} of its frames' keys then. async-profiler repeats in a chunk the stacks of
     * earlier chunks under the same keys; a stack whose frame keys hash the same, all its method keys confirmed (and
     * its frame-type keys, by the frame resolver), is that model stack again without a probe of the frame map or the
     * stack table. Emptied with the frames they were made of (see {@link #forgetDroppedStacks}).
     */
    private int[] carriedStack = new int[0];
    private long[] carriedHash = new long[0];
    /** Whether {@link #carriedStack} holds anything (it is emptied only then). */
    private boolean stacksCarried;
    /** The frame resolver's drops that {@link #carriedStack} has seen. */
    private int stacksDrops;

    StackResolver(FrameResolver frameResolver, FrameRoles frameRoles) {
        this.frameResolver = frameResolver;
        this.frameRoles = frameRoles;
    }

    /**
     * Empties the carried stacks when the frames they were made of were dropped since they were noted: at a new key
     * space, and before a stack is noted. Between the two, a drop leaves the frames uncarried, so none is looked up.
     */
    void forgetDroppedStacks() {
        int drops = frameResolver.drops;
        if (stacksDrops != drops) {
            stacksDrops = drops;
            if (stacksCarried) {
                Arrays.fill(carriedStack, 0);
                stacksCarried = false;
            }
        }
    }

    /** The model stack of the stack-trace entry of type st at position; pass 1 checked it, so it decodes. */
    int stack(long key, int position, JfrInput in, ValueReader values, JfrType st, ChunkResolver resolver)
            throws InvalidRecordingException {
        in.pos = position;
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
        if (keysOnly) {
            return carriedStack(key, depth, wasTruncated, resolver, null, 0, 0);
        }
        int kept = Math.min(depth, MAX_FRAMES);
        int hash = StackTable.framesHash(frames, 0, kept);
        return resolver.stack(frames, kept, wasTruncated || kept < depth, hash);
    }

    /** Before the blocks of helper are merged: no local id's model frame is known yet. */
    void beginMerge(StackDecoder helper) {
        localModel = localModel.length > 0 ? localModel : new int[4096];
        Arrays.fill(localModel, -1);
        helper.known = localModel;
        dropsBeside = frameResolver.drops;
    }

    /** Before the entries of block are merged: room for its local ids. */
    void fitBlock(StackDecoder helper, StackDecoder.Block block) {
        if (localModel.length < block.keys.length) {
            int old = localModel.length;
            localModel = Arrays.copyOf(localModel, Math.max(block.keys.length, old * 2));
            Arrays.fill(localModel, old, localModel.length, -1);
            helper.known = localModel;
        }
    }

    /**
     * The model stack of entry i of the helper's block, its depth frames from local id at: model frames through
     * {@link #localModel}, the stack as sequentially.
     */
    int merged(long key, StackDecoder.Block block, int i, int at, int depth, int flags, ChunkResolver resolver) {
        if (frames.length < depth) {
            frames = new int[Math.max(depth, frames.length * 2)];
        }
        mergedEntry = i;
        mergedKnown = (flags & StackDecoder.KNOWN) != 0 && frameResolver.drops == dropsBeside;
        return carriedStack(key, depth, (flags & StackDecoder.TRUNCATED) != 0, resolver, block, at, block.hashes[i]);
    }

    /**
     * The model stack of a stack whose frame keys {@link FrameKeys#decodeVarintFrames} left in {@link #packedKeys}:
     * the stack the key had in an earlier key space when its frames are the same, else made from them; remembered for
     * the next.
     */
    private int carriedStack(long key, int depth, boolean wasTruncated, ChunkResolver resolver,
            StackDecoder.Block block, int at, long hashOfKeys) {
        boolean small = key >= 0 && key < CARRY_STACK_KEYS;
        int k = (int) key;
        boolean known = frameResolver.carried && small && k < carriedStack.length && carriedStack[k] != 0;
        if (known) {
            if (block != null) {
                keysHash = hashOfKeys;
                unpackKeys(block, at, depth);
            } else {
                // hashed before the probes only when the key had a stack: else while their cache misses are waited for
                keysHash = FrameKeys.hashKeys(packedKeys, depth);
            }
            if (carriedHash[k] == stackHash(wasTruncated) && frameResolver.confirmedAll(packedKeys, depth, resolver)) {
                return carriedStack[k] - 1;
            }
        }
        // not noted in the first key space: a file of one chunk would pay for the notes and never use them (what the
        // second chunk repeats of the first is made again)
        boolean note = small && frameResolver.carryable && frameResolver.keySpace > 1;
        int[] stackFrames = frames;
        int from = 0;
        if (block != null) {
            keysHash = hashOfKeys;
            if (mergedKnown && frameResolver.drops == dropsBeside) {
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
            forgetDroppedStacks();
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
            frames[i] = frameResolver.frameOf(method, Math.max(0, line), type, resolver);
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
            int f = frameResolver.frameOfKey(key, resolver);
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
     * {@link #framesHash}: a frame map probe (and what a miss costs) only at a local id's first frame, as the
     * sequential reader pays it at the same frame, since the block's frames come in pool order. Dropping the carried
     * frames empties the frame resolver's map, and then every local id's model frame is looked up again, as the
     * sequential reader would.
     */
    private void probeLocal(StackDecoder.Block block, int at, int n, ChunkResolver resolver) {
        int[] locals = block.locals;
        long[] keys = block.keys;
        int[] model = localModel;
        // the frames the helper found need no look-up here, until frames are dropped
        int[] found = block.model;
        boolean helperFound = frameResolver.drops == dropsBeside;
        int[] out = frames;
        int hash = 0;
        for (int i = 0; i < n; i++) {
            int local = locals[at + i];
            int f = helperFound ? found[at + i] : -1;
            if (f < 0) {
                f = model[local];
            }
            if (f < 0) {
                int dropsBefore = frameResolver.drops;
                f = frameResolver.frameOfKey(keys[local], resolver);
                if (frameResolver.drops != dropsBefore) {
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
}
