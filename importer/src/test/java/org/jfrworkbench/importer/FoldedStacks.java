package org.jfrworkbench.importer;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

import org.jfrworkbench.model.FrameNaming;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.SampleTable;

/**
 * Stacks of one kind in collapsed form ({@code root;...;leaf} to the summed weight), optionally limited to a time
 * window in milliseconds since the recording start: the importer's tests compare what it read in this form. It prints
 * stacks as the analysis module's {@code Collapse} does, which these tests cannot use (analysis depends on the
 * importer).
 */
public final class FoldedStacks {
    public static final String NO_STACK = CollapsedFormat.NO_STACK;

    private FoldedStacks() {
    }

    /** Sorted by stack text. fromMillis/toMillis may be null for an open end. */
    public static Map<String, Long> of(Profile p, Kind kind, Long fromMillis, Long toMillis, FrameNaming naming) {
        SampleTable samples = p.samples(kind);
        long from = fromMillis == null ? Long.MIN_VALUE : p.startNanos() + fromMillis * 1_000_000;
        long to = toMillis == null ? Long.MAX_VALUE : p.startNanos() + toMillis * 1_000_000;
        Map<Integer, Long> byStack = new HashMap<>();
        for (int i = 0; i < samples.size(); i++) {
            long t = samples.time(i);
            if (t >= from && t < to) {
                byStack.merge(samples.stack(i), samples.weight(i), Long::sum);
            }
        }
        Map<String, Long> out = new TreeMap<>();
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<Integer, Long> e : byStack.entrySet()) {
            int s = e.getKey();
            sb.setLength(0);
            CollapsedFormat.appendStack(p, s, naming, sb);
            out.merge(sb.toString(), e.getValue(), Long::sum);
        }
        return out;
    }
}
