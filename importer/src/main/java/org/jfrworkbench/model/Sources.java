package org.jfrworkbench.model;

import java.util.List;

/**
 * The names of the samplers a sample can come from. Two samplers of one kind in one recording (the JDK's and a
 * profiler's, or two of the JDK's) sample at different rates and on different triggers, so their samples are never
 * summed: a query shows one source, by default the first present in {@link #PREFERENCE}.
 */
public final class Sources {
    /** Every sample of an async-profiler chunk (its CPU, wall, allocation, live, lock and native-memory samplers). */
    public static final String ASYNC_PROFILER = "async-profiler";
    /** Datadog's Java profiler ({@code datadog.*} events). */
    public static final String DATADOG = "datadog";
    /** The JDK's own recorder: jdk.ExecutionSample, jdk.NativeMethodSample, jdk.ObjectAllocationSample, ... */
    public static final String JDK = "jdk";
    /** JDK 25's CPU-time sampler, a second JDK sampler of CPU beside jdk.ExecutionSample. */
    public static final String JDK_CPU_TIME = "jdk.CPUTimeSample";
    /** The JDK's TLAB allocation events (in a new TLAB and outside one), a second JDK sampler of allocations. */
    public static final String JDK_TLAB = "jdk.ObjectAllocationInNewTLAB";
    /** Collapsed text: one source, whatever wrote it. */
    public static final String COLLAPSED = "collapsed";

    /** Which source a query shows when it names none: a profiler's own before the JDK's. */
    public static final List<String> PREFERENCE = List.of(ASYNC_PROFILER, DATADOG, JDK_CPU_TIME, JDK_TLAB, JDK, COLLAPSED);

    private Sources() {
    }

    /** Rank in {@link #PREFERENCE}; names not listed come after, the unnamed source last. */
    public static int preference(String source) {
        int i = PREFERENCE.indexOf(source);
        return i >= 0 ? i : source == null || source.isEmpty() ? Integer.MAX_VALUE : PREFERENCE.size();
    }
}
