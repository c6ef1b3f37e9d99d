package org.jfrworkbench.analysis;

import java.util.List;

/** The answer of {@link DiffQuery}: merged tree columns (raw weights per side) and ranked method changes. */
public record DiffResult(String kind, String unit, long baseTotal, long targetTotal, long baseSamples,
                         long targetSamples, List<String> names, Nodes nodes, List<Change> changes) {

    public record Nodes(int[] name, int[] parent, String[] type, int[] count, long[] base, long[] target,
                        long[] baseSelf, long[] targetSelf) {
    }

    /**
     * One method: total shares (weight of samples containing it / side total) and self shares on both sides,
     * the raw sample counts tested, the Bonferroni-corrected p-value and whether it is below 0.05.
     */
    public record Change(String method, double baseShare, double targetShare, double delta, double baseSelfShare,
                         double targetSelfShare, double selfDelta, long baseSamples, long targetSamples,
                         double pValue, boolean significant) {
    }
}
