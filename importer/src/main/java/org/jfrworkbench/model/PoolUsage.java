package org.jfrworkbench.model;

/**
 * One memory pool's usage read before or after a GC (jdk.G1HeapSummary's eden, survivor and old generation,
 * jdk.MetaspaceSummary's metaspace). Byte figures are -1 where the recording lacks them. Epoch nanoseconds.
 */
public record PoolUsage(long gcId, long timeNanos, boolean afterGc, String pool, long used, long committed) {
}
