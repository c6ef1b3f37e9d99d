package org.jfrworkbench.model;

/**
 * One garbage collection: jdk.GarbageCollection joined with its before/after jdk.GCHeapSummary by gcId.
 * Byte figures are -1 where the recording lacks them. Times are epoch nanoseconds.
 */
public record GcEvent(long gcId, long startNanos, long durationNanos, String name, String cause,
                      long heapUsedBefore, long heapUsedAfter, long heapCommitted, long longestPauseNanos) {
    /** The same GC under another id (-1: none the JVM gave). */
    public GcEvent withGcId(long id) {
        return new GcEvent(id, startNanos, durationNanos, name, cause, heapUsedBefore, heapUsedAfter, heapCommitted,
                longestPauseNanos);
    }
}
