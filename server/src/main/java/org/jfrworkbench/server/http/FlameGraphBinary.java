package org.jfrworkbench.server.http;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.jfrworkbench.server.query.FlameGraph;

/**
 * The binary form of a flame graph ({@code format=binary}, docs/http-api.md): a JSON header with the name and type
 * dictionaries, then typed-array columns a browser maps without parsing. A 160 000-node tree is 2.8 MB here against
 * 5.2 MB of JSON, and the page reads it with no per-node work besides its own layout.
 *
 * <pre>
 * "JFWF" | u32 version | u32 header length H | u32 0 | header JSON (UTF-8, space-padded to 8 bytes)
 * f64 total[n] | i32 name[n] | i32 count[n] | i32 searchHits[m] | u8 type[n]      (all little-endian)
 * </pre>
 */
final class FlameGraphBinary {
    static final String CONTENT_TYPE = "application/octet-stream";
    static final int VERSION = 1;

    private FlameGraphBinary() {
    }

    static byte[] encode(FlameGraph graph, ObjectMapper json) throws JsonProcessingException {
        FlameGraph.Nodes nodes = graph.nodes();
        int n = nodes.name().length;
        List<String> types = new ArrayList<>();
        Map<String, Integer> typeIds = new HashMap<>();
        byte[] typeColumn = new byte[n];
        for (int i = 0; i < n; i++) {
            String t = nodes.type()[i];
            Integer id = typeIds.get(t);
            if (id == null) {
                id = types.size();
                typeIds.put(t, id);
                types.add(t);
            }
            typeColumn[i] = (byte) (int) id;
        }
        int[] hits = graph.search() == null ? new int[0] : graph.search().nodes();
        Map<String, Object> header = new LinkedHashMap<>();
        header.put("kind", graph.kind());
        header.put("unit", graph.unit());
        header.put("total", graph.total());
        header.put("samples", graph.samples());
        header.put("nodes", n);
        header.put("types", types);
        header.put("names", graph.names());
        if (graph.search() != null) {
            FlameGraph.Search s = graph.search();
            header.put("search", Map.of("pattern", s.pattern(), "matched", s.matched(), "share", s.share(),
                    "nodes", hits.length));
        }
        byte[] head = json.writeValueAsString(header).getBytes(StandardCharsets.UTF_8);
        int padded = (head.length + 7) & ~7;
        ByteBuffer out = ByteBuffer.allocate(16 + padded + n * 8 + n * 4 * 2 + hits.length * 4 + n)
                .order(ByteOrder.LITTLE_ENDIAN);
        out.put("JFWF".getBytes(StandardCharsets.US_ASCII)).putInt(VERSION).putInt(padded).putInt(0);
        out.put(head);
        for (int i = head.length; i < padded; i++) {
            out.put((byte) ' ');
        }
        for (long t : nodes.total()) {
            out.putDouble(t);
        }
        out.asIntBuffer().put(nodes.name()).put(nodes.count()).put(hits);
        out.position(out.position() + (n * 2 + hits.length) * 4);
        out.put(typeColumn);
        return out.array();
    }
}
