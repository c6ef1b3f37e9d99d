package org.jfrworkbench.importer.jfr;

import java.util.Arrays;

import org.jfrworkbench.importer.InvalidRecordingException;

/**
 * The stack-trace pool of one chunk in flat primitive arrays (the pool is usually the largest part of a chunk):
 * per stack a frame range and a truncated flag; per frame the method key, line and frame-type key. Which field is
 * which comes from the metadata, found by name.
 */
final class StackTraces {
    private final LongIntMap index = new LongIntMap(1024);
    private int count;
    private int[] frameStart = new int[1025];
    private boolean[] truncated = new boolean[1024];
    private long[] methods = new long[8192];
    private int[] lines = new int[8192];
    private long[] types = new long[8192];
    private int frameCount;

    /** Reads one pool entry of the stack-trace type st. */
    void read(JfrInput in, ValueReader values, long key, JfrType st) throws InvalidRecordingException {
        boolean wasTruncated = false;
        int first = frameCount;
        for (JfrField f : st.fields) {
            if (f.name.equals("truncated") && ValueReader.isScalar(f)) {
                wasTruncated = values.scalar(f) != 0;
            } else if (f.name.equals("frames") && f.array && !f.constantPool && f.type.primitive == JfrType.OBJECT) {
                readFrames(in, values, f.type);
            } else {
                values.skip(f, 1);
            }
        }
        if (count == truncated.length) {
            truncated = Arrays.copyOf(truncated, count * 2);
            frameStart = Arrays.copyOf(frameStart, count * 2 + 1);
        }
        frameStart[count] = first;
        frameStart[count + 1] = frameCount;
        truncated[count] = wasTruncated;
        index.put(key, count++);
    }

    private void readFrames(JfrInput in, ValueReader values, JfrType frame) throws InvalidRecordingException {
        int n = in.readCount("stack frame");
        JfrField[] fields = frame.fields;
        for (int i = 0; i < n; i++) {
            long method = 0;
            long type = 0;
            int line = 0;
            for (JfrField f : fields) {
                if (!ValueReader.isScalar(f)) {
                    values.skip(f, 2);
                    continue;
                }
                long v = values.scalar(f);
                switch (f.name) {
                    case "method" -> method = v;
                    case "lineNumber" -> line = (int) v;
                    case "type" -> type = v;
                    default -> { }
                }
            }
            if (frameCount == methods.length) {
                int cap = frameCount * 2;
                methods = Arrays.copyOf(methods, cap);
                lines = Arrays.copyOf(lines, cap);
                types = Arrays.copyOf(types, cap);
            }
            methods[frameCount] = method;
            lines[frameCount] = line;
            types[frameCount] = type;
            frameCount++;
        }
    }

    /** The internal index of a stack key, or -1. */
    int find(long key) {
        return index.get(key);
    }

    int firstFrame(int stack) {
        return frameStart[stack];
    }

    int endFrame(int stack) {
        return frameStart[stack + 1];
    }

    boolean truncated(int stack) {
        return truncated[stack];
    }

    long method(int frame) {
        return methods[frame];
    }

    int line(int frame) {
        return lines[frame];
    }

    long type(int frame) {
        return types[frame];
    }
}
