package org.jfrworkbench.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.jfrworkbench.server.library.Runs;
import org.jfrworkbench.testkit.jfr.JfrChunks;
import org.jfrworkbench.testkit.process.ServerProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server killed (SIGKILL) while a run's part is being added, after the part and the run's new profile are stored
 * but before the metadata that counts the part: on restart the run is as it was before that part (its profile made
 * again from the counted parts, the uncounted part removed), and the part, sent again, is added.
 */
class RunCrashIT {
    static final ObjectMapper JSON = new ObjectMapper();
    static final Path CHECKOUT = Path.of(System.getProperty("samples.dir", "../sample-recordings"), "checkout-before.jfr");
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path data;

    HttpResponse<String> post(ServerProcess server, String query, byte[] body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(server.base + "/api/recordings" + query))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    String get(ServerProcess server, String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(server.base + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), path + ": " + r.body());
        return r.body();
    }

    @Test
    void aKillBetweenAPartsProfileAndItsMetadataLeavesTheRunAsBeforeThatPart() throws Exception {
        List<byte[]> chunks = JfrChunks.split(CHECKOUT);
        String id = Runs.id("crash-run");
        String collapsedBefore;
        try (ServerProcess server = new ServerProcess(data, List.of("-Xmx512m", "-Dworkbench.crashpoint.pause=part@2"), "--no-samples")) {
            assertEquals(201, post(server, "?run=crash-run&chunk=0", chunks.get(1)).statusCode());
            collapsedBefore = get(server, "/api/recordings/" + id + "/collapsed?kind=cpu");
            CompletableFuture<HttpResponse<String>> held = CompletableFuture.supplyAsync(() -> {
                try {
                    return post(server, "?run=crash-run&chunk=1", chunks.get(3));
                } catch (Exception e) {
                    return null; // the connection dies with the server
                }
            });
            server.awaitOutput("reached part", ServerProcess.STUCK_SECONDS * 1000);
            assertTrue(storedParts(id).contains("part-0000001.jfr"), "the part is stored before the kill: " + storedParts(id));
            server.kill();
            HttpResponse<String> reply = held.join();
            assertTrue(reply == null, "the part held at the crash point was answered: " + (reply == null ? "" : reply.statusCode()));
        }
        try (ServerProcess server = new ServerProcess(data, List.of("-Xmx512m"), "--no-samples")) {
            JsonNode run = JSON.readTree(get(server, "/api/recordings/" + id));
            assertEquals(1, run.get("parts").asInt(), run.toString());
            assertEquals(collapsedBefore, get(server, "/api/recordings/" + id + "/collapsed?kind=cpu"),
                    "the profile is the counted parts' again");
            assertFalse(storedParts(id).contains("part-0000001.jfr"), "the uncounted part is removed: " + storedParts(id));
            assertEquals(1, JSON.readTree(get(server, "/api/recordings")).get("total").asLong());

            HttpResponse<String> again = post(server, "?run=crash-run&chunk=1", chunks.get(3));
            assertEquals(200, again.statusCode(), again.body());
            assertEquals(2, JSON.readTree(again.body()).get("parts").asInt());
        }
    }

    private List<String> storedParts(String id) throws Exception {
        try (Stream<Path> s = Files.list(data.resolve("recordings").resolve(id))) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("part-")).sorted().toList();
        }
    }

    @Test
    void aKillAfterAPartsMetadataBeforeItsIndexEntryIsIndexedOnStart() throws Exception {
        List<byte[]> chunks = JfrChunks.split(CHECKOUT);
        String id = Runs.id("index-run");
        try (ServerProcess server = new ServerProcess(data, List.of("-Xmx512m"), "--no-samples")) {
            assertEquals(201, post(server, "?run=index-run&chunk=0", chunks.get(1)).statusCode());
            server.kill();
        }
        // this start indexes part 0 (if the kill came before the index commit) and commits it; part 1 then stops
        // after its metadata, before its index entry
        try (ServerProcess server = new ServerProcess(data, List.of("-Xmx512m", "-Dworkbench.crashpoint.pause=run-commit"), "--no-samples")) {
            CompletableFuture<HttpResponse<String>> held = CompletableFuture.supplyAsync(() -> {
                try {
                    return post(server, "?run=index-run&chunk=1", chunks.get(3));
                } catch (Exception e) {
                    return null;
                }
            });
            server.awaitOutput("reached run-commit", ServerProcess.STUCK_SECONDS * 1000);
            server.kill();
            held.join();
        }
        try (ServerProcess server = new ServerProcess(data, List.of("-Xmx512m"), "--no-samples")) {
            JsonNode run = JSON.readTree(get(server, "/api/recordings/" + id));
            assertEquals(2, run.get("parts").asInt(), "the metadata was committed: the part is the run's");
            JsonNode listed = JSON.readTree(get(server, "/api/recordings")).get("recordings").get(0);
            assertEquals(run.get("updatedMillis"), listed.get("updatedMillis"), "the list shows the run as committed");
            assertEquals(2, listed.get("parts").asInt());
            assertEquals(run.get("kinds"), listed.get("kinds"));

            // the kill came before the run's state after part 1 was kept: the next part reads the run's parts again
            HttpResponse<String> next = post(server, "?run=index-run&chunk=2", chunks.get(0));
            assertEquals(200, next.statusCode(), next.body());
            String steps = next.headers().firstValue("Server-Timing").orElse("");
            assertTrue(steps.contains("stale;") && steps.contains("check;") && !steps.contains("resume;"), steps);
            java.io.ByteArrayOutputStream file = new java.io.ByteArrayOutputStream();
            for (int c : new int[] {1, 3, 0}) {
                file.writeBytes(chunks.get(c));
            }
            String whole = JSON.readTree(post(server, "?name=whole", file.toByteArray()).body()).get("id").asText();
            assertEquals(get(server, "/api/recordings/" + whole + "/collapsed?kind=cpu"),
                    get(server, "/api/recordings/" + id + "/collapsed?kind=cpu"));
            // ... and keeps a state that fits again
            HttpResponse<String> after = post(server, "?run=index-run&chunk=3", chunks.get(2));
            assertEquals(200, after.statusCode(), after.body());
            assertTrue(after.headers().firstValue("Server-Timing").orElse("").contains("resume;"), after.headers().map().toString());
        }
    }
}
