package org.jfrworkbench.analysis;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.SampleTable;

/**
 * The summary of a profile as plain maps and lists (what {@code workbench summary} prints as JSON):
 * chunks, time span, per-kind sample counts and weights (of the source shown by default, with every source and the
 * thread states beside them: {@link KindBreakdown}), per-event-type counts, warnings, plus JVM facts, labels and
 * table sizes.
 */
public final class Summary {
    private Summary() {
    }

    public static Map<String, Object> of(Profile p) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("chunks", p.chunks());
        out.put("startMillis", p.startMillis());
        out.put("durationMillis", p.durationMillis());
        Map<String, Object> kinds = new LinkedHashMap<>();
        for (Map.Entry<Kind, SampleTable> e : p.kinds().entrySet()) {
            KindBreakdown b = KindBreakdown.of(e.getKey(), e.getValue());
            Map<String, Object> k = new LinkedHashMap<>();
            k.put("samples", b.samples());
            k.put("weight", b.weight());
            k.put("unit", b.unit());
            k.put("source", b.source());
            k.put("sources", b.sources());
            k.put("states", b.states());
            kinds.put(e.getKey().id(), k);
        }
        out.put("kinds", kinds);
        out.put("sourceEvents", p.sourceEvents());
        out.put("warnings", p.warnings());
        out.put("jvm", p.metadata());
        out.put("labels", p.labels());
        out.put("threads", p.threads().size() - 1);
        out.put("stacks", p.stacks().size());
        out.put("frames", p.frames().size());
        out.put("gcs", p.heap().gcs().size());
        return out;
    }
}
