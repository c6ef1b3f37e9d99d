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

    /** Empties the pool for the next chunk, keeping the arrays. */
    void reset() {
        index.clear();
        count = 0;
        frameCount = 0;
        rolesFor = null;
    }

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

    private static final int SKIP = 0, METHOD = 1, LINE = 2, TYPE = 3, OTHER = 4;
    private JfrType rolesFor;
    private int[] roles;

    private void readFrames(JfrInput in, ValueReader values, JfrType frame) throws InvalidRecordingException {
        int n = in.readCount("stack frame");
        JfrField[] fields = frame.fields;
        int[] role = roles(frame);
        for (int i = 0; i < n; i++) {
            long method = 0;
            long type = 0;
            int line = 0;
            for (int j = 0; j < fields.length; j++) {
                switch (role[j]) {
                    case METHOD -> method = values.scalar(fields[j]);
                    case LINE -> line = (int) values.scalar(fields[j]);
                    case TYPE -> type = values.scalar(fields[j]);
                    case SKIP -> values.scalar(fields[j]);
                    default -> values.skip(fields[j], 2);
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

    /** What each field of the frame type is to us, worked out once per chunk. */
    private int[] roles(JfrType frame) {
        if (rolesFor != frame) {
            JfrField[] fields = frame.fields;
            roles = new int[fields.length];
            for (int j = 0; j < fields.length; j++) {
                JfrField f = fields[j];
                if (!ValueReader.isScalar(f)) {
                    roles[j] = OTHER;
                } else {
                    roles[j] = switch (f.name) {
                        case "method" -> METHOD;
                        case "lineNumber" -> LINE;
                        case "type" -> TYPE;
                        default -> SKIP;
                    };
                }
            }
            rolesFor = frame;
        }
        return roles;
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
