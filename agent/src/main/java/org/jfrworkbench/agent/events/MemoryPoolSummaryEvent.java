package org.jfrworkbench.agent.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** One heap pool around one GC (eden, survivor, old ...). */
@Name("workbench.MemoryPoolSummary")
@Label("Memory Pool Summary")
@Category("JFR Workbench")
@StackTrace(false)
public class MemoryPoolSummaryEvent extends jdk.jfr.Event {
    @Label("GC Id") public long gcId;
    @Label("GC Name") public String gcName;
    @Label("Pool") public String pool;
    @Label("Used Before") @DataAmount public long usedBefore;
    @Label("Used After") @DataAmount public long usedAfter;
    @Label("Committed After") @DataAmount public long committedAfter;
}
