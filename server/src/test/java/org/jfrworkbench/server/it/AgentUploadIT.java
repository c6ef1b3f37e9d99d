package org.jfrworkbench.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.jfrworkbench.testkit.agent.AgentChunks;
import org.jfrworkbench.testkit.process.ChildJvm;
import org.jfrworkbench.testkit.process.ServerProcess;
import org.jfrworkbench.testkit.workload.UploadingWorkload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent ({@code agent.jar} system property) uploading to the real server: chunks written while no server
 * listens wait in the agent's spool, which stays within its bound by dropping the oldest; once {@code workbench serve}
 * comes up on that port each chunk is stored once and leaves the spool. The workloads run until their standard input
 * ends, so each test stops them once it has seen what it waits for, however slow the machine.
 */
class AgentUploadIT {
    @TempDir
    Path tmp;

    @Test
    void chunksSpooledWhileTheServerIsAwayArriveExactlyOnce() throws Exception {
        int port = freePort();
        Path spool = tmp.resolve("spool");
        Path appLog = tmp.resolve("app.log");
        Process app = ChildJvm.current().launch(List.of(
                ChildJvm.agent("dir=" + spool + ",interval=1s,upload=http://127.0.0.1:" + port + ",token=s3cret,label.service=upload-test"),
                "-cp", Path.of(UploadingWorkload.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString(),
                UploadingWorkload.class.getName()), appLog);
        try {
            // nobody listens yet: the uploader has tried and failed, and closed chunks wait in the spool
            ChildJvm.await(app, appLog, () -> spooled(spool).size() >= 2 && Files.readString(appLog).contains("cannot reach"),
                    () -> "chunks spooled while the server is away: " + spooled(spool));
            List<Integer> spooledWhileAway = spooled(spool);

            try (ServerProcess server = ServerProcess.onPort(port, tmp.resolve("data"), "--token", "s3cret", "--no-samples")) {
                String list = server.base + "/api/recordings?q=label:service%3Dupload-test&limit=1000";
                // delivered chunks leave the spool: the agent deletes each one the server acknowledged
                ChildJvm.await(app, appLog, () -> {
                    List<Integer> stored = stored(list);
                    return stored.size() >= 5 && stored.containsAll(spooledWhileAway)
                            && spooled(spool).stream().noneMatch(stored::contains);
                }, () -> "stored " + stored(list) + ", spooled " + spooled(spool));

                ChildJvm.stop(app, appLog);
                List<Integer> stored = stored(list);
                List<Integer> left = spooled(spool);
                int last = stored.get(stored.size() - 1);
                for (int i = 0; i < stored.size(); i++) {
                    assertEquals(i + 1, stored.get(i), "every chunk arrived in order, none twice: " + stored);
                }
                // at exit the agent gives uploads a few seconds; what is left waits in the spool for its next start.
                // Only the chunk in flight when the JVM ended may be stored and still spooled: delivered again, it is
                // the same bytes
                if (!left.isEmpty()) {
                    assertTrue(left.get(0) == last || left.get(0) == last + 1, "stored " + stored + ", left in the spool " + left);
                    for (int i = 0; i < left.size(); i++) {
                        assertEquals(left.get(0) + i, left.get(i), "no chunk lost: stored " + stored + ", spooled " + left);
                    }
                }
            }
        } finally {
            app.destroyForcibly();
        }
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
        List<Path> left = AgentChunks.chunks(dir);
        long size = 0;
        for (Path p : left) {
            size += Files.size(p);
        }
        long newest = Files.size(left.get(left.size() - 1));
        assertTrue(size <= bound + newest, "spool holds " + size + " bytes in " + left.size() + " chunks");
        assertTrue(out.contains("dropped") && out.contains("oldest chunk"), out);
    }

    /** The chunk numbers stored under this test's label, sorted; a name stored twice fails the test. */
    private static List<Integer> stored(String list) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(list)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        List<Integer> sequence = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (JsonNode r : new ObjectMapper().readTree(response.body()).get("recordings")) {
            String name = r.get("name").asText();
            assertTrue(names.add(name), "stored twice: " + name);
            assertEquals("upload-test", r.get("labels").get("service").asText());
            sequence.add(number(name));
        }
        sequence.sort(null);
        return sequence;
    }

    /** A chunk file's sequence number: the agent names them {@code ...-NNNN.jfr}. */
    private static int number(String name) {
        return Integer.parseInt(name.replaceAll(".*-(\\d{4})\\.jfr$", "$1"));
    }

    /** The numbers of the closed chunks waiting in the spool, sorted. */
    private static List<Integer> spooled(Path spool) throws java.io.IOException {
        if (!Files.isDirectory(spool)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(spool)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".jfr")).map(AgentUploadIT::number).sorted()
                    .toList();
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
