package org.jfrworkbench.server.http;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.jfrworkbench.analysis.FlameGraph;

/**
 * The binary form of a flame graph ({@code format=binary}, docs/http-api.md): a JSON header with the name and type
 * dictionaries, then typed-array columns a browser maps without parsing. A 160 000-node tree is 1.8 MB here against
 * 5.2 MB of JSON, and the page reads it with no per-node work besides its own layout.
 *
 * <pre>
 * "JFWF" | u32 version | u32 header length H | u32 0 | header JSON (UTF-8, space-padded to 8 bytes)
 * total[n] (u32, or f64 past 2^32) | i32 count[n] | i32 searchHits[m] | name[n] (u16, or i32 past 65 536 names)
 * | u8 type[n]                                                          (all little-endian; widths in the header)
 * </pre>
 * The narrow widths cut a typical tree from 17 to 11 bytes per node, which is less to gzip and to send.
 */
final class FlameGraphBinary {
    static final String CONTENT_TYPE = "application/octet-stream";
    static final int VERSION = 1;

    private FlameGraphBinary() {
    }

    /** One byte per node: the index of its type name in types, which collects the distinct names in order. */
    static byte[] typeColumn(String[] type, List<String> types) {
        byte[] column = new byte[type.length];
        String last = null;
        int lastId = -1;
        for (int i = 0; i < type.length; i++) {
            String t = type[i];
            // a handful of type names, mostly repeating from node to node: no map lookup per node
            if (!t.equals(last)) {
                lastId = types.indexOf(t);
                if (lastId < 0) {
                    lastId = types.size();
                    types.add(t);
                }
                last = t;
            }
            column[i] = (byte) lastId;
        }
        return column;
    }

    static byte[] encode(FlameGraph graph, ObjectMapper json) throws JsonProcessingException {
        return encode(graph, json, Map.of());
    }

    /** extra: more header fields, for a response that carries a flame graph among other figures (the live heap). */
    /**
     * A map that keeps its keys in the order given: {@code Map.of}'s order changes from one JVM to the next, and a
     * header's bytes should not (cached answers, ETags, byte-for-byte comparisons of two servers' answers).
     */
    static Map<String, Object> ordered(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    static byte[] encode(FlameGraph graph, ObjectMapper json, Map<String, Object> extra) throws JsonProcessingException {
        FlameGraph.Nodes nodes = graph.nodes();
        int n = nodes.name().length;
        List<String> types = new ArrayList<>();
        byte[] typeColumn = typeColumn(nodes.type(), types);
        int[] hits = graph.search() == null ? new int[0] : graph.search().nodes();
        Map<String, Object> header = new LinkedHashMap<>();
        header.put("kind", graph.kind());
        header.put("unit", graph.unit());
        header.put("total", graph.total());
        header.put("samples", graph.samples());
        header.put("nodes", n);
        header.put("types", types);
        header.put("names", new BinaryHeader.Names(graph.names()));
        if (graph.search() != null) {
            FlameGraph.Search s = graph.search();
            header.put("search", ordered("pattern", s.pattern(), "matchCase", s.matchCase(), "literal", s.literal(),
                    "matched", s.matched(), "share", s.share(), "nodes", hits.length));
        }
        boolean total32 = fits32(nodes.total());
        boolean name16 = graph.names().size() <= 1 << 16;
        header.putAll(extra);
        header.put("columns", ordered("total", total32 ? "u32" : "f64", "name", name16 ? "u16" : "i32"));
        byte[] head = BinaryHeader.write(header, json);
        int padded = (head.length + 7) & ~7;
        // widest first, so every column starts aligned to its element size
        ByteBuffer out = ByteBuffer.allocate(16 + padded + n * (total32 ? 4 : 8) + (n + hits.length) * 4
                        + n * (name16 ? 2 : 4) + n).order(ByteOrder.LITTLE_ENDIAN);
        out.put("JFWF".getBytes(StandardCharsets.US_ASCII)).putInt(VERSION).putInt(padded).putInt(0);
        out.put(head);
        for (int i = head.length; i < padded; i++) {
            out.put((byte) ' ');
        }
        putWeights(out, nodes.total(), total32);
        // bulk copies through a view buffer (the position is 4-aligned here)
        out.asIntBuffer().put(nodes.count()).put(hits);
        out.position(out.position() + (n + hits.length) * 4);
        putNames(out, nodes.name(), name16);
        out.put(typeColumn);
        return out.array();
    }

    /** Whether a weight column fits u32 (else it travels as f64). */
    static boolean fits32(long[] column) {
        for (long v : column) {
            if (v < 0 || v > 0xFFFF_FFFFL) {
                return false;
            }
        }
        return true;
    }

    static void putWeights(ByteBuffer out, long[] column, boolean narrow) {
        for (long v : column) {
            if (narrow) {
                out.putInt((int) v);
            } else {
                out.putDouble(v);
            }
        }
    }

    static void putNames(ByteBuffer out, int[] names, boolean narrow) {
        for (int nm : names) {
            if (narrow) {
                out.putShort((short) nm);
            } else {
                out.putInt(nm);
            }
        }
    }
}
