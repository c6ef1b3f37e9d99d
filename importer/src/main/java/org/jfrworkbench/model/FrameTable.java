package org.jfrworkbench.model;

/** Distinct frames: a method, a line number (0 when unknown) and a {@link FrameType}. */
public final class FrameTable {
    private int[] methods = new int[0];
    private int[] lines = new int[0];
    private byte[] types = new byte[0];
    private int size;
    private final OpenHashIndex index = new OpenHashIndex();

    public int add(int method, int line, FrameType type) {
        byte t = (byte) type.ordinal();
        int hash = (method * 31 + line) * 31 + t;
        int found = index.find(hash, i -> methods[i] == method && lines[i] == line && types[i] == t);
        if (found >= 0) {
            return found;
        }
        int id = size++;
        methods = IntArrays.grow(methods, size);
        lines = IntArrays.grow(lines, size);
        types = IntArrays.grow(types, size);
        methods[id] = method;
        lines[id] = line;
        types[id] = t;
        index.insert(hash, id);
        return id;
    }

    /** Room for count frames in all: the columns and the index are sized once instead of grown by copies. */
    public void reserve(int count) {
        if (methods.length < count) {
            methods = java.util.Arrays.copyOf(methods, count);
            lines = java.util.Arrays.copyOf(lines, count);
            types = java.util.Arrays.copyOf(types, count);
        }
        index.reserve(count);
    }

    public int method(int frame) {
        return methods[frame];
    }

    public int line(int frame) {
        return lines[frame];
    }

    public FrameType type(int frame) {
        return FrameType.of(types[frame]);
    }

    public int size() {
        return size;
    }

    /** After the import: the lookup index is dropped and the columns trimmed to their size; add() then throws. */
    void seal() {
        index.release();
        methods = java.util.Arrays.copyOf(methods, size);
        lines = java.util.Arrays.copyOf(lines, size);
        types = java.util.Arrays.copyOf(types, size);
    }

    /** Approximate heap bytes, from the arrays' capacities. */
    public long footprint() {
        return 64 + 8L * methods.length + types.length + index.footprint();
    }
}
