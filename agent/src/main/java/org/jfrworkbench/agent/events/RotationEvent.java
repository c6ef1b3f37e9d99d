package org.jfrworkbench.agent.events;

import jdk.jfr.Category;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A chunk's rotation with live objects on: how long it waited for a collection before async-profiler reported the
 * sampled objects not yet collected as live, and the collection that ended the wait (none when its bound passed
 * first). Written into the chunk it closes, so that the chunk says whether its live samples were taken right after a
 * collection.
 */
@Name("workbench.Rotation")
@Label("Workbench Rotation")
@Category("JFR Workbench")
@StackTrace(false)
public class RotationEvent extends jdk.jfr.Event {
    @Label("Waited (ms)") public long waitedMillis;
    /** The collector of the collection that ended the wait (its GC notification's bean name); empty: none came. */
    @Label("GC Name") public String gcName;
    /** That collection's id, as its collector numbers them (workbench.HeapSummary's gcId); -1: none came. */
    @Label("GC Id") public long gcId;
}
