package org.jfrworkbench.analysis;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The answer of {@link DiffQuery}: merged tree columns (raw weights per side, and per node whether its change is
 * significant), the ranked method changes, the test that decided significance, and warnings when the two sides do
 * not compare well.
 */
public record DiffResult(String kind, String targetKind, String unit, String mode, long baseTotal, long targetTotal,
                         long baseSamples, long targetSamples, double baseSeconds, double targetSeconds,
                         List<String> names, Nodes nodes, List<Change> changes, Test test, List<String> warnings) {

    /**
     * significance: per node +1 / -1 where its total grew / shrank significantly (see {@link Test#nodeTests}), else
     * 0, which the page draws grey.
     */
    public record Nodes(int[] name, int[] parent, String[] type, int[] count, long[] base, long[] target,
                        long[] baseSelf, long[] targetSelf, int[] significance) {
    }

    /**
     * One method (frame name): total shares (weight of samples containing it / side total) and self shares on both
     * sides, the same as weight per second, the raw sample counts tested, and the Bonferroni-corrected p-values of
     * the total change ({@code pValue}, {@code significant}) and of the self change. {@code sameSamples}: other
     * methods on exactly the same stacks (callers or callees on every one) without self weight of their own, whose
     * total change is this one's and is not repeated in rows of their own.
     */
    public record Change(String method, double baseShare, double targetShare, double delta, double baseSelfShare,
                         double targetSelfShare, double selfDelta, long baseSamples, long targetSamples,
                         double pValue, boolean significant, long baseSelfSamples, long targetSelfSamples,
                         double selfPValue, boolean selfSignificant, double basePerSecond, double targetPerSecond,
                         double perSecondDelta, double baseSelfPerSecond, double targetSelfPerSecond,
                         double selfPerSecondDelta,
                         @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> sameSamples) {
    }

    /**
     * How significance was decided: the test, the correction, the number of method tests (a total and a self test
     * per row) and of node tests (one per merged node), and the level.
     */
    public record Test(String name, String correction, int tests, int nodeTests, double alpha) {
    }
}
