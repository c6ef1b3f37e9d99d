package org.jfrworkbench.analysis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.jfrworkbench.model.GcEvent;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.SampleTable;

/**
 * The heap page's findings, each a number: how fast the heap used after GCs grows, the share of the recording spent
 * in collections and the longest pauses, and the allocation rate with the stacks that allocate most.
 */
public final class HeapFindings {
    static final int TOP = 5;

    private HeapFindings() {
    }

    public record Pause(int index, long startMillis, long pauseNanos, String name, String cause) {
    }

    public record AllocationStack(@JsonProperty("class") String className, List<String> stack, long bytes, double share,
                                  long samples) {
    }

    /**
     * liveSetBytesPerMinute: the least-squares slope of the heap used after each GC. gcTimeShare: the GCs' durations
     * over the recording's (a concurrent collector's cycle is not all pause). allocationBytesPerSecond: upscaled
     * allocated bytes of the default source over the recording's duration (-1 without allocation samples).
     */
    public record Findings(double seconds, int gcs, double liveSetBytesPerMinute, double gcTimeShare, List<Pause> longestPauses,
                           double allocationBytesPerSecond, long allocationSamples, List<AllocationStack> topAllocationStacks) {
    }

    public static Findings of(ProfileData data, double liveSetBytesPerSecond) {
        Profile p = data.profile();
        double seconds = Math.max(1e-3, (p.endNanos() - p.startNanos()) / 1e9);
        List<GcEvent> gcs = p.heap().gcs();
        long inGc = 0;
        List<Pause> pauses = new ArrayList<>();
        for (int i = 0; i < gcs.size(); i++) {
            GcEvent g = gcs.get(i);
            inGc += Math.max(0, g.durationNanos());
            long pause = g.longestPauseNanos() >= 0 ? g.longestPauseNanos() : Math.max(0, g.durationNanos());
            pauses.add(new Pause(i, g.startNanos() / 1_000_000, pause, g.name(), g.cause()));
        }
        pauses.sort(Comparator.comparingLong(Pause::pauseNanos).reversed().thenComparingInt(Pause::index));
        List<AllocationStack> stacks = new ArrayList<>();
        double rate = -1;
        long allocSamples = 0;
        SampleTable alloc = p.kinds().get(Kind.ALLOC);
        if (alloc != null && alloc.size() > 0) {
            IntPredicate ofSource = Selection.of(Kind.ALLOC).on(data);
            Map<Long, long[]> bySite = new HashMap<>();
            long total = 0;
            for (int i = 0; i < alloc.size(); i++) {
                if ((i & 0xffff) == 0xffff) {
                    QueryLimits.check();
                }
                if (!ofSource.test(i)) {
                    continue;
                }
                long w = alloc.weight(i);
                total += w;
                allocSamples++;
                long[] site = bySite.computeIfAbsent((long) alloc.stack(i) << 32 | (alloc.objectClass(i) & 0xffffffffL),
                        k -> new long[2]);
                site[0] += w;
                site[1]++;
            }
            rate = total / seconds;
            long all = total;
            bySite.entrySet().stream()
                    .sorted(Comparator.comparingLong((Map.Entry<Long, long[]> e) -> e.getValue()[0]).reversed()
                            .thenComparingLong(Map.Entry::getKey))
                    .limit(TOP)
                    .forEach(e -> {
                        int cls = (int) (long) e.getKey();
                        stacks.add(new AllocationStack(cls == 0 ? "[unknown class]" : p.strings().get(cls),
                                HeapGrowthQuery.stackNames(p, (int) (e.getKey() >> 32)), e.getValue()[0],
                                all == 0 ? 0 : (double) e.getValue()[0] / all, e.getValue()[1]));
                    });
        }
        return new Findings(seconds, gcs.size(), liveSetBytesPerSecond * 60, inGc / 1e9 / seconds,
                List.copyOf(pauses.subList(0, Math.min(TOP, pauses.size()))), rate, allocSamples, stacks);
    }
}
