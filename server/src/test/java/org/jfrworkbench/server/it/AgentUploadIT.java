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
import java.util.concurrent.TimeUnit;
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
 * comes up on that port each chunk is stored once and leaves the spool.
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
                UploadingWorkload.class.getName(), "12"), appLog);
        // nobody listens yet: wait until a closed chunk waits in the spool (the engine's start takes seconds on a busy machine)
        long spooledWhileAway = 0;
        for (long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30); spooledWhileAway == 0 && System.nanoTime() < deadline; ) {
            Thread.sleep(200);
            spooledWhileAway = spooledChunks(spool);
        }
        Thread.sleep(1000);

        try (ServerProcess server = ServerProcess.onPort(port, tmp.resolve("data"), "--token", "s3cret", "--no-samples")) {
            assertTrue(app.waitFor(60, TimeUnit.SECONDS), "workload finished");
            String log = Files.readString(appLog);
            assertEquals(0, app.exitValue(), log);
            assertTrue(spooledWhileAway >= 1, "chunks waited on disk while the server was away: " + log);

            HttpResponse<String> list = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(server.base + "/api/recordings?q=" + "label:service%3Dupload-test&limit=100")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, list.statusCode(), list.body());
            JsonNode recordings = new ObjectMapper().readTree(list.body()).get("recordings");
            List<Integer> sequence = new ArrayList<>();
            Set<String> names = new HashSet<>();
            for (JsonNode r : recordings) {
                String name = r.get("name").asText();
                assertTrue(names.add(name), "stored twice: " + name);
                assertEquals("upload-test", r.get("labels").get("service").asText());
                sequence.add(Integer.parseInt(name.replaceAll(".*-(\\d{4})\\.jfr$", "$1")));
            }
            sequence.sort(null);
            assertTrue(sequence.size() >= 5, "chunks stored: " + sequence + "\n" + log);
            for (int i = 0; i < sequence.size(); i++) {
                assertEquals(i + 1, sequence.get(i), "every chunk arrived, none twice: " + sequence);
            }
            assertEquals(0, spooledChunks(spool), "delivered chunks leave the spool");
        } finally {
            app.destroyForcibly();
        }
    }

    @Test
    void spoolStaysWithinItsBoundWhileNobodyListens() throws Exception {
        ChildJvm jvm = ChildJvm.jdk("25");
        Path dir = tmp.resolve("spool");
        long bound = 150 * 1024; // a few chunks: exceeded even when a busy machine slows the workload down
        String out = jvm.run("dir=" + dir + ",interval=1s,spool-max=150k,upload=http://127.0.0.1:" + freePort(),
                List.of(), tmp.resolve("app.log"), "org.jfrworkbench.samples.CheckoutService", "after", "7");
        List<Path> left = AgentChunks.chunks(dir);
        long size = 0;
        for (Path p : left) {
            size += Files.size(p);
        }
        long newest = Files.size(left.get(left.size() - 1));
        assertTrue(size <= bound + newest, "spool holds " + size + " bytes in " + left.size() + " chunks");
        assertTrue(out.contains("dropped") && out.contains("oldest chunk"), out);
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static long spooledChunks(Path spool) throws java.io.IOException {
        if (!Files.isDirectory(spool)) {
            return 0;
        }
        try (Stream<Path> s = Files.list(spool)) {
            return s.filter(p -> p.toString().endsWith(".jfr")).count();
        }
    }
}
