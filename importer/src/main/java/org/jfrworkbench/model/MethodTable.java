package org.jfrworkbench.model;

/** Distinct methods: class name, method name and descriptor, each a {@link StringTable} id. Dotted class names. */
public final class MethodTable {
    private int[] classNames = new int[0];
    private int[] names = new int[0];
    private int[] descriptors = new int[0];
    private int size;
    private final OpenHashIndex index = new OpenHashIndex();

    public int add(int className, int name, int descriptor) {
        int hash = (className * 31 + name) * 31 + descriptor;
        int found = index.find(hash, i -> classNames[i] == className && names[i] == name && descriptors[i] == descriptor);
        if (found >= 0) {
            return found;
        }
        int id = size++;
        classNames = IntArrays.grow(classNames, size);
        names = IntArrays.grow(names, size);
        descriptors = IntArrays.grow(descriptors, size);
        classNames[id] = className;
        names[id] = name;
        descriptors[id] = descriptor;
        index.insert(hash, id);
        return id;
    }

    /** Room for count methods in all: the columns and the index are sized once instead of grown by copies. */
    public void reserve(int count) {
        if (classNames.length < count) {
            classNames = java.util.Arrays.copyOf(classNames, count);
            names = java.util.Arrays.copyOf(names, count);
            descriptors = java.util.Arrays.copyOf(descriptors, count);
        }
        index.reserve(count);
    }

    public int className(int method) {
        return classNames[method];
    }

    public int name(int method) {
        return names[method];
    }

    public int descriptor(int method) {
        return descriptors[method];
    }

    public int size() {
        return size;
    }

    /** After the import: the lookup index is dropped and the columns trimmed to their size; add() then throws. */
    void seal() {
        index.release();
        classNames = java.util.Arrays.copyOf(classNames, size);
        names = java.util.Arrays.copyOf(names, size);
        descriptors = java.util.Arrays.copyOf(descriptors, size);
    }

    /** Approximate heap bytes, from the arrays' capacities. */
    public long footprint() {
        return 64 + 12L * classNames.length + index.footprint();
    }
}
