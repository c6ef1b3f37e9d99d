package org.jfrworkbench.analysis;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jfrworkbench.model.Dictionary;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.SampleTable;

/**
 * What a recording holds of one kind: the totals of the source a query shows by default ({@code source}), every
 * source with its own totals and thread states, and the states of the default source. Two sources are never
 * summed, so the kind's samples and weight are its default source's.
 */
public record KindBreakdown(long samples, long weight, String unit, String source, Map<String, SourceTotals> sources,
                            Map<String, Long> states) {

    /** One source's sample count, weight and samples per thread state as recorded (empty when none is recorded). */
    public record SourceTotals(long samples, long weight, Map<String, Long> states) {
    }

    public static KindBreakdown of(Kind kind, SampleTable t) {
        Dictionary sourceNames = t.sourceNames();
        Dictionary stateNames = t.stateNames();
        long[] samples = new long[Dictionary.MAX];
        long[] weights = new long[Dictionary.MAX];
        long[][] states = new long[Dictionary.MAX][];
        for (int i = 0, n = t.size(); i < n; i++) {
            int s = t.source(i);
            samples[s]++;
            weights[s] += t.weight(i);
            int state = t.state(i);
            if (state != 0) {
                if (states[s] == null) {
                    states[s] = new long[Dictionary.MAX];
                }
                states[s][state]++;
            }
        }
        Map<String, SourceTotals> sources = new LinkedHashMap<>();
        for (int s = 0; s < Dictionary.MAX; s++) {
            if (samples[s] > 0) {
                Map<String, Long> byState = new LinkedHashMap<>();
                for (int st = 1; states[s] != null && st < Dictionary.MAX; st++) {
                    if (states[s][st] > 0) {
                        byState.put(stateNames.get(st), states[s][st]);
                    }
                }
                sources.put(name(sourceNames, s), new SourceTotals(samples[s], weights[s], byState));
            }
        }
        int d = t.defaultSource();
        if (d < 0) {
            return new KindBreakdown(0, 0, kind.unit(), "", sources, Map.of());
        }
        SourceTotals shown = sources.get(name(sourceNames, d));
        return new KindBreakdown(shown.samples(), shown.weight(), kind.unit(), name(sourceNames, d), sources, shown.states());
    }

    private static String name(Dictionary names, int id) {
        return id < names.size() ? names.get(id) : "";
    }
}
