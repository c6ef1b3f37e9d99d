package org.jfrworkbench.agent.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;
import jdk.jfr.Timestamp;

/**
 * Heap use around one GC, summed over all heap pools; written from the GC notification (or sampled, see HeapMonitor).
 * Also a periodic event at every chunk's end: the JDK calls HeapMonitor's hook right before it closes a chunk.
 */
@Name("workbench.HeapSummary")
@Period("endChunk")
@Label("Heap Summary")
@Category("JFR Workbench")
@Description("Heap used before and after a garbage collection, from the GC notification")
@StackTrace(false)
public class HeapSummaryEvent extends jdk.jfr.Event {
    @Label("GC Id") public long gcId;
    @Label("GC Name") public String gcName;
    @Label("GC Cause") public String gcCause;
    @Label("GC Action") public String gcAction;
    @Label("GC Start") @Timestamp(Timestamp.MILLISECONDS_SINCE_EPOCH) public long gcStartMillis;
    @Label("GC Duration (ms)") public long gcDurationMillis;
    @Label("Used Before") @DataAmount public long usedBefore;
    @Label("Used After") @DataAmount public long usedAfter;
    @Label("Committed After") @DataAmount public long committedAfter;
    @Label("Max Heap") @DataAmount public long maxHeap;
    @Label("Collections")
    @Description("GCs of this collector this summary stands for: 1 when written from the GC's notification; more when GCs came"
            + " faster than the agent's heap-summaries limit and it wrote the latest GC's summary for those since the last one")
    public long collections;
}
