package org.jfrworkbench.importer.jfr;

import java.util.Set;

import org.jfrworkbench.model.GcEvent;

/**
 * Which rows of the GC list are collections: GCs after which the heap was actually collected (young, mixed and full
 * collections, ZGC and Shenandoah cycles). The others only read the heap: G1's concurrent cycle (jdk.GarbageCollection
 * "G1Old", from its start to its end, while young GCs do the collecting), its Remark and Cleanup pauses (the MXBean
 * "G1 Concurrent GC"), ZGC's and Shenandoah's pauses ("... Pauses": parts of a cycle counted once more), and heap
 * summaries without a GC event around them (async-profiler writes one "After GC" reading a second after a GC).
 */
final class GcKinds {
    /** jdk.GarbageCollection names of concurrent cycles whose collecting is done by other GCs. */
    private static final Set<String> CONCURRENT_CYCLES = Set.of("G1Old");
    /** MXBean names of collectors that report pauses within a collection, not collections. */
    private static final Set<String> PAUSE_BEANS = Set.of("G1 Concurrent GC");

    private GcKinds() {
    }

    static boolean collection(GcEvent g) {
        String name = g.name();
        if (name.isEmpty()) {
            // no GC event: the JVM frames a collection with summaries before and after it; a lone reading is no GC
            return g.heapUsedBefore() >= 0 && g.heapUsedAfter() >= 0;
        }
        return !CONCURRENT_CYCLES.contains(name) && !PAUSE_BEANS.contains(name) && !name.endsWith(" Pauses");
    }
}
