package org.jfrworkbench.importer.jfr;

import java.util.Arrays;

/**
 * What each field of a key space's frame type is to us ({@link FrameKeys#METHOD} and the rest), found by name in the
 * metadata, and whether the frames take {@link FrameKeys#decodeVarintFrames}'s fast paths. Worked out at the first
 * stack of a key space and kept until {@link #forget}: both passes over the pool ask for it at every stack.
 */
final class FrameRoles {
    private JfrType rolesFor;
    /** Per field of the frame type: its role. */
    int[] role;
    /** {@link FrameKeys#METHOD_LINE_BCI_TYPE} when the frame type is method, line, (skipped), type, all compressed. */
    int layout;
    /** Whether every field of the frame type is one compressed integer (async-profiler's and the JDK's frames). */
    boolean allVarints;

    /** The roles of frame's fields, worked out when frame is not the type they were worked out for. */
    FrameRoles of(JfrType frame) {
        if (rolesFor != frame) {
            JfrField[] fields = frame.fields;
            role = new int[fields.length];
            allVarints = true;
            for (int j = 0; j < fields.length; j++) {
                JfrField f = fields[j];
                allVarints &= f.varint;
                if (!ValueReader.isScalar(f)) {
                    role[j] = FrameKeys.OTHER;
                } else {
                    role[j] = switch (f.name) {
                        case "method" -> FrameKeys.METHOD;
                        case "lineNumber" -> FrameKeys.LINE;
                        case "type" -> FrameKeys.TYPE;
                        default -> FrameKeys.SKIP;
                    };
                }
            }
            layout = allVarints && Arrays.equals(role,
                    new int[] {FrameKeys.METHOD, FrameKeys.LINE, FrameKeys.SKIP, FrameKeys.TYPE})
                    ? FrameKeys.METHOD_LINE_BCI_TYPE : FrameKeys.GENERAL;
            rolesFor = frame;
        }
        return this;
    }

    /** A new key space: its metadata may describe frames anew. */
    void forget() {
        rolesFor = null;
    }
}
