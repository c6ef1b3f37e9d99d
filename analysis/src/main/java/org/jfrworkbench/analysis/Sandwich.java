package org.jfrworkbench.analysis;

/**
 * One method's sandwich view: its callers (inverted: the method at the root, its callers above) and its callees
 * (the method at the root), each a flame graph whose root total is {@code total}, the weight of the samples with
 * the method on their stack (each counted once however often it occurs there); {@code self} is the weight of the
 * samples where it is the leaf frame.
 */
public record Sandwich(String kind, String unit, String method, long total, long self, long samples,
                       FlameGraph callers, FlameGraph callees) {
}
