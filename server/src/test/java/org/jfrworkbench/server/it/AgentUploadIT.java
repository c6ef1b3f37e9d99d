package org.jfrworkbench.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jfrworkbench.testkit.Recordings;
import org.jfrworkbench.testkit.agent.AgentChunks;
import org.jfrworkbench.testkit.process.ChildJvm;
import org.jfrworkbench.testkit.process.ServerProcess;
import org.jfrworkbench.testkit.workload.UploadingWorkload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent ({@code agent.jar} system property) uploading to the real server: chunks written while no server
 * listens wait in the agent's spool, which stays within its bound by dropping the oldest; once {@code workbench serve}
 * comes up on that port each chunk is stored once, as the next part of the process's one run, and leaves the spool. The workloads run until their standard input
 * ends, so each test stops them once it has seen what it waits for, however slow the machine.
 */
class AgentUploadIT {
    @TempDir
    Path tmp;

    @Test
    void theChunksOfOneProcessAreOneRunDeliveredExactlyOnceAcrossServerRestarts() throws Exception {
        int port = freePort();
        Path spool = tmp.resolve("spool");
        Path data = tmp.resolve("data");
        Path appLog = tmp.resolve("app.log");
        Process app = ChildJvm.current().launch(List.of(
                ChildJvm.agent("dir=" + spool + ",interval=1s,upload=http://127.0.0.1:" + port + ",token=s3cret,label.service=upload-test"),
                "-cp", Path.of(UploadingWorkload.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString(),
                UploadingWorkload.class.getName()), appLog);
        String list = "/api/recordings?q=label:service%3Dupload-test&limit=1000";
        try {
            // nobody listens yet: the uploader has tried and failed, and closed chunks wait in the spool
            ChildJvm.await(app, appLog, () -> spooled(spool).size() >= 2 && Files.readString(appLog).contains("cannot reach"),
                    () -> "chunks spooled while the server is away: " + spooled(spool));
            List<Integer> spooledWhileAway = spooled(spool);
            assertEquals(0, spooledWhileAway.get(0), "the first part is part 0: " + spooledWhileAway);

            List<Long> durations = new ArrayList<>();
            try (ServerProcess server = ServerProcess.onPort(port, data, "--token", "s3cret", "--no-samples")) {
                // the spool is delivered, then every new chunk: one recording that grows
                ChildJvm.await(app, appLog, () -> {
                    JsonNode run = theRun(server.base + list);
                    if (run != null && (durations.isEmpty() || durations.get(durations.size() - 1) != run.get("durationMillis").asLong())) {
                        durations.add(run.get("durationMillis").asLong());
                    }
                    return run != null && parts(run).containsAll(spooledWhileAway) && run.get("parts").asInt() >= spooledWhileAway.size() + 2;
                }, () -> "run " + theRun(server.base + list) + ", spooled " + spooled(spool));
                server.kill(); // mid-run, SIGKILL
            }
            for (int i = 1; i < durations.size(); i++) {
                assertTrue(durations.get(i) > durations.get(i - 1), "the run's duration grows with its parts: " + durations);
            }
            assertTrue(durations.size() >= 2, "seen growing: " + durations);
            // chunks closed while the server is down wait in the spool again
            ChildJvm.await(app, appLog, () -> spooled(spool).size() >= 2, () -> "spooled while the server is down: " + spooled(spool));
            try (ServerProcess server = ServerProcess.onPort(port, data, "--token", "s3cret", "--no-samples")) {
                List<Integer> waiting = spooled(spool);
                ChildJvm.await(app, appLog, () -> {
                    JsonNode run = theRun(server.base + list);
                    return run != null && parts(run).containsAll(waiting);
                }, () -> "run " + theRun(server.base + list) + " after the restart, spooled " + spooled(spool));
                ChildJvm.stop(app, appLog);

                JsonNode run = theRun(server.base + list);
                List<Integer> parts = parts(run);
                List<Integer> left = spooled(spool);
                for (int i = 0; i < parts.size(); i++) {
                    assertEquals(i, parts.get(i), "parts numbered without gaps, none twice: " + parts);
                }
                // at exit the agent gives uploads a few seconds; what is left waits in the spool for its next start.
                // Only the chunk in flight when the JVM ended may be stored and still spooled: delivered again, it is
                // the same bytes, stored once
                if (!left.isEmpty()) {
                    int next = parts.get(parts.size() - 1);
                    assertTrue(left.get(0) == next || left.get(0) == next + 1, "stored " + parts + ", left in the spool " + left);
                    for (int i = 0; i < left.size(); i++) {
                        assertEquals(left.get(0) + i, left.get(i), "no chunk lost: stored " + parts + ", spooled " + left);
                    }
                } else {
                    assertTrue(run.get("ended").asBoolean(), "the last chunk, sent at exit, ended the run: " + run);
                }
                assertFalse(Files.readString(appLog).contains("other bytes"), Files.readString(appLog));

                // the run is what its stored parts, concatenated, are as one upload: every sample there exactly once
                String id = run.get("id").asText();
                Path joined = tmp.resolve("joined.jfr");
                try (Stream<Path> files = Files.list(data.resolve("recordings").resolve(id))) {
                    List<Path> stored = files.filter(f -> f.getFileName().toString().startsWith("part-")).sorted().toList();
                    assertEquals(parts.size(), stored.size(), stored.toString());
                    Recordings.concatenate(joined, stored.toArray(Path[]::new));
                }
                HttpResponse<String> whole = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(server.base
                        + "/api/recordings?name=joined")).header("Authorization", "Bearer s3cret")
                        .POST(HttpRequest.BodyPublishers.ofFile(joined)).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(201, whole.statusCode(), whole.body());
                JsonNode plain = new ObjectMapper().readTree(whole.body());
                assertEquals(plain.get("kinds"), run.get("kinds"));
                assertEquals(plain.get("chunks"), run.get("chunks"));
            }
        } finally {
            app.destroyForcibly();
        }
    }

