package org.jfrworkbench.agent.engine;

import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;
import org.jfrworkbench.agent.AgentOptions;

/**
 * The JDK JFR settings the agent records with: of the JDK's "default" configuration (low overhead, made for
 * production) only the events the workbench uses ({@link #VIEW_EVENTS}, with default's thresholds and periods), plus
 * the sampling events the options ask for. With async-profiler the samplers are its own, so the JDK's stay off.
 */
public final class JfrSettings {
    private JfrSettings() {
    }

    /** Settings for the JDK-only engine. */
    public static Map<String, String> forJfrEngine(AgentOptions options) throws IOException, java.text.ParseException {
        Map<String, String> s = base(options);
        if (options.cpuInterval() != null) {
            s.put("jdk.ExecutionSample#enabled", "true");
            s.put("jdk.ExecutionSample#period", Math.max(1, options.cpuInterval().toMillis()) + " ms");
        } else {
            s.put("jdk.ExecutionSample#enabled", "false");
        }
        if (options.wallInterval() != null) {
            // JDK JFR has no wall-clock sampler; native-method samples are the closest (threads off-CPU in native code)
            s.put("jdk.NativeMethodSample#enabled", "true");
            s.put("jdk.NativeMethodSample#period", Math.max(1, options.wallInterval().toMillis()) + " ms");
        }
        s.put("jdk.ObjectAllocationSample#enabled", String.valueOf(options.allocSampling()));
        s.put("jdk.ObjectAllocationSample#throttle", (options.allocPerSecond() > 0 ? options.allocPerSecond() : 300) + "/s");
        s.put("jdk.OldObjectSample#enabled", String.valueOf(options.live()));
        s.put("jdk.OldObjectSample#stackTrace", "true");
        s.put("jdk.OldObjectSample#cutoff", "0 ns");
        if (options.lockThreshold() != null) {
            s.put("jdk.JavaMonitorEnter#enabled", "true");
            s.put("jdk.JavaMonitorEnter#threshold", options.lockThreshold().toMillis() + " ms");
        }
        return s;
    }

    /**
     * Settings for the JDK recording beside async-profiler: the view events; with async-profiler's lock profiling on,
     * the JDK's lock events stay off (its samples take their place, as async-profiler's {@code jfrsync} does it).
     */
    public static Map<String, String> besideAsyncProfiler(AgentOptions options) throws IOException, java.text.ParseException {
        Map<String, String> s = base(options); // the JDK's samplers are not among the view events: async-profiler's own take their place
        if (options.lockThreshold() != null) {
            s.put("jdk.JavaMonitorEnter#enabled", "false");
            s.put("jdk.ThreadPark#enabled", "false");
        }
        return s;
    }

    /**
     * JDK events the workbench reads or shows (heap timeline, GC, the collector's memory pools, CPU load, JVM/OS facts, lock waits over 20 ms), plus
     * the configuration events that explain them. The JDK's "default" set records ~100 more (I/O, compiler, class
     * loading, safepoints, thread dumps, ...): a measurable cost on allocation-heavy services that no view uses.
     */
    static final Set<String> VIEW_EVENTS = Set.of(
            "jdk.GCHeapSummary", "jdk.GarbageCollection", "jdk.YoungGarbageCollection", "jdk.OldGarbageCollection",
            "jdk.GCPhasePause", "jdk.GCConfiguration", "jdk.GCHeapConfiguration", "jdk.YoungGenerationConfiguration",
            "jdk.MetaspaceSummary", "jdk.G1HeapSummary", "jdk.PSHeapSummary", "jdk.CPULoad", "jdk.PhysicalMemory", "jdk.JVMInformation", "jdk.OSInformation",
            "jdk.CPUInformation", "jdk.VirtualizationInformation", "jdk.ContainerConfiguration", "jdk.InitialSystemProperty",
            "jdk.ThreadStart", "jdk.ThreadEnd", "jdk.JavaMonitorEnter", "jdk.ThreadPark", "jdk.Shutdown");

    static final String HEAP_COUNT_EVENT = "jdk.ObjectCountAfterGC";

    /** Switches the heap count in a running recording; a recording stopped meanwhile (a rotation, JVM exit) is left as it is. */
    static void heapCount(Recording r, boolean on) {
        if (r != null && r.getState() == RecordingState.RUNNING) {
            try {
                if (on) {
                    r.enable(HEAP_COUNT_EVENT);
                } else {
                    r.disable(HEAP_COUNT_EVENT);
                }
            } catch (IllegalStateException e) {
                // stopped or closed between the check and the switch
            }
        }
    }

    private static Map<String, String> base(AgentOptions options) throws IOException, java.text.ParseException {
        Map<String, String> s = new TreeMap<>(Configuration.getConfiguration("default").getSettings());
        for (Map.Entry<String, String> e : s.entrySet()) {
            int hash = e.getKey().indexOf('#');
            if (e.getKey().endsWith("#enabled") && !VIEW_EVENTS.contains(e.getKey().substring(0, hash))) {
                e.setValue("false");
            }
        }
        // never recorded even if the set above grows: chunks get uploaded to a shared server, and the environment
        // (often holds credentials) and the command lines of every other process on the host have no place there
        s.put("jdk.InitialEnvironmentVariable#enabled", "false");
        s.put("jdk.SystemProcess#enabled", "false");
        s.put("jdk.GCHeapSummary#enabled", "true");
        s.put("jdk.GarbageCollection#enabled", "true");
        // heap-count=true: the JVM's exact heap by class after full collections and G1's remarks, a walk of every live
        // object inside those pauses (a full GC of 20 M live objects went from about 0.9 s to 2.2 s on G1), so only
        // asked; heap-count=auto switches it on in the running recording for one collection at a time (HeapCounter)
        s.put(HEAP_COUNT_EVENT + "#enabled", String.valueOf(options.heapCount() == AgentOptions.HeapCount.ALWAYS));
        return s;
    }
}
