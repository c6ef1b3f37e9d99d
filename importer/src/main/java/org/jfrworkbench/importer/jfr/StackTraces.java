package org.jfrworkbench.importer.jfr;

import java.util.Arrays;

import org.jfrworkbench.importer.InvalidRecordingException;

/**
 * The stack-trace pool of one key space in flat primitive arrays (the pool is usually the largest part of a chunk):
 * per stack a frame range and a truncated flag; per frame one int, the index of a distinct (method key, line,
 * frame-type key). Stacks share most of their frames, so the distinct frames are few and each is resolved to a model
 * frame once; storing an int per frame instead of the three keys keeps the pool small. Which field is which comes
 * from the metadata, found by name.
 */
final class StackTraces {
    private final LongIntMap index = new LongIntMap(1024);
    private int count;
    private int[] frameStart = new int[1025];
    private boolean[] truncated = new boolean[1024];
    private int[] frames = new int[8192];
    private int frameCount;
    private final FrameKeyMap distinct = new FrameKeyMap();
    private long[] methods = new long[1024];
    private int[] lines = new int[1024];
    private long[] types = new long[1024];
    private int distinctCount;

    /** Empties the pool for the next key space, keeping the arrays. */
    void reset() {
        index.clear();
        distinct.clear();
        count = 0;
        frameCount = 0;
        distinctCount = 0;
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
                int r = role[j];
                if (r == OTHER) {
                    values.skip(fields[j], 2);
                    continue;
                }
                // a compressed integer is read directly; other scalars by their declared type
                long v = fields[j].varint ? in.varLong() : values.scalar(fields[j]);
                if (r == METHOD) {
                    method = v;
                } else if (r == LINE) {
                    line = (int) v;
                } else if (r == TYPE) {
                    type = v;
                }
            }
            if (frameCount == frames.length) {
                frames = Arrays.copyOf(frames, frameCount * 2);
            }
            frames[frameCount++] = frameIndex(method, Math.max(0, line), type);
        }
    }

    /** The index of a distinct frame, added when new. */
    private int frameIndex(long method, int line, long type) {
        int f = distinct.get(method, line, type);
        if (f >= 0) {
            return f;
        }
        if (distinctCount == methods.length) {
            int cap = distinctCount * 2;
            methods = Arrays.copyOf(methods, cap);
            lines = Arrays.copyOf(lines, cap);
            types = Arrays.copyOf(types, cap);
        }
        f = distinctCount++;
        methods[f] = method;
        lines[f] = line;
        types[f] = type;
        distinct.put(method, line, type, f);
        return f;
    }

    /** What each field of the frame type is to us, worked out once per key space. */
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

    /** The distinct frame at position i of the flat frame array. */
    int frame(int i) {
        return frames[i];
    }

    /** Number of distinct frames so far; their indices are 0 to this - 1. */
    int distinctFrames() {
        return distinctCount;
    }

    long method(int distinctFrame) {
        return methods[distinctFrame];
    }

    int line(int distinctFrame) {
        return lines[distinctFrame];
    }

    long type(int distinctFrame) {
        return types[distinctFrame];
    }
}
