package org.jfrworkbench.model;

import java.util.Locale;

/** What a sample measures. The lowercase {@link #id()} is the public name used by the CLI, HTTP API and UI. */
public enum Kind {
    CPU("samples"),
    WALL("samples"),
    ALLOC("bytes"),
    LIVE("bytes"),
    LOCK("ns"),
    NATIVEMEM("bytes"),
    /** Native allocations still not freed at the end of the recording (async-profiler's "leak" view of nativemem). */
    LEAK("bytes");

    private final String unit;

    Kind(String unit) {
        this.unit = unit;
    }

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public String unit() {
        return unit;
    }

    /** Parses a public kind name; throws IllegalArgumentException naming the valid ones. */
    public static Kind parse(String id) {
        if (id != null) {
            for (Kind k : values()) {
                if (k.id().equalsIgnoreCase(id.trim())) {
                    return k;
                }
            }
        }
        throw new IllegalArgumentException("unknown kind '" + id + "' (expected one of cpu, wall, alloc, live, lock, nativemem, leak)");
    }
}
