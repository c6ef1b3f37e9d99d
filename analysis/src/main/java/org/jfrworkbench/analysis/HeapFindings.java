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

    /** One of the stacks that allocate most, with the class it allocates most. */
    public record AllocationStack(@JsonProperty("class") String className, List<String> stack, long bytes, double share,
                                  long samples) {
    }

    /**
     * liveSetBytesPerMinute: the least-squares slope of the heap used after each GC. gcTimeShare: the GCs' durations
     * over the recording's (a concurrent collector's cycle is not all pause). allocationBytesPerSecond: upscaled
     * allocated bytes of the default source over the recording's duration (-1 without allocation samples).
     */
    public record Findings(double seconds, int gcs, double liveSetBytesPerMinute, double gcTimeShare,
                           List<Pause> longestPauses, double allocationBytesPerSecond, long allocationSamples,
                           List<AllocationStack> topAllocationStacks) {
    }

    /** The indices of the n largest non-zero values, largest first (ties: lower index first). */
    private static int[] topSlots(long[] values, int n) {
        return java.util.stream.IntStream.range(0, values.length).filter(i -> values[i] > 0).boxed()
                .sorted((a, b) -> values[a] != values[b] ? Long.compare(values[b], values[a]) : Integer.compare(a, b))
                .limit(n).mapToInt(Integer::intValue).toArray();
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
            // per stack in an array (no object per site), then the heaviest class of the top stacks in a second pass
            IntPredicate ofSource = Selection.of(Kind.ALLOC).on(data);
            int slots = p.stacks().size() + 1;
            long[] byStack = new long[slots];
            long[] samplesByStack = new long[slots];
            long total = 0;
            for (int i = 0; i < alloc.size(); i++) {
                if ((i & 0xffff) == 0xffff) {
                    QueryLimits.check();
                }
                if (ofSource.test(i)) {
                    int slot = StackClasses.slot(alloc.stack(i), slots);
                    byStack[slot] += alloc.weight(i);
                    samplesByStack[slot]++;
                    total += alloc.weight(i);
                    allocSamples++;
                }
            }
            rate = total / seconds;
            int[] top = topSlots(byStack, TOP);
            List<Map<Integer, Long>> classes = new ArrayList<>();
            for (int t = 0; t < top.length; t++) {
                classes.add(new HashMap<>());
            }
            for (int i = 0; i < alloc.size(); i++) {
                if ((i & 0xffff) == 0xffff) {
                    QueryLimits.check();
                }
                int slot = StackClasses.slot(alloc.stack(i), slots);
                for (int t = 0; t < top.length; t++) {
                    if (top[t] == slot && ofSource.test(i)) {
                        classes.get(t).merge(alloc.objectClass(i), alloc.weight(i), Long::sum);
                    }
                }
            }
            for (int t = 0; t < top.length; t++) {
                int cls = classes.get(t).entrySet().stream()
                        .max(Map.Entry.<Integer, Long>comparingByValue()
                                .thenComparing(Map.Entry.comparingByKey(Comparator.reverseOrder())))
                        .map(Map.Entry::getKey).orElse(0);
                int slot = top[t];
                stacks.add(new AllocationStack(cls == 0 ? "[unknown class]" : p.strings().get(cls),
                        HeapGrowthQuery.stackNames(p, slot == slots - 1 ? -1 : slot), byStack[slot],
                        total == 0 ? 0 : (double) byStack[slot] / total, samplesByStack[slot]));
            }
        }
        return new Findings(seconds, gcs.size(), liveSetBytesPerSecond * 60, inGc / 1e9 / seconds,
                List.copyOf(pauses.subList(0, Math.min(TOP, pauses.size()))), rate, allocSamples, stacks);
    }
}
