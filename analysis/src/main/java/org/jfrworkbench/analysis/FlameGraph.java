package org.jfrworkbench.analysis;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The compact flame graph of docs/http-api.md: a name dictionary and one array per node column, nodes in
 * depth-first pre-order so node i's subtree is i .. i + count[i] - 1.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record FlameGraph(String kind, String unit, long total, long samples, List<String> names, Nodes nodes,
                         Search search) {

    /** Node columns; {@code samples} is the raw sample count behind each node's weight. */
    public record Nodes(int[] name, int[] parent, long[] total, long[] self, String[] type, int[] count,
                        long[] samples) {
    }

    /**
     * What a search matched: weight of samples with a matching frame, its share, and matching node indexes; with
     * the options it ran with.
     */
    public record Search(String pattern, boolean matchCase, boolean literal, long matched, double share, int[] nodes) {
    }

    public int size() {
        return nodes.name().length;
    }
}
