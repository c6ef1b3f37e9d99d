package org.jfrworkbench.server.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** The binary answers' header: its names written directly, every byte as Jackson writes the same map. */
class BinaryHeaderTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Names a recording can have: plain frames, and every kind Jackson escapes or encodes (each beside plain ones). */
    private static final List<String> NAMES = List.of("all", "com.example.OrderService.place", "", "[other]",
            "Quote\"d.method", "back\\slash.run", "line\nbreak", "tab\there", "bell\u0007", "del\u007f.x",
            "caf\u00e9.Bar.baz", "\u65e5\u672c.run", "emoji\ud83d\ude00.x", "lone\ud83d.surrogate", "java.lang.Thread.run",
            "\u0000nul", "0123456789", "a".repeat(70_000));

    @Test
    void theHeaderIsTheBytesJacksonWritesWithTheNamesAsAList() throws Exception {
        Map<String, Object> extra = new LinkedHashMap<>();
        extra.put("gc", 3);
        extra.put("byClass", List.of(Map.of("class", "a\"b", "bytes", 12L)));
        extra.put("none", null);
        for (List<String> names : List.of(NAMES, List.<String>of(), List.of("only"), List.of("\"")) ) {
            Map<String, Object> asList = header(names, extra);
            Map<String, Object> asNames = header(names, extra);
            asNames.put("names", new BinaryHeader.Names(names));
            byte[] expected = JSON.writeValueAsBytes(asList);
            assertArrayEquals(expected, BinaryHeader.write(asNames, JSON), () -> "names " + names + ": "
                    + new String(expected, StandardCharsets.UTF_8));
        }
    }

    @Test
    void manyNamesThatNeedEscapingGrowTheArrayAsJacksonWritesThem() throws Exception {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            names.add(i % 2 == 0 ? "\u0001\u0002\u0003" + i : "Plain" + i);
        }
        assertArrayEquals(JSON.writeValueAsBytes(names), BinaryHeader.array(names, JSON));
        assertEquals(names, Arrays.asList(JSON.readValue(BinaryHeader.array(names, JSON), String[].class)));
    }

    private static Map<String, Object> header(List<String> names, Map<String, Object> extra) {
        Map<String, Object> header = new LinkedHashMap<>();
        header.put("kind", "cpu");
        header.put("total", 1L << 40);
        header.put("share", 0.25);
        header.put("types", List.of("JIT compiled", "Inlined"));
        header.put("names", names);
        header.put("search", null);
        header.putAll(extra);
        header.put("columns", FlameGraphBinary.ordered("total", "u32", "name", "u16"));
        return header;
    }
}
