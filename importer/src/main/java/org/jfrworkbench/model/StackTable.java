package org.jfrworkbench.model;

import java.util.Arrays;

/**
 * Distinct stacks, each a sequence of {@link FrameTable} ids stored <b>leaf first</b> (top of stack at depth 0),
 * as JFR stores them. The frames of all stacks are stored in pages of a million ids, each stack within one page:
 * a recording's stacks hold tens of millions of frames, and one growing array would copy (and the JVM zero) them
 * again at every growth.
 */
public final class StackTable {
    private static final int PAGE = 1 << 20;

    private int[][] pages = new int[0][];
    /** Free ids left in the last page (a stack that does not fit starts a new page). */
    private int pageFree;
    /** Per stack: page index << 32 | offset in the page. */
    private long[] starts = new long[0];
    private int[] depths = new int[0];
    private boolean[] truncated = new boolean[0];
    private int size;
    private final OpenHashIndex index = new OpenHashIndex();
    /** Frame ids {@link #reserve} announced and add has not stored yet: the size of the pages made for them. */
    private long expectedIds;

    /**
     * Room for up to stacks more stacks of frameIds frame ids in all (a pool's entries, before they are added): the
     * columns are sized once, and the pages that hold them are made to size instead of grown by copies.
     */
    public void reserve(int stacks, long frameIds) {
        int cap = (int) Math.min(Integer.MAX_VALUE - 8, (long) size + stacks);
        if (starts.length < cap) {
            // each chunk reserves again: grown as add grows them, not to each reservation's exact size
            cap = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(cap, starts.length + (starts.length >> 1) + 16L));
            starts = Arrays.copyOf(starts, cap);
            depths = Arrays.copyOf(depths, cap);
            truncated = Arrays.copyOf(truncated, cap);
        }
        // the index is not sized here: a pool's entries (some equal to others) can pass a power of two the stacks
        // do not, and an index twice as large costs more cache misses per probe than its growth
        expectedIds = frameIds;
    }

    /** Adds frames[from, from+length) (leaf first); returns the id of the equal stack if there is one. */
    public int add(int[] stackFrames, int from, int length, boolean wasTruncated) {
        return add(stackFrames, from, length, wasTruncated, framesHash(stackFrames, from, length));
    }

    /**
     * The hash {@link #add(int[], int, int, boolean, int)} takes: h * 31 + frame over the frames from the leaf, from 0.
     * A caller that makes the frames one by one computes it meanwhile, where it costs nothing.
     */
    public static int framesHash(int[] stackFrames, int from, int length) {
        int hash = 0;
        for (int i = from, end = from + length; i < end; i++) {
            hash = hash * 31 + stackFrames[i];
        }
        return hash;
    }

    /** {@link #add(int[], int, int, boolean)} with the frames' {@link #framesHash} computed by the caller. */
    public int add(int[] stackFrames, int from, int length, boolean wasTruncated, int framesHash) {
        int hash = wasTruncated ? framesHash ^ 0x5bd1e995 : framesHash;
        int found = index.find(hash, id -> sameAs(id, stackFrames, from, length, wasTruncated));
        if (found >= 0) {
            return found;
        }
        int id = size++;
        if (pageFree < length || pages.length == 0) {
            // the first page starts small: most recordings have few stacks
            int capacity = pages.length == 0 ? Math.max(length, 4096) : Math.max(length, PAGE);
            if (expectedIds > 0) {
                // announced: a page for what is still to come (not below the first page's start, nor above a page)
                capacity = (int) Math.max(length, Math.min(PAGE, Math.max(expectedIds, 4096)));
                pages = Arrays.copyOf(pages, pages.length + 1);
                pages[pages.length - 1] = new int[capacity];
                pageFree = capacity;
            } else if (pages.length == 1 && pages[0].length < PAGE && length <= PAGE) {
                // grow the small first page up to a full one before adding pages
                int used = pages[0].length - pageFree;
                int grown = Math.max(used + length, Math.min(PAGE, pages[0].length * 4));
                pages[0] = Arrays.copyOf(pages[0], grown);
                pageFree = grown - used;
            } else {
                pages = Arrays.copyOf(pages, pages.length + 1);
                pages[pages.length - 1] = new int[capacity];
                pageFree = capacity;
            }
        }
        int page = pages.length - 1;
        int offset = pages[page].length - pageFree;
        System.arraycopy(stackFrames, from, pages[page], offset, length);
        pageFree -= length;
        expectedIds = Math.max(0, expectedIds - length);
        if (starts.length <= id) {
            int cap = Math.max(id + 1, starts.length + (starts.length >> 1) + 16);
            starts = Arrays.copyOf(starts, cap);
            depths = Arrays.copyOf(depths, cap);
            truncated = Arrays.copyOf(truncated, cap);
        }
        starts[id] = (long) page << 32 | offset;
        depths[id] = length;
        truncated[id] = wasTruncated;
        index.insert(hash, id);
        return id;
    }

    public int add(int[] stackFrames) {
        return add(stackFrames, 0, stackFrames.length, false);
    }

    private boolean sameAs(int id, int[] other, int from, int length, boolean wasTruncated) {
        if (depths[id] != length || truncated[id] != wasTruncated) {
            return false;
        }
        long s = starts[id];
        int start = (int) s;
        return Arrays.equals(pages[(int) (s >>> 32)], start, start + length, other, from, from + length);
    }

    public int depth(int stack) {
        return depths[stack];
    }

    /** Frame id at the given depth, 0 = leaf. */
    public int frame(int stack, int depth) {
        long s = starts[stack];
        return pages[(int) (s >>> 32)][(int) s + depth];
    }

    /** A copy of the stack's frame ids, leaf first. */
    public int[] frames(int stack) {
        long s = starts[stack];
        int start = (int) s;
        return Arrays.copyOfRange(pages[(int) (s >>> 32)], start, start + depths[stack]);
    }

    /** Whether the recorder cut this stack at its depth limit (the root side is missing). */
    public boolean truncated(int stack) {
        return truncated[stack];
    }

    public int size() {
        return size;
    }

    /**
     * After the import: the lookup index is dropped, the last page (when more than a quarter of it is free) and the
     * per-stack columns trimmed to what they hold; add() then throws.
     */
    void seal() {
        index.release();
        expectedIds = 0;
        // a last page sized to a reservation is mostly full (the pool's stacks that were equal to others, e.g. by their
        // bytecode indices alone, left room): copying it would cost more than the ids it frees
        if (pages.length > 0 && pageFree > pages[pages.length - 1].length >>> 2) {
            int last = pages.length - 1;
            pages[last] = Arrays.copyOf(pages[last], pages[last].length - pageFree);
            pageFree = 0;
        }
        starts = Arrays.copyOf(starts, size);
        depths = Arrays.copyOf(depths, size);
        truncated = Arrays.copyOf(truncated, size);
    }

    /** Approximate heap bytes, from the arrays' capacities. */
    public long footprint() {
        long bytes = 64 + 16L * pages.length + 13L * starts.length + index.footprint();
        for (int[] p : pages) {
            bytes += 16 + 4L * p.length;
        }
        return bytes;
    }
}
