package org.jfrworkbench.server.torture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

import com.fasterxml.jackson.databind.JsonNode;
import org.jfrworkbench.testkit.process.ServerProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILLs the server exactly in the middle of an upload (body half received), of an import (profile written,
 * meta not yet) and of the indexing that follows an answered upload (index entry added, not visible or committed), many times
 * over one data dir. The server holds still at that point through its test-only crash-point property, so every
 * kill lands where it is meant to. After every restart each acknowledged recording must be listed with its exact
 * bytes, its flame total and a search hit, and nothing that was not fully imported may be listed.
 */
class CrashPointsIT {
    static final List<String> POINTS = List.of("upload", "import", "commit");

    @TempDir
    Path data;

    /** id -> (body, unique method, total weight) of every upload tried, answered or not. */
    private final Map<String, Object[]> attempted = new ConcurrentHashMap<>();
    private final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    /** id -> the point its upload was held at when the server was killed. */
    private final Map<String, String> victims = new TreeMap<>();
    private int checks;
    private Set<String> lastListed = Set.of();

    @Test
    void killsDuringUploadImportAndCommitKeepEveryAcknowledgedRecordingAndShowNothingHalfDone() throws Exception {
        long seed = Torture.seed();
        int rounds = Integer.getInteger("torture.crashRounds", Torture.LONG ? 20 : 4);
        System.out.printf("crash points: seed %d, %d rounds x %s%n", seed, rounds, POINTS);
        Random random = new Random(seed);
        Map<String, Integer> kills = new TreeMap<>();
        int n = 0;
        long started = System.nanoTime();
        for (int round = 0; round < rounds; round++) {
            for (String point : POINTS) {
                int before = 1 + random.nextInt(2);
                List<String> jvm = List.of("-Xmx256m", "-Dworkbench.crashpoint.pause=" + point + "@" + (before + 1));
                try (ServerProcess server = new ServerProcess(data, jvm, "--no-samples")) {
                    Http http = new Http(server.base);
                    verify(http);
                    for (int i = 0; i < before; i++) {
                        Object[] rec = attempt(++n, random);
                        Http.Reply reply = http.post("/api/recordings?name=crash-" + n, (byte[]) rec[0]);
                        assertEquals(201, reply.status(), reply.body());
                        acknowledged.add(reply.json().get("id").asText());
                    }
                    // the list waits for the entries of the uploads before: the indexer is idle, so the victim's
                    // entry is made on its thread, after its answer (an upload makes its own when one waits already)
                    assertEquals(200, http.get("/api/recordings").status());
                    Object[] victim = attempt(++n, random);
                    victims.put(idOf((byte[]) victim[0]), point);
                    int victimNumber = n;
                    AtomicReference<Object> outcome = new AtomicReference<>();
                    Thread upload = new Thread(() -> {
                        try {
                            outcome.set(http.post("/api/recordings?name=crash-" + victimNumber, (byte[]) victim[0]));
                        } catch (IOException | InterruptedException e) {
                            outcome.set(e); // the server was killed while it held this request
                        }
                    });
                    upload.start();
                    server.awaitOutput("reached " + point, ServerProcess.STUCK_SECONDS * 1000);
                    if (point.equals("commit")) {
                        // an upload is answered once stored; its index entry is made after: the kill comes while that
                        // entry is added, not yet visible or committed, to a recording the uploader was told is there
                        upload.join(ServerProcess.STUCK_SECONDS * 1000L);
                        assertTrue(outcome.get() instanceof Http.Reply, "the upload before its indexing was answered: " + outcome.get());
                        Http.Reply reply = (Http.Reply) outcome.get();
                        assertEquals(201, reply.status(), reply.body());
                        acknowledged.add(idOf((byte[]) victim[0]));
                    }
                    server.kill();
                    upload.join(30_000);
                    if (!point.equals("commit")) {
                        assertTrue(outcome.get() instanceof Exception, "the upload held at " + point + " was answered");
                    }
                    kills.merge(point, 1, Integer::sum);
                }
            }
        }
        int listed;
        try (ServerProcess server = new ServerProcess(data, List.of("-Xmx256m"), "--no-samples")) {
            listed = verify(new Http(server.base));
        }
        System.out.printf("%n== crash points: %d kills in %.0f s (%s), %d uploads tried, %d acknowledged, %d listed after the last"
                + " restart (%d completed before their kill), %d restarts verified, 0 lost%n",
                kills.values().stream().mapToInt(Integer::intValue).sum(), (System.nanoTime() - started) / 1e9, kills, n,
                acknowledged.size(), listed, listed - acknowledged.size(), checks);
        assertEquals(rounds, kills.get("commit"));
        // a directory renamed into place is complete, so the restart indexes it; anything earlier never shows
        victims.forEach((id, point) -> assertEquals(point.equals("commit"), lastListed.contains(id), point + " victim " + id));
    }

    private static String idOf(byte[] body) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body)).substring(0, 16);
    }

    private Object[] attempt(int n, Random random) throws Exception {
        // 3,000 lines (about 200 kB): more than the 64 kB after which the upload crash point holds the body
        Object[] rec = GoodTraffic.recording(n, random, 3000);
        attempted.put(idOf((byte[]) rec[0]), rec);
        return rec;
    }

    /** Everything acknowledged is there and whole; everything listed was uploaded and is whole; staging is empty. */
    private int verify(Http http) throws Exception {
        checks++;
        JsonNode list = http.get("/api/recordings?limit=10000").json();
        Set<String> listed = new HashSet<>();
        for (JsonNode r : list.get("recordings")) {
            listed.add(r.get("id").asText());
        }
        assertEquals(list.get("total").asInt(), listed.size());
        assertTrue(listed.containsAll(acknowledged), "acknowledged " + acknowledged + " but listed " + listed);
        for (String id : listed) {
            Object[] rec = attempted.get(id);
            assertTrue(rec != null, "listed recording " + id + " was never uploaded");
            assertArrayEquals((byte[]) rec[0], http.get("/api/recordings/" + id + "/original").bytes(), "bytes of " + id);
            assertEquals((Long) rec[2], http.get("/api/recordings/" + id + "/flame").json().get("total").asLong(), "total of " + id);
            JsonNode hits = http.get("/api/search?q=" + ((String) rec[1]).replace("com.good.", "")).json();
            assertEquals(1, hits.get("total").asInt(), "search finds " + id + " once: " + hits);
            assertEquals(id, hits.get("hits").get(0).get("recording").get("id").asText());
        }
        try (var tmp = Files.list(data.resolve("tmp"))) {
            assertEquals(0, tmp.count(), "the staging area was cleared on start");
        }
        lastListed = listed;
        return listed.size();
    }
}
