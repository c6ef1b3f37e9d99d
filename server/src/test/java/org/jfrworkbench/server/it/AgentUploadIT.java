package org.jfrworkbench.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jfrworkbench.testkit.workload.UploadingWorkload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent ({@code agent.jar} system property) uploading to the real server: chunks written while no server
 * listens wait in the agent's spool; once {@code workbench serve} comes up on that port each chunk is stored once.
 */
class AgentUploadIT {
    @TempDir
    Path tmp;

    @Test
    void chunksSpooledWhileTheServerIsAwayArriveExactlyOnce() throws Exception {
        Path agentJar = Path.of(System.getProperty("agent.jar", "../agent/target/workbench-agent.jar")).toAbsolutePath();
        assertTrue(Files.isRegularFile(agentJar), "agent jar missing: " + agentJar);
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path spool = tmp.resolve("spool");
        Path appLog = tmp.resolve("app.log");
        Process app = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED",
                "-javaagent:" + agentJar + "=dir=" + spool + ",interval=1s,upload=http://127.0.0.1:" + port
                        + ",token=s3cret,label.service=upload-test",
                "-cp", Path.of(UploadingWorkload.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString(),
                UploadingWorkload.class.getName(), "12")
                .redirectErrorStream(true).redirectOutput(appLog.toFile()).start();
        // nobody listens yet: wait until a closed chunk waits in the spool (the engine's start takes seconds on a busy machine)
        long spooledWhileAway = 0;
        for (long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30); spooledWhileAway == 0 && System.nanoTime() < deadline; ) {
            Thread.sleep(200);
            spooledWhileAway = spooledChunks(spool);
        }
        Thread.sleep(1000);

        Process server = startServer(java, port, tmp.resolve("data"));
        try {
            assertTrue(app.waitFor(60, TimeUnit.SECONDS), "workload finished");
            String log = Files.readString(appLog);
            assertEquals(0, app.exitValue(), log);
            assertTrue(spooledWhileAway >= 1, "chunks waited on disk while the server was away: " + log);

            HttpResponse<String> list = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/api/recordings?q=" + "label:service%3Dupload-test&limit=100")).build(),
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
            server.destroyForcibly();
            server.waitFor(30, TimeUnit.SECONDS);
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

    private static Process startServer(String java, int port, Path data) throws Exception {
        String jar = System.getProperty("workbench.jar", "target/workbench.jar");
        Process p = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-jar", jar, "serve", "--port",
                String.valueOf(port), "--data", data.toString(), "--token", "s3cret", "--no-samples")
                .redirectErrorStream(true).start();
        CompletableFuture<Boolean> up = new CompletableFuture<>();
        StringBuffer log = new StringBuffer();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    log.append(line).append('\n');
                    if (line.contains(" on http://")) {
                        up.complete(true);
                    }
                }
            } catch (java.io.IOException e) {
                // killed
            }
            up.completeExceptionally(new IllegalStateException("server exited:\n" + log));
        });
        reader.setDaemon(true);
        reader.start();
        up.get(60, TimeUnit.SECONDS);
        return p;
    }
}
