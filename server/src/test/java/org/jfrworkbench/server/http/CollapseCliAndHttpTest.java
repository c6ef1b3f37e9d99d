package org.jfrworkbench.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import org.jfrworkbench.cli.Workbench;
import org.jfrworkbench.testkit.JfrFixture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code workbench collapse} and {@code GET .../collapsed} are one implementation: the same text for the same query. */
class CollapseCliAndHttpTest {
    @TempDir
    static Path data;
    static TestServer server;
    static Path file;
    static String id;

    @BeforeAll
    static void start() throws Exception {
        server = new TestServer(data, 64 << 20, null);
        file = JfrFixture.recording("a");
        id = server.upload("?name=a.jfr", Files.readAllBytes(file));
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    static String cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new Workbench());
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        assertEquals(0, cli.execute(args), err.toString());
        return out.toString();
    }

    @Test
    void theCliAndTheApiWriteTheSameStacksForTheSameRange() throws Exception {
        long half = server.get("/api/recordings/" + id).json().get("durationMillis").asLong() / 2;
        String[][] queries = {
            {"cpu", null, null, null}, {"cpu", "0", String.valueOf(half), null}, {"cpu", String.valueOf(half), null, null},
            {"alloc", null, null, null}, {"alloc", "0", String.valueOf(half), "samples"}};
        for (String[] q : queries) {
            StringBuilder http = new StringBuilder("/api/recordings/" + id + "/collapsed?kind=" + q[0]);
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("collapse", file.toString(), "--kind", q[0]));
            if (q[1] != null) {
                http.append("&from=").append(q[1]);
                args.addAll(java.util.List.of("--from", q[1]));
            }
            if (q[2] != null) {
                http.append("&to=").append(q[2]);
                args.addAll(java.util.List.of("--to", q[2]));
            }
            if (q[3] != null) {
                http.append("&weight=").append(q[3]);
                args.addAll(java.util.List.of("--weight", q[3]));
            }
            String fromApi = server.get(http.toString()).body();
            assertTrue(!fromApi.isEmpty(), http.toString());
            assertEquals(fromApi, cli(args.toArray(String[]::new)), String.join(" ", args));
        }
    }
}
