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

    /** Deadlines that only a stuck run reaches: a loaded machine may take minutes where a quiet one takes seconds. */
    private static final long STUCK_SECONDS = 300;

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
        // the workload runs until its stdin is closed: it stops once this test has seen what it waits for
        Process app = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED",
                "-javaagent:" + agentJar + "=dir=" + spool + ",interval=1s,upload=http://127.0.0.1:" + port
                        + ",token=s3cret,label.service=upload-test",
                "-cp", Path.of(UploadingWorkload.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString(),
                UploadingWorkload.class.getName())
                .redirectErrorStream(true).redirectOutput(appLog.toFile()).start();
        Process server = null;
        try {
            // nobody listens yet: the uploader has tried and failed, and closed chunks wait in the spool
            await(() -> spooled(spool).size() >= 2 && Files.readString(appLog).contains("cannot reach"),
                    () -> "chunks spooled while the server is away: " + spooled(spool) + "\n" + log(appLog));
            List<Integer> spooledWhileAway = spooled(spool);

            server = startServer(java, port, tmp.resolve("data"));
            String list = "http://127.0.0.1:" + port + "/api/recordings?q=label:service%3Dupload-test&limit=1000";
            // delivered chunks leave the spool: the agent deletes each one the server acknowledged
            await(() -> {
                List<Integer> stored = stored(list);
                return stored.size() >= 5 && stored.containsAll(spooledWhileAway)
                        && spooled(spool).stream().noneMatch(stored::contains);
            }, () -> "stored " + stored(list) + ", spooled " + spooled(spool) + "\n" + log(appLog));

            app.getOutputStream().close();
            assertTrue(app.waitFor(STUCK_SECONDS, TimeUnit.SECONDS), "workload finished: " + log(appLog));
            assertEquals(0, app.exitValue(), log(appLog));
            List<Integer> stored = stored(list);
            List<Integer> left = spooled(spool);
            int last = stored.get(stored.size() - 1);
            for (int i = 0; i < stored.size(); i++) {
                assertEquals(i + 1, stored.get(i), "every chunk arrived in order, none twice: " + stored);
            }
            // at exit the agent gives uploads a few seconds; what is left waits in the spool for its next start. Only
            // the chunk in flight when the JVM ended may be stored and still spooled: delivered again, it is the same bytes
            if (!left.isEmpty()) {
                assertTrue(left.get(0) == last || left.get(0) == last + 1, "stored " + stored + ", left in the spool " + left);
                for (int i = 0; i < left.size(); i++) {
                    assertEquals(left.get(0) + i, left.get(i), "no chunk lost: stored " + stored + ", spooled " + left);
                }
            }
        } finally {
            app.destroyForcibly();
            if (server != null) {
                server.destroyForcibly();
                server.waitFor(30, TimeUnit.SECONDS);
            }
        }
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

    private static String log(Path appLog) throws java.io.IOException {
        return Files.readString(appLog);
    }

    interface Check {
        boolean holds() throws Exception;
    }

    interface Message {
        String get() throws Exception;
    }

    /** Polls until the condition holds; fails only when it has not after {@link #STUCK_SECONDS}. */
    private static void await(Check condition, Message message) throws Exception {
        for (long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STUCK_SECONDS); !condition.holds(); ) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + STUCK_SECONDS + " s: " + message.get());
            }
            Thread.sleep(50);
        }
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
        up.get(STUCK_SECONDS, TimeUnit.SECONDS);
        return p;
    }
}
