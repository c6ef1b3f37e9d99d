package org.jfrworkbench.analysis;

import java.util.BitSet;
import java.util.Set;

import org.jfrworkbench.model.Dictionary;
import org.jfrworkbench.model.SampleTable;

/**
 * Which samples a query looks at: a time window (epoch nanoseconds, inclusive), optionally a set of thread ids, a set
 * of thread states as recorded (names such as STATE_RUNNABLE; null = every state) and one source (a sampler's name;
 * null = the kind's default source, {@link SampleTable#defaultSource()}: two sources are never summed).
 * Aggregates the selected samples per stack, which is what every tree and statistic is built from.
 */
public record SampleFilter(long fromNanos, long toNanos, BitSet threads, Set<String> states, String source) {
    public static final SampleFilter ALL = new SampleFilter(Long.MIN_VALUE, Long.MAX_VALUE, null);

    public SampleFilter(long fromNanos, long toNanos, BitSet threads) {
        this(fromNanos, toNanos, threads, null, null);
    }

    public SampleFilter {
        states = states == null || states.isEmpty() ? null : Set.copyOf(states);
        source = source == null || source.isBlank() ? null : source;
    }

    /** This filter with the given states (null or empty = every state) and source (null = the default one). */
    public SampleFilter with(Set<String> states, String source) {
        return new SampleFilter(fromNanos, toNanos, threads, states, source);
    }

    /** The filter's names turned into one table's ids: the source id (-1 when absent) and the states accepted. */
    private record Ids(int source, boolean[] states) {
    }

    private Ids ids(SampleTable t) {
        int s = source == null ? t.defaultSource() : t.sourceNames().find(source);
        boolean[] accepted = null;
        if (states != null) {
            Dictionary names = t.stateNames();
            accepted = new boolean[Dictionary.MAX];
            for (String name : states) {
                int id = names.find(name);
                if (id >= 0) {
                    accepted[id] = true;
                }
            }
        }
        return new Ids(s, accepted);
    }

    private boolean accepts(SampleTable t, int i, Ids ids) {
        long time = t.time(i);
        return time >= fromNanos && time <= toNanos && (threads == null || threads.get(t.thread(i)))
                && t.source(i) == ids.source && (ids.states == null || ids.states[t.state(i)]);
    }

    /** Whether a sample of t (by index) is selected; the names are resolved once, for loops over t. */
    public java.util.function.IntPredicate on(SampleTable t) {
        Ids ids = ids(t);
        return i -> accepts(t, i, ids);
    }

    /** Weight and sample count per stack id; index stacks.size() holds the samples without a stack. */
    public StackWeights aggregate(SampleTable t, int stackCount) {
        long[] weight = new long[stackCount + 1];
        long[] count = new long[stackCount + 1];
        Ids ids = ids(t);
        // the common case: one source and state throughout, no window, no thread set: every sample, no test
        boolean all = fromNanos == Long.MIN_VALUE && toNanos == Long.MAX_VALUE && threads == null && states == null
                && t.uniformStateAndSource() && t.size() > 0 && t.source(0) == ids.source;
        long totalWeight = 0;
        long samples = 0;
        for (int i = 0, n = t.size(); i < n; i++) {
            if (all || accepts(t, i, ids)) {
                int s = t.stack(i);
                int slot = s < 0 || s >= stackCount ? stackCount : s;
                long w = t.weight(i);
                weight[slot] += w;
                count[slot]++;
                totalWeight += w;
                samples++;
            }
        }
        return new StackWeights(weight, count, totalWeight, samples);
    }

    /**
     * Checks a query's states and source against what the recording has of the kind: a BadQueryException (HTTP 400,
     * CLI exit 2) names the states or sources present when one asked for is not.
     */
    public static void check(org.jfrworkbench.model.Profile p, org.jfrworkbench.model.Kind kind, Set<String> states,
                             String source) {
        SampleTable t = p.kinds().get(kind);
        if (t == null) {
            return; // the query's own check names the kinds present
        }
        KindBreakdown b = KindBreakdown.of(kind, t);
        if (source != null && !source.isBlank() && !b.sources().containsKey(source)) {
            throw new BadQueryException("unknown source '" + source + "': this recording's " + kind.id()
                    + " samples come from " + b.sources().keySet() + " (default " + b.source() + ")");
        }
        if (states != null && !states.isEmpty()) {
            KindBreakdown.SourceTotals shown = b.sources().get(source == null || source.isBlank() ? b.source() : source);
            Set<String> present = shown == null ? Set.of() : shown.states().keySet();
            java.util.List<String> unknown = states.stream().filter(s -> !present.contains(s)).sorted().toList();
            if (!unknown.isEmpty()) {
                throw new BadQueryException("unknown state" + (unknown.size() > 1 ? "s " : " ") + unknown + ": this recording's "
                        + kind.id() + " samples have " + (present.isEmpty() ? "no thread states" : "the states " + present));
            }
        }
    }

    /** Per-stack sums of the selected samples. */
    public record StackWeights(long[] weight, long[] count, long totalWeight, long samples) {
    }
}
