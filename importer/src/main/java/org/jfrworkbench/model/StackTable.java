package org.jfrworkbench.model;

import java.util.Arrays;

/**
 * Distinct stacks, each a sequence of {@link FrameTable} ids stored <b>leaf first</b> (top of stack at depth 0),
 * as JFR stores them. All stacks share one flat frame array.
 */
public final class StackTable {
    private int[] offsets = new int[1];
    private int[] frames = new int[0];
    private boolean[] truncated = new boolean[0];
    private int size;
    private final OpenHashIndex index = new OpenHashIndex();

    /** Adds frames[from, from+length) (leaf first); returns the id of the equal stack if there is one. */
    public int add(int[] stackFrames, int from, int length, boolean wasTruncated) {
        int hash = wasTruncated ? 1 : 0;
        for (int i = from, end = from + length; i < end; i++) {
            hash = hash * 31 + stackFrames[i];
        }
        int found = index.find(hash, id -> sameAs(id, stackFrames, from, length, wasTruncated));
        if (found >= 0) {
            return found;
        }
        int id = size++;
        int start = offsets[id];
        frames = IntArrays.grow(frames, start + length);
        System.arraycopy(stackFrames, from, frames, start, length);
        offsets = IntArrays.grow(offsets, size + 1);
        offsets[size] = start + length;
        if (truncated.length < size) {
            truncated = Arrays.copyOf(truncated, Math.max(size, truncated.length * 2 + 16));
        }
        truncated[id] = wasTruncated;
        index.insert(hash, id);
        return id;
    }

    public int add(int[] stackFrames) {
        return add(stackFrames, 0, stackFrames.length, false);
    }

    private boolean sameAs(int id, int[] other, int from, int length, boolean wasTruncated) {
        int start = offsets[id];
        if (offsets[id + 1] - start != length || truncated[id] != wasTruncated) {
            return false;
        }
        return Arrays.equals(frames, start, start + length, other, from, from + length);
    }

    public int depth(int stack) {
        return offsets[stack + 1] - offsets[stack];
    }

    /** Frame id at the given depth, 0 = leaf. */
    public int frame(int stack, int depth) {
        return frames[offsets[stack] + depth];
    }

    /** A copy of the stack's frame ids, leaf first. */
    public int[] frames(int stack) {
        return Arrays.copyOfRange(frames, offsets[stack], offsets[stack + 1]);
    }

    /** Whether the recorder cut this stack at its depth limit (the root side is missing). */
    public boolean truncated(int stack) {
        return truncated[stack];
    }

    public int size() {
        return size;
    }

    /** Approximate heap bytes, from the arrays' capacities. */
    public long footprint() {
        return 64 + 4L * offsets.length + 4L * frames.length + truncated.length + index.footprint();
    }
}
