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
import org.jfrworkbench.analysis.DiffResult;

/**
 * The binary form of a diff ({@code /api/diff?format=binary}, docs/http-api.md), laid out like the flame graph's
 * ({@link FlameGraphBinary}): a JSON header with the totals, the name and type dictionaries and the ranked changes
 * (at most 500 rows, so small beside the tree), then typed-array columns of the merged tree.
 *
 * <pre>
 * "JFWD" | u32 version | u32 header length H | u32 0 | header JSON (UTF-8, space-padded to 8 bytes)
 * base[n] | target[n] (both u32, or both f64 when a weight passes 2^32) | i32 count[n]
 * | name[n] (u16, or i32 past 65 536 names) | u8 type[n] | i8 significance[n]
 *                                                                       (all little-endian; widths in the header)
 * </pre>
 * The significance column came last so that readers of the first layout, which stop after the types, still work.
 * The self columns of the JSON form are left out: a node's self weight is its total minus its children's, which
 * the page derives in the pass that lays the tree out anyway. 15 bytes per node against about 34 of JSON.
 */
final class DiffBinary {
    static final int VERSION = 1;

    private DiffBinary() {
    }

    static byte[] encode(DiffResult diff, ObjectMapper json) throws JsonProcessingException {
        return encode(diff, json, Map.of());
    }

    /** extra: more header fields (a diff of runs names the runs of each side). */
    static byte[] encode(DiffResult diff, ObjectMapper json, Map<String, Object> extra) throws JsonProcessingException {
        DiffResult.Nodes nodes = diff.nodes();
        int n = nodes.name().length;
        List<String> types = new ArrayList<>();
        byte[] typeColumn = FlameGraphBinary.typeColumn(nodes.type(), types);
        boolean weight32 = FlameGraphBinary.fits32(nodes.base()) && FlameGraphBinary.fits32(nodes.target());
        boolean name16 = diff.names().size() <= 1 << 16;
        Map<String, Object> header = new LinkedHashMap<>();
        header.put("kind", diff.kind());
        header.put("unit", diff.unit());
        header.put("baseTotal", diff.baseTotal());
        header.put("targetTotal", diff.targetTotal());
        header.put("baseSamples", diff.baseSamples());
        header.put("targetSamples", diff.targetSamples());
        header.put("nodes", n);
        header.put("types", types);
        header.put("names", new BinaryHeader.Names(diff.names()));
        header.put("targetKind", diff.targetKind());
        header.put("mode", diff.mode());
        header.put("baseSeconds", diff.baseSeconds());
        header.put("targetSeconds", diff.targetSeconds());
        header.put("changes", diff.changes());
        header.put("test", diff.test());
        header.put("warnings", diff.warnings());
        header.putAll(extra);
        header.put("columns", FlameGraphBinary.ordered("weight", weight32 ? "u32" : "f64", "name", name16 ? "u16" : "i32",
                "significance", "i8"));
        byte[] head = BinaryHeader.write(header, json);
        int padded = (head.length + 7) & ~7;
        // widest first, so every column starts aligned to its element size
        ByteBuffer out = ByteBuffer.allocate(16 + padded + 2 * n * (weight32 ? 4 : 8) + n * 4 + n * (name16 ? 2 : 4) + 2 * n)
                .order(ByteOrder.LITTLE_ENDIAN);
        out.put("JFWD".getBytes(StandardCharsets.US_ASCII)).putInt(VERSION).putInt(padded).putInt(0);
        out.put(head);
        for (int i = head.length; i < padded; i++) {
            out.put((byte) ' ');
        }
        FlameGraphBinary.putWeights(out, nodes.base(), weight32);
        FlameGraphBinary.putWeights(out, nodes.target(), weight32);
        out.asIntBuffer().put(nodes.count());
        out.position(out.position() + n * 4);
        FlameGraphBinary.putNames(out, nodes.name(), name16);
        out.put(typeColumn);
        for (int v : nodes.significance()) {
            out.put((byte) v);
        }
        return out.array();
    }
}
