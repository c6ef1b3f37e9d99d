package org.jfrworkbench.analysis;

import org.jfrworkbench.model.FrameNaming;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.StackTable;

/**
 * Per method (frame name): self weight (as the leaf), total weight (anywhere on the stack, counted once per
 * sample even under recursion) and the raw sample counts behind both. Indexed by the id of
 * {@link ProfileData#stableNames} (lambda and other generated names without their run-specific numbers).
 */
public record MethodStats(String[] names, long[] self, long[] total, long[] selfSamples, long[] totalSamples,
                          long totalWeight, long samples) {

    public static MethodStats compute(ProfileData data, Kind kind, SampleFilter filter) {
        StackTable stacks = data.profile().stacks();
        // stable names (StableNames): the statistics compare and index methods across runs
        ProfileData.Names names = data.stableNames(FrameNaming.DEFAULT);
        SampleFilter.StackWeights sw = filter.aggregate(data.samples(kind), stacks.size());
        int n = names.names().length;
        long[] self = new long[n];
        long[] total = new long[n];
        long[] selfSamples = new long[n];
        long[] totalSamples = new long[n];
        int[] seenAt = new int[n];
        java.util.Arrays.fill(seenAt, -1);
        for (int s = 0; s <= stacks.size(); s++) {
            long c = sw.count()[s];
            if (c == 0) {
                continue;
            }
            long w = sw.weight()[s];
            if (s == stacks.size()) {
                int ns = names.noStack();
                self[ns] += w;
                total[ns] += w;
                selfSamples[ns] += c;
                totalSamples[ns] += c;
                continue;
            }
            int depth = stacks.depth(s);
            for (int d = 0; d < depth; d++) {
                int nm = names.frameName()[stacks.frame(s, d)];
                if (d == 0) {
                    self[nm] += w;
                    selfSamples[nm] += c;
                }
                if (seenAt[nm] != s) {
                    seenAt[nm] = s;
                    total[nm] += w;
                    totalSamples[nm] += c;
                }
            }
        }
        return new MethodStats(names.names(), self, total, selfSamples, totalSamples, sw.totalWeight(), sw.samples());
    }
}
