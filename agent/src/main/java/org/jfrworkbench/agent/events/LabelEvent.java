package org.jfrworkbench.agent.events;

import jdk.jfr.Category;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** A key=value label of the recorded process, written at the start of every chunk. */
@Name("workbench.Label")
@Label("Workbench Label")
@Category("JFR Workbench")
@StackTrace(false)
public class LabelEvent extends jdk.jfr.Event {
    @Label("Key") public String key;
    @Label("Value") public String value;
}
