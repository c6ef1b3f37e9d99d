package org.jfrworkbench.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.jfrworkbench.cli.Workbench;
import org.jfrworkbench.testkit.Recordings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Kinds that mean what they say, through the CLI and HTTP: async-profiler's wall samples are never cpu samples, every
 * sample keeps its thread state ({@code states=}), and two samplers of a kind are two sources ({@code source=}).
 */
class ThreadStatesAndSourcesTest {
    @TempDir
    static Path data;
    static TestServer server;

    @BeforeAll
    static void start() throws Exception {
        server = new TestServer(data, 256 << 20, null);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    /** Execution samples per state, counted by the JDK's own reader. */
    static Map<String, Long> executionStates(Path file, String event) throws Exception {
        Map<String, Long> out = new TreeMap<>();
        try (RecordingFile rf = new RecordingFile(file)) {
            while (rf.hasMoreEvents()) {
                RecordedEvent e = rf.readEvent();
                if (e.getEventType().getName().equals(event)) {
                    out.merge(String.valueOf((Object) e.getValue("state")), 1L, Long::sum);
                }
            }
        }
        return out;
    }

    static String[] cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine c = new CommandLine(new Workbench());
        c.setOut(new PrintWriter(out));
        c.setErr(new PrintWriter(err));
        int exit = c.execute(args);
        return new String[] {Integer.toString(exit), out.toString(), err.toString()};
    }

    static JsonNode summary(Path file) throws Exception {
        String[] r = cli("summary", file.toString());
        assertEquals("0", r[0], r[2]);
        return TestServer.JSON.readTree(r[1]);
    }

    static long flameTotal(String id, String query) throws Exception {
        TestServer.Reply r = server.get("/api/recordings/" + id + "/flame?" + query);
        assertEquals(200, r.status(), r.body());
        return r.json().get("total").asLong();
    }

    @Test
    void asyncProfiler30CpuWithWallShowsOnlyCpuSamplesAsCpu() throws Exception {
        Path file = Recordings.asyncProfiler30("ap30-jdk17-cpu-wall", "event=cpu,wall=5ms");
        Map<String, Long> states = executionStates(file, "jdk.ExecutionSample");
        JsonNode kinds = summary(file).get("kinds");
        assertEquals((long) states.get("STATE_DEFAULT"), kinds.get("cpu").get("samples").asLong(), kinds.toString());
        assertEquals(states.get("STATE_SLEEPING"), kinds.get("wall").get("states").get("STATE_SLEEPING").asLong());
        assertFalse(kinds.get("cpu").get("states").has("STATE_SLEEPING"), "a sleeping thread is never cpu");

        String id = server.upload(file);
        JsonNode rec = server.get("/api/recordings/" + id).json();
        assertEquals(kinds.get("wall"), rec.get("kinds").get("wall"), "HTTP metadata and CLI summary agree");
        long sleeping = states.get("STATE_SLEEPING");
        assertEquals(sleeping, flameTotal(id, "kind=wall&states=STATE_SLEEPING"));
        assertEquals(states.getOrDefault("STATE_RUNNABLE", 0L) + sleeping,
                flameTotal(id, "kind=wall&states=STATE_RUNNABLE,STATE_SLEEPING"));
        TestServer.Reply bad = server.get("/api/recordings/" + id + "/flame?kind=wall&states=STATE_PARKED");
        assertEquals(400, bad.status());
        assertTrue(bad.json().get("error").asText().contains("STATE_PARKED")
                && bad.json().get("error").asText().contains("STATE_SLEEPING"), bad.body());
        String collapsed = server.get("/api/recordings/" + id + "/collapsed?kind=wall&states=STATE_SLEEPING").body();
        assertEquals(sleeping, collapsed.lines().mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).sum());
        String[] cliCollapse = cli("collapse", file.toString(), "--kind", "wall", "--states", "STATE_SLEEPING");
        assertEquals("0", cliCollapse[0], cliCollapse[2]);
        assertEquals(sleeping, cliCollapse[1].lines().mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).sum());
        String[] cliBad = cli("collapse", file.toString(), "--kind", "wall", "--states", "STATE_NOPE");
        assertEquals("2", cliBad[0]);
        assertTrue(cliBad[2].contains("STATE_NOPE") && cliBad[2].contains("STATE_SLEEPING"), cliBad[2]);
    }

    @Test
    void wallClockModeHasNoCpuKind() throws Exception {
        Path file = Recordings.asyncProfilerWall(false);
        JsonNode kinds = summary(file).get("kinds");
        assertFalse(kinds.has("cpu"), kinds.toString());
        Map<String, Long> states = executionStates(file, "jdk.ExecutionSample");
        assertEquals(states.values().stream().mapToLong(Long::longValue).sum(), kinds.get("wall").get("samples").asLong());
        assertEquals(states.get("STATE_RUNNABLE"), kinds.get("wall").get("states").get("STATE_RUNNABLE").asLong());
    }

    @Test
    void twoSamplersOfAKindAreTwoSourcesNeverSummed() throws Exception {
        Path file = Recordings.asyncProfilerBesideJdk();
        Map<String, Long> states = executionStates(file, "jdk.ExecutionSample");
        long profiler = states.get("STATE_DEFAULT");
        long jdk = states.get("STATE_RUNNABLE");
        JsonNode cpu = summary(file).get("kinds").get("cpu");
        assertEquals("async-profiler", cpu.get("source").asText());
        assertEquals(profiler, cpu.get("samples").asLong(), "the kind's figures are its default source's");
        assertEquals(jdk, cpu.get("sources").get("jdk").get("samples").asLong());
        assertEquals(profiler, cpu.get("sources").get("async-profiler").get("samples").asLong());

        String id = server.upload(file);
        assertEquals(profiler, flameTotal(id, "kind=cpu"), "one source by default, not the sum");
        assertEquals(jdk, flameTotal(id, "kind=cpu&source=jdk"));
        assertEquals(profiler, flameTotal(id, "kind=cpu&source=async-profiler"));
        TestServer.Reply bad = server.get("/api/recordings/" + id + "/flame?kind=cpu&source=datadog");
        assertEquals(400, bad.status());
        assertTrue(bad.json().get("error").asText().contains("jdk"), bad.body());
        JsonNode diff = server.get("/api/diff?base=" + id + "&target=" + id + "&kind=cpu&source=jdk").json();
        assertEquals(jdk, diff.get("baseTotal").asLong(), diff.toString().substring(0, 200));
        assertEquals(400, server.get("/api/diff?base=" + id + "&target=" + id + "&kind=cpu&states=STATE_X").status());
        String[] c = cli("collapse", file.toString(), "--kind", "cpu", "--source", "jdk");
        assertEquals("0", c[0], c[2]);
        assertEquals(jdk, c[1].lines().mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).sum());
    }
}
