package org.jfrworkbench.analysis;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

import org.jfrworkbench.model.FrameNaming;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.SampleTable;
import org.jfrworkbench.importer.CollapsedFormat;

/**
 * Collapsed stacks of one kind: {@code root;...;leaf} to the summed weight, one entry per distinct printed stack,
 * optionally limited to a time window in milliseconds since the recording start.
 */
public final class Collapse {
    private Collapse() {
    }

    /** Sorted by stack text. fromMillis/toMillis may be null for an open end. */
    public static Map<String, Long> of(Profile p, Kind kind, Long fromMillis, Long toMillis, FrameNaming naming) {
        return of(p, kind, fromMillis, toMillis, naming, null, null);
    }

    /** Limited to thread states (null = all) and one source (null = the kind's default source). */
    public static Map<String, Long> of(Profile p, Kind kind, Long fromMillis, Long toMillis, FrameNaming naming,
                                       java.util.Set<String> states, String source) {
        SampleFilter.check(p, kind, states, source);
        SampleTable samples = p.samples(kind);
        java.util.function.IntPredicate selected = SampleFilter.ALL.with(states, source).on(samples);
        long from = fromMillis == null ? Long.MIN_VALUE : p.startNanos() + fromMillis * 1_000_000;
        long to = toMillis == null ? Long.MAX_VALUE : p.startNanos() + toMillis * 1_000_000;
        Map<Integer, Long> byStack = new HashMap<>();
        for (int i = 0; i < samples.size(); i++) {
            long t = samples.time(i);
            if (t >= from && t < to && selected.test(i)) {
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
