package org.jfrworkbench.model;

/** A heap usage reading that is not tied to a GC (agent heap events, periodic summaries). Epoch nanoseconds. */
public record HeapSample(long timeNanos, long used, long committed, String source) {
}
