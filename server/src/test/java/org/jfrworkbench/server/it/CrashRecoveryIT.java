package org.jfrworkbench.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.jfrworkbench.testkit.process.ServerProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills the server process (SIGKILL) at random moments while uploads are in flight, many times, then restarts it:
 * every acknowledged recording must be listed, searchable and render, and nothing half-imported may show.
 */
class CrashRecoveryIT {
    static final ObjectMapper JSON = new ObjectMapper();
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path data;

    /** A distinct collapsed-stack upload with a unique method name; weight 1 per line. */
    static String upload(int n) {
        Random r = new Random(n);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 10_000; i++) {
            sb.append("java.lang.Thread.run;com.crash.Upload").append(n).append(".work;com.crash.Leaf")
                    .append(r.nextInt(500)).append(".spin").append(i % 7).append(" 1\n");
        }
        return sb.toString();
    }

    static String idOf(String body) throws Exception {
        byte[] sha = MessageDigest.getInstance("SHA-256").digest(body.getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().formatHex(sha).substring(0, 16);
    }

    @Test
    void acknowledgedRecordingsSurviveKillsAndNothingHalfImportedShows() throws Exception {
        Random random = new Random(42);
        Map<String, Integer> attempted = new HashMap<>();
        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        AtomicInteger next = new AtomicInteger();
        int kills = 0;
        while (next.get() < 24 || kills < 5) {
            try (ServerProcess server = new ServerProcess(data, "--no-samples")) {
                Semaphore answered = new Semaphore(0);
                Thread[] workers = new Thread[2];
                for (int w = 0; w < workers.length; w++) {
                    workers[w] = new Thread(() -> {
                        while (!Thread.currentThread().isInterrupted()) {
                            int n = next.getAndIncrement();
                            String body = upload(n);
                            try {
                                synchronized (attempted) {
                                    attempted.put(idOf(body), n);
                                }
                                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(server.base + "/api/recordings?name=u" + n))
                                        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
                                if (r.statusCode() == 201 || r.statusCode() == 200) {
                                    acknowledged.add(JSON.readTree(r.body()).get("id").asText());
                                }
                                answered.release();
                            } catch (Exception e) {
                                return; // the server died under us
                            }
                        }
                    });
                    workers[w].start();
                }
                // the kill comes after a random number of answers (counted, not timed, so a slow machine changes
                // nothing): the other worker's upload is in flight then, at whatever stage it has reached
                int answers = 1 + random.nextInt(4);
                assertTrue(answered.tryAcquire(answers, ServerProcess.STUCK_SECONDS, TimeUnit.SECONDS),
                        "the server answered " + answers + " uploads:\n" + server.log);
                server.kill();
                kills++;
                for (Thread t : workers) {
                    t.join(30_000);
                }
            }
        }
        assertTrue(acknowledged.size() >= 5, "some uploads were acknowledged: " + acknowledged.size());

        try (ServerProcess server = new ServerProcess(data, "--no-samples")) {
            JsonNode list = get(server, "/api/recordings?limit=10000");
            Set<String> listed = new HashSet<>();
            for (JsonNode r : list.get("recordings")) {
                listed.add(r.get("id").asText());
            }
            assertEquals(list.get("total").asLong(), listed.size());
            assertTrue(listed.containsAll(acknowledged), "acknowledged " + acknowledged + " but listed " + listed);
            for (String id : listed) {
                Integer n = attempted.get(id);
                assertTrue(n != null, "listed recording " + id + " was never uploaded");
                JsonNode flame = get(server, "/api/recordings/" + id + "/flame");
                assertEquals(10_000, flame.get("total").asLong(), "recording " + id + " is complete");
                JsonNode hits = get(server, "/api/search?q=Upload" + n + ".work");
                assertEquals(1, hits.get("total").asLong(), "recording " + id + " is searchable");
                assertEquals(id, hits.get("hits").get(0).get("recording").get("id").asText());
            }
            try (var tmp = Files.list(data.resolve("tmp"))) {
                assertEquals(0, tmp.count(), "staging area was cleared");
            }
            System.out.printf("crash test: %d kills, %d uploads attempted, %d acknowledged, %d listed after restart%n",
                    kills, next.get(), acknowledged.size(), listed.size());
        }
    }

    private JsonNode get(ServerProcess server, String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(server.base + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), path + " -> " + r.body());
        return JSON.readTree(r.body());
    }
}
