package org.jfrworkbench.server.http;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.jfrworkbench.analysis.Sandwich;

/**
 * The binary form of a sandwich view ({@code format=binary}, docs/http-api.md): a JSON header with the method's
 * figures and the byte lengths of the two trees, then the callers' and the callees' flame graphs, each in the
 * flame graph's own binary form ({@link FlameGraphBinary}) starting 8-aligned, so a page decodes each as it
 * decodes /flame.
 *
 * <pre>
 * "JFWS" | u32 version | u32 header length H | u32 0 | header JSON (UTF-8, space-padded to 8 bytes)
 * | callers (JFWF, padded to 8 bytes) | callees (JFWF)
 * </pre>
 */
final class SandwichBinary {
    static final int VERSION = 1;

    private SandwichBinary() {
    }

    static byte[] encode(Sandwich s, ObjectMapper json) throws JsonProcessingException {
        byte[] callers = FlameGraphBinary.encode(s.callers(), json);
        byte[] callees = FlameGraphBinary.encode(s.callees(), json);
        int callersPadded = (callers.length + 7) & ~7;
        Map<String, Object> header = new LinkedHashMap<>();
        header.put("kind", s.kind());
        header.put("unit", s.unit());
        header.put("method", s.method());
        header.put("total", s.total());
        header.put("self", s.self());
        header.put("samples", s.samples());
        header.put("callers", FlameGraphBinary.ordered("offset", 0, "length", callers.length));
        header.put("callees", FlameGraphBinary.ordered("offset", callersPadded, "length", callees.length));
        byte[] head = json.writeValueAsBytes(header);
        int padded = (head.length + 7) & ~7;
        ByteBuffer out = ByteBuffer.allocate(16 + padded + callersPadded + callees.length).order(ByteOrder.LITTLE_ENDIAN);
        out.put("JFWS".getBytes(StandardCharsets.US_ASCII)).putInt(VERSION).putInt(padded).putInt(0);
        out.put(head);
        for (int i = head.length; i < padded; i++) {
            out.put((byte) ' ');
        }
        out.put(callers);
        out.position(out.position() + callersPadded - callers.length);
        out.put(callees);
        return out.array();
    }
}
