package org.jfrworkbench.model;

/** How a frame was executing. Names follow the JFR FrameType pool (plus async-profiler's C++ and kernel frames). */
public enum FrameType {
    INTERPRETED("Interpreted"),
    JIT("JIT compiled"),
    C1("C1 compiled"),
    INLINED("Inlined"),
    NATIVE("Native"),
    CPP("C++"),
    KERNEL("Kernel"),
    UNKNOWN("Unknown");

    private static final FrameType[] VALUES = values();

    private final String jfrName;

    FrameType(String jfrName) {
        this.jfrName = jfrName;
    }

    public String jfrName() {
        return jfrName;
    }

    public static FrameType of(int ordinal) {
        return ordinal >= 0 && ordinal < VALUES.length ? VALUES[ordinal] : UNKNOWN;
    }

    /** Maps the description a JFR file gives its frame type (e.g. "JIT compiled") to our type. */
    public static FrameType fromJfrName(String name) {
        if (name == null) {
            return UNKNOWN;
        }
        switch (name) {
            case "Interpreted": return INTERPRETED;
            case "JIT compiled": return JIT;
            case "C1 compiled": return C1;
            case "Inlined": return INLINED;
            case "Native": return NATIVE;
            case "C++": return CPP;
            case "Kernel": return KERNEL;
            default: return UNKNOWN;
        }
    }

    /** async-profiler's collapsed-stack suffixes: _[j] JIT, _[i] inlined, _[k] kernel, _[0] interpreted, _[1] C1. */
    public static FrameType fromCollapsedSuffix(char c) {
        switch (c) {
            case 'j': return JIT;
            case 'i': return INLINED;
            case 'k': return KERNEL;
            case '0': return INTERPRETED;
            case '1': return C1;
            default: return UNKNOWN;
        }
    }
}
