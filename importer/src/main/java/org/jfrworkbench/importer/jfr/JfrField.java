package org.jfrworkbench.importer.jfr;

/** A field of a {@link JfrType}: its type, whether it is a constant-pool reference and/or an array, and its unit. */
final class JfrField {
    final String name;
    final long typeId;
    final boolean constantPool;
    final boolean array;
    JfrType type;
    static final int TICKS = 0, NANOSECONDS = 1, MICROSECONDS = 2, MILLISECONDS = 3, SECONDS = 4, EPOCH_MILLIS = 5;

    /** Value of a @Timestamp or @Timespan annotation (e.g. "TICKS", "NANOSECONDS"), or null. */
    String timeUnit;
    /** {@link #timeUnit} as one of the constants above, so converting a value compares no strings per event. */
    int unit = TICKS;
    /** Read as one compressed integer (a pool key or an integral field in a chunk with compressed integers). */
    boolean varint;

    JfrField(String name, long typeId, boolean constantPool, boolean array) {
        this.name = name;
        this.typeId = typeId;
        this.constantPool = constantPool;
        this.array = array;
    }

    void timeUnit(String value) {
        timeUnit = value;
        unit = value == null ? TICKS : switch (value) {
            case "NANOSECONDS" -> NANOSECONDS;
            case "MICROSECONDS" -> MICROSECONDS;
            case "MILLISECONDS" -> MILLISECONDS;
            case "SECONDS" -> SECONDS;
            case "MILLISECONDS_SINCE_EPOCH" -> EPOCH_MILLIS;
            case "TICKS" -> TICKS;
            default -> NANOSECONDS;
        };
    }
}
