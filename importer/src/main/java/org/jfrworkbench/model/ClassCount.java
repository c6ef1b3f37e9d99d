package org.jfrworkbench.model;

/**
 * The exact count of one class's objects after a GC (JDK Flight Recorder's jdk.ObjectCountAfterGC: written by the
 * JVM at full and old collections, for the classes of at least 0.5 % of the heap). className: the importer's Java name.
 */
public record ClassCount(long gcId, long timeNanos, String className, long count, long bytes) {
}
