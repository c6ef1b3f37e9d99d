package org.jfrworkbench.importer.jfr;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;

/**
 * Decodes blocks of a large stack-trace pool on a second thread while the importing thread resolves the blocks before
 * them ({@link StackTraces#resolve}). Each stack becomes its frames' local ids: a frame map of its own numbers each
 * distinct frame key in the order the blocks meet it, and nothing of the model is touched. The importing thread then
 * turns a block's local ids into model frames, probing its frame map once per distinct frame instead of once per frame,
 * and its stacks into model stacks in pool order: the model is the one the sequential reader makes. The importing
 * thread goes through the blocks in pool order and resolves itself each one the helper has not taken; the helper takes
 * blocks ahead of it (see {@link #nextBlock}), at most {@link #BUFFERS} decoded and not yet merged.
 */
final class StackDecoder implements Runnable {
    /** Entry flags in {@link Block#entries}. */
    static final int TRUNCATED = 1, LEFT = 2, KNOWN = 4;
    private static final int BUFFERS = 4;

    /** One decoded block of pool entries. */
    static final class Block {
        int index;
        /** Per entry: its number of frames and its flags ({@link #TRUNCATED}; {@link #LEFT}: not decoded here). */
        final int[] entries;
        /** Per entry: the hash of its frames' keys ({@link FrameKeys#hashKeys}), when asked for. */
        final long[] hashes;
        /** The entries' frames as local ids, one after another. */
        int[] locals = new int[1 << 14];
        /**
         * The same frames' model ids where the importing thread had found them before the block was decoded (see
         * {@link #known}), else -1; an entry flagged {@link #KNOWN} has every one, and their hash in {@link #framesHashes}.
         */
        int[] model = new int[1 << 14];
        final int[] framesHashes;
        /** Local id to frame key, as far as this block's ids go. */
        long[] keys;
        /** Whether decoding failed part way: the importing thread reads the whole block itself. */
        boolean failed;

        Block(int entries) {
            this.entries = new int[2 * entries];
            this.hashes = new long[entries];
            this.framesHashes = new int[entries];
        }
    }

    private final JfrInput in;
    private final ValueReader values;
    private final JfrType stackType;
    private final int[] positions;
    /** The entries [first, entries) of the pool are this decoder's blocks. */
    final int first;
    private final int entries;
    final int blockEntries;
    final int blocks;
    private final int[] role;
    private final int layout;
    private final boolean hashKeys;
    /** Per block: 0 while neither thread has taken it, 1 the importing thread's, 2 the helper's. */
    private final AtomicIntegerArray owners;
    /** The block the importing thread is at. */
    private volatile int at;
    /**
     * The helper's blocks in the order it took them, the k-th in ring[k % BUFFERS]: it has decoded {@link #produced},
     * the importing thread merged {@link #consumed}. Each side polls the other's counter instead of waking it: a
     * hand-over per block through a queue cost the importing thread a system call to wake the helper each time (a
     * tenth of its wall time on a loaded machine).
     */
    private final Block[] ring = new Block[BUFFERS];
    private volatile long produced;
    private volatile long consumed;
    /** Blocks the importing thread has taken from the ring (its thread only). */
    private long taken;
    private volatile boolean cancelled;
    private volatile boolean finished;
    /**
     * Local id to model frame id, as far as the importing thread has found them (-1: not yet); it publishes its array
     * here when it makes a new one. Read without a lock: an id, once found, never changes (the importing thread stops
     * using what it reads from here when its frames are dropped), and an id not seen yet only leaves a frame to it.
     */
    volatile int[] known = new int[0];
    private final FrameKeyMap localIds = new FrameKeyMap();
    private long[] localKeys = new long[4096];
    private int distinct;
    private long[] keys = new long[256];
    /** Whether {@link #number} found the model id of every frame of its stack. */
    private boolean allKnown;

    private StackDecoder(JfrInput in, JfrType stackType, int[] positions, int first, int entries, int blockEntries,
            int[] role, int layout, boolean hashKeys) {
        this.in = in;
        this.values = new ValueReader(in);
        this.stackType = stackType;
        this.positions = positions;
        this.entries = entries;
        this.blockEntries = blockEntries;
        this.first = first;
        this.blocks = (entries - first + blockEntries - 1) / blockEntries;
        this.owners = new AtomicIntegerArray(blocks);
        this.role = role;
        this.layout = layout;
        this.hashKeys = hashKeys;
    }

    /** A decoder of the entries at the given chunk positions, started; null when no processor is spare. */
    static StackDecoder start(JfrInput in, JfrType stackType, int[] positions, int first, int entries, int blockEntries,
            int[] role, int layout, boolean hashKeys) {
        StackDecoder d = new StackDecoder(in, stackType, positions, first, entries, blockEntries, role, layout, hashKeys);
        return SpareProcessor.run(d) ? d : null;
    }

    /** Takes block b for the importing thread, or returns false when the helper has taken it. Blocks go in order. */
    boolean claim(int b) {
        at = b;
        return owners.compareAndSet(b, 0, 1);
    }