    /** The one recording under this test's label (null before the first part arrives); more than one fails the test. */
    private static JsonNode theRun(String list) throws Exception {
        HttpResponse<String> response;
        try {
            response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(list)).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException e) {
            return null; // the server is starting or gone
        }
        assertEquals(200, response.statusCode(), response.body());
        JsonNode recordings = new ObjectMapper().readTree(response.body()).get("recordings");
        assertTrue(recordings.size() <= 1, "one run, one recording: " + response.body());
        if (recordings.isEmpty()) {
            return null;
        }
        JsonNode run = recordings.get(0);
        assertEquals("upload-test", run.get("labels").get("service").asText());
        assertTrue(run.get("run").asText().contains(":" + run.get("labels").get("pid").asText() + ":"), run.toString());
        return run;
    }

    private static List<Integer> parts(JsonNode run) {
        List<Integer> parts = new ArrayList<>();
        run.get("partNumbers").forEach(n -> parts.add(n.asInt()));
        return parts;
    }

    @Test
    void aRunThatOutgrowsTheServersLimitGoesOnAsItsContinuation() throws Exception {
        int port = freePort();
        Path spool = tmp.resolve("spool");
        Path appLog = tmp.resolve("app.log");
        try (ServerProcess server = ServerProcess.onPort(port, tmp.resolve("data"), "--no-samples", "--max-run", "400k")) {
            Process app = ChildJvm.current().launch(List.of(
                    ChildJvm.agent("dir=" + spool + ",interval=1s,upload=http://127.0.0.1:" + port + ",label.service=limit-test"),
                    "-cp", Path.of(UploadingWorkload.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString(),
                    UploadingWorkload.class.getName()), appLog);
            String list = server.base + "/api/recordings?q=label:service%3Dlimit-test&limit=1000";
            try {
                ChildJvm.await(app, appLog, () -> {
                    JsonNode recordings = recordings(list);
                    return recordings.size() == 2 && recordings.get(0).get("parts").asInt() >= 1;
                }, () -> "runs " + recordings(list));
                ChildJvm.stop(app, appLog);
            } finally {
                app.destroyForcibly();
            }
            // newest first: the base run last, then KEY.2, KEY.3, ...
            JsonNode recordings = recordings(list);
            String key = recordings.get(recordings.size() - 1).get("run").asText();
            List<Integer> parts = new ArrayList<>();
            for (int i = 0; i < recordings.size(); i++) {
                JsonNode run = recordings.get(recordings.size() - 1 - i);
                assertEquals(i == 0 ? key : key + "." + (i + 1), run.get("run").asText(), recordings.toString());
                assertTrue(run.get("sizeBytes").asLong() <= 400 << 10, run.toString());
                assertEquals(recordings.get(0).get("startMillis"), run.get("startMillis"), "all start at the JVM's start");
                parts.addAll(parts(run));
            }
            for (int i = 0; i < parts.size(); i++) {
                assertEquals(i, parts.get(i), "each continuation goes on with the next part: " + parts);
            }
        }
    }

    /** The recordings of a list URL, newest first. */
    private static JsonNode recordings(String list) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(list)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return new ObjectMapper().readTree(response.body()).get("recordings");
    }

    @Test
    void spoolStaysWithinItsBoundWhileNobodyListens() throws Exception {
        ChildJvm jvm = ChildJvm.jdk("25");
        Path dir = tmp.resolve("spool");
        long bound = 150 * 1024; // a few chunks
        Path log = tmp.resolve("app.log");
        Process app = jvm.start("dir=" + dir + ",interval=1s,spool-max=150k,upload=http://127.0.0.1:" + freePort(),
                List.of(), log, "org.jfrworkbench.samples.CheckoutService", "after", "stdin");
        // runs until the spool has gone over its bound and dropped chunks, however long that takes on a busy machine
        ChildJvm.await(app, log, () -> Files.readString(log).contains("oldest chunk"), () -> "no chunk dropped");
        String out = ChildJvm.stop(app, log);
        // an end marker (…@end.jfr, empty) is written at exit when the JVM exited during a rotation: it is no chunk,
        // and taken for the newest it would deny the newest real chunk the room the spool always keeps for it
        List<Path> left = AgentChunks.chunks(dir).stream().filter(p -> !p.getFileName().toString().endsWith("@end.jfr")).toList();
        long size = 0;
        for (Path p : left) {
            size += Files.size(p);
        }
        long newest = Files.size(left.get(left.size() - 1));
        // each chunk's name and size and the agent's log: a spool over its bound says which chunk stayed and why
        StringBuilder files = new StringBuilder();
        for (Path p : left) {
            files.append(' ').append(p.getFileName()).append('=').append(Files.size(p));
        }
        assertTrue(size <= bound + newest, "spool holds " + size + " bytes in " + left.size() + " chunks:" + files
                + "\n" + Files.readString(log));
        assertTrue(out.contains("dropped") && out.contains("oldest chunk"), out);
    }

    /** A spooled chunk's part number: the agent names them {@code <stem>@<run>@<runStart>@<part>[@last].jfr}. */
    private static int number(String name) {
        return Integer.parseInt(name.replaceAll("^.*@(\\d+)(@last)?\\.jfr$", "$1"));
    }

    /** The numbers of the closed chunks waiting in the spool, sorted. */
    private static List<Integer> spooled(Path spool) throws java.io.IOException {
        if (!Files.isDirectory(spool)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(spool)) {
            // an end marker (…@end.jfr) left at exit is no chunk
            return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".jfr") && !n.endsWith("@end.jfr"))
                    .map(AgentUploadIT::number).sorted()
                    .toList();
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
