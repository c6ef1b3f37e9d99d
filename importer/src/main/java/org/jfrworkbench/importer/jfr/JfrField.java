package org.jfrworkbench.importer.jfr;

/** A field of a {@link JfrType}: its type, whether it is a constant-pool reference and/or an array, and its unit. */
final class JfrField {
    final String name;
    final long typeId;
    final boolean constantPool;
    final boolean array;
    JfrType type;
    /** Value of a @Timestamp or @Timespan annotation (e.g. "TICKS", "NANOSECONDS"), or null. */
    String timeUnit;
    /** Read as one compressed integer (a pool key or an integral field in a chunk with compressed integers). */
    boolean varint;

    JfrField(String name, long typeId, boolean constantPool, boolean array) {
        this.name = name;
        this.typeId = typeId;
        this.constantPool = constantPool;
        this.array = array;
    }
}