    /**
     * The helper's decoded block b (the next one it took), waiting for it; null when the helper stopped without it
     * (then the importing thread reads the block itself). Hand it back with {@link #release} before the next.
     */
    Block take(int b) {
        long k = taken++;
        for (int spins = 0; produced <= k; spins++) {
            if (finished && produced <= k) {
                return null;
            }
            // the importing thread waits on the critical path: spin a little, then sleep in short steps
            if (spins < 1000) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(20_000);
            }
        }
        Block block = ring[(int) (k % BUFFERS)];
        if (block.index != b) {
            throw new IllegalStateException("stack block " + block.index + " where " + b + " was due");
        }
        return block;
    }

    /** The block last taken is merged: its buffer may be decoded into again. */
    void release() {
        consumed = taken;
    }

    /** Stops the helper and waits until it has left: the chunk's bytes are reused by the next chunk. */
    void stop() {
        cancelled = true;
        while (!finished) {
            LockSupport.parkNanos(20_000);
        }
    }

    @Override
    public void run() {
        try {
            int last = -1;
            for (long k = 0; !cancelled; k++) {
                while (k - consumed >= BUFFERS) {
                    if (cancelled) {
                        return;
                    }
                    LockSupport.parkNanos(50_000);
                }
                int index = nextBlock(last);
                if (index >= blocks) {
                    return;
                }
                last = index;
                int slot = (int) (k % BUFFERS);
                Block b = ring[slot];
                if (b == null) {
                    b = ring[slot] = new Block(blockEntries);
                }
                b.index = index;
                b.failed = false;
                try {
                    int from = first + index * blockEntries;
                    decode(b, from, Math.min(entries, from + blockEntries));
                } catch (Throwable t) {
                    b.failed = true;   // the importing thread reads it again, and fails as the sequential reader would
                }
                b.keys = localKeys;
                produced = k + 1;
            }
        } finally {
            SpareProcessor.release();
            finished = true;
        }
    }

    /**
     * The first block after last, and after the one after the importing thread's, that it has not taken, taken: the
     * block right after the importing thread's is left to it, which reads it in less time than the helper would need to
     * decode it, where taking it would make the importing thread wait. So the helper takes fewer blocks when it is the
     * slower of the two, and the blocks it takes are ready before the importing thread gets to them.
     */
    private int nextBlock(int last) {
        for (int b = Math.max(last + 1, at + 2); b < blocks; b++) {
            if (owners.compareAndSet(b, 0, 2)) {
                return b;
            }
        }
        return blocks;
    }

    /** Decodes entries [from, to) into b, as {@link StackTraces#resolve} reads them, up to the frames' model ids. */
    private void decode(Block b, int from, int to) throws Exception {
        int[] out = b.entries;
        int frames = 0;
        JfrField[] fields = stackType.fields;
        for (int e = from; e < to; e++) {
            in.pos = positions[e];
            values.budget(in.remaining());
            int flags = LEFT;   // until its frames are decoded: an entry without them is left to the importing thread
            int depth = 0;
            for (JfrField f : fields) {
                if (f.name.equals("truncated") && ValueReader.isScalar(f)) {
                    flags |= values.scalar(f) != 0 ? TRUNCATED : 0;
                } else if (FrameKeys.isFrames(f)) {
                    depth = in.readCount("stack frame");
                    int end = -1;
                    if ((long) depth * role.length * 9 <= in.limit() - in.pos) {
                        if (keys.length < depth) {
                            keys = new long[Math.max(depth, keys.length * 2)];
                        }
                        end = FrameKeys.decodeVarintFrames(in, in.pos, depth, role, layout, keys);
                    }
                    if (end < 0) {
                        break;   // read frame by frame by the importing thread, as the sequential reader does
                    }
                    in.pos = end;
                    frames = number(b, e - from, frames, depth);
                    flags = flags & ~LEFT | (allKnown ? KNOWN : 0);
                    if (hashKeys) {
                        b.hashes[e - from] = FrameKeys.hashKeys(keys, depth);
                    }
                } else {
                    values.skip(f, 1);
                }
            }
            out[2 * (e - from)] = (flags & LEFT) != 0 ? 0 : depth;
            out[2 * (e - from) + 1] = flags;
        }
    }

    /**
     * Appends the local ids of the depth keys in {@link #keys} to b's, from its frame number at, and their model ids as
     * far as {@link #known}; returns the next frame number.
     */
    private int number(Block b, int entry, int at, int depth) {
        int[] locals = b.locals;
        int[] model = b.model;
        if (locals.length - at < depth) {
            locals = b.locals = Arrays.copyOf(locals, Math.max(at + depth, locals.length * 2));
            model = b.model = Arrays.copyOf(model, locals.length);
        }
        long[] k = keys;
        FrameKeyMap ids = localIds;
        int[] found = known;
        boolean all = true;
        int hash = 0;
        for (int i = 0; i < depth; i++) {
            long key = k[i];
            int id = ids.get(key);
            if (id < 0) {
                id = distinct++;
                ids.put(key, id);
                if (id == localKeys.length) {
                    localKeys = Arrays.copyOf(localKeys, id * 2);
                }
                localKeys[id] = key;
            }
            locals[at + i] = id;
            int f = id < found.length ? found[id] : -1;
            model[at + i] = f;
            all &= f >= 0;
            hash = hash * 31 + f;
        }
        allKnown = all;
        b.framesHashes[entry] = hash;
        return at + depth;
    }
}
