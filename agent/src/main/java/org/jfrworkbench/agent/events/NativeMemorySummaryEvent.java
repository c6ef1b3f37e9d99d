package org.jfrworkbench.agent.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** One line of the Native Memory Tracking summary ("Total" or a category such as "Thread"). */
@Name("workbench.NativeMemorySummary")
@Label("Native Memory Summary")
@Category("JFR Workbench")
@StackTrace(false)
public class NativeMemorySummaryEvent extends jdk.jfr.Event {
    @Label("Reserved") @DataAmount public long reserved;
    @Label("Committed") @DataAmount public long committed;
    @Label("Category") public String category;
}
