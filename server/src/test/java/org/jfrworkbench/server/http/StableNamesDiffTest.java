package org.jfrworkbench.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import org.jfrworkbench.model.StableNames;
import org.jfrworkbench.testkit.jfr.JfrWriter;
import org.jfrworkbench.testkit.jfr.JfrWriter.Field;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Lambda, proxy and accessor names differ between two runs of the same code; a diff must not call them changes. */
class StableNamesDiffTest {
    @TempDir
    Path data;

    /** One run: main calls a lambda, a proxy and a reflection accessor, each under the run's own generated name. */
    static byte[] run(String lambda, String proxy, String accessor, long seed) {
        JfrWriter w = new JfrWriter(JfrWriter.START_NANOS + seed, 1_000_000_000L);
        w.stackTypes();
        w.type("jdk.ExecutionSample", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                Field.pool("sampledThread", "java.lang.Thread"), Field.pool("stackTrace", "jdk.types.StackTrace"));
        w.constant("java.lang.Thread", 5, "main", 1L);
        w.constant("jdk.types.Symbol", 1, "app/Main").constant("jdk.types.Symbol", 2, "main")
                .constant("jdk.types.Symbol", 3, lambda).constant("jdk.types.Symbol", 4, "run")
                .constant("jdk.types.Symbol", 5, proxy).constant("jdk.types.Symbol", 6, "invoke")
                .constant("jdk.types.Symbol", 7, accessor);
        w.constant("java.lang.Class", 10, 1L).constant("java.lang.Class", 11, 3L).constant("java.lang.Class", 12, 5L)
                .constant("java.lang.Class", 13, 7L);
        w.constant("jdk.types.Method", 20, 10L, 2L).constant("jdk.types.Method", 21, 11L, 4L)
                .constant("jdk.types.Method", 22, 12L, 6L).constant("jdk.types.Method", 23, 13L, 6L);
        Object[] main = {20L, 1};
        w.constant("jdk.types.StackTrace", 30, false, List.<Object[]>of(new Object[] {21L, 1}, main));
        w.constant("jdk.types.StackTrace", 31, false, List.<Object[]>of(new Object[] {22L, 1}, main));
        w.constant("jdk.types.StackTrace", 32, false, List.<Object[]>of(new Object[] {23L, 1}, main));
        for (int i = 0; i < 300; i++) {
            w.event("jdk.ExecutionSample", 1_000L + i, 5L, 30L + i % 3);
        }
        return w.chunk();
    }

    @Test
    void generatedNamesLoseTheirRunSpecificNumbers() {
        assertEquals("App$$Lambda.run", StableNames.of("App$$Lambda$75.0x0000000800c22a28.run"));
        assertEquals("App$$Lambda.run", StableNames.of("App$$Lambda.0x800000026.run"));
        assertEquals("App$$Lambda.run", StableNames.of("App$$Lambda$27.872627152.run"));
        assertEquals("jdk.proxy.$Proxy.invoke", StableNames.of("jdk.proxy2.$Proxy12.invoke"));
        assertEquals("jdk.internal.reflect.GeneratedMethodAccessor.invoke",
                StableNames.of("jdk.internal.reflect.GeneratedMethodAccessor123.invoke"));
        assertEquals("java.lang.invoke.LambdaForm$MH.invoke", StableNames.of("java.lang.invoke.LambdaForm$MH.0x00000008000c4c00.invoke"));
        assertEquals("app.Service$$SpringCGLIB.run", StableNames.of("app.Service$$SpringCGLIB$$0.run"));
        assertEquals("app.Main.main", StableNames.of("app.Main.main"));
        assertEquals("app.Inner$1.run", StableNames.of("app.Inner$1.run"), "anonymous classes are stable: kept");
    }

    @Test
    void aDiffOfTwoRunsShowsNoLambdaAppearingAndVanishing() throws Exception {
        try (TestServer server = new TestServer(data, 64 << 20, null)) {
            String a = server.upload("?name=run1", run("app/App$$Lambda$75/0x0000000800c22a28", "jdk/proxy2/$Proxy12",
                    "jdk/internal/reflect/GeneratedMethodAccessor7", 0));
            String b = server.upload("?name=run2", run("app/App$$Lambda$81/0x0000000800c9f000", "jdk/proxy3/$Proxy15",
                    "jdk/internal/reflect/GeneratedMethodAccessor9", 5));
            TestServer.Reply r = server.get("/api/diff?base=" + a + "&target=" + b + "&kind=cpu");
            assertEquals(200, r.status(), r.body());
            JsonNode diff = r.json();
            for (JsonNode c : diff.get("changes")) {
                assertFalse(Math.abs(c.get("delta").asDouble()) > 0.5, "no method appears or vanishes: " + c);
            }
            List<String> names = new java.util.ArrayList<>();
            diff.get("names").forEach(n -> names.add(n.asText()));
            assertTrue(names.contains("app.App$$Lambda.run"), names.toString());
            // the flame graph keeps the name as recorded
            JsonNode flame = server.get("/api/recordings/" + a + "/flame?kind=cpu").json();
            List<String> recorded = new java.util.ArrayList<>();
            flame.get("names").forEach(n -> recorded.add(n.asText()));
            assertTrue(recorded.contains("app.App$$Lambda$75.0x0000000800c22a28.run"), recorded.toString());
        }
    }
}
