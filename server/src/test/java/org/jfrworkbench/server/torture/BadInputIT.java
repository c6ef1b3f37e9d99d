package org.jfrworkbench.server.torture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import org.jfrworkbench.testkit.process.ServerProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Streams generated bad uploads (3,000 by default, 100,000 in the long form) at a real server process with a
 * bounded heap while good uploads and queries go on beside them. Every case must be answered 4xx with a message
 * (or, for a mutation that is still a valid recording, 200/201 with a sane model); the server must not run out of
 * heap; the good traffic must see only right answers; the sample recordings stored before must be intact. The
 * slowest answers are printed, not asserted: a loaded machine stretches them (a hang still fails, at the client's
 * timeout). That refusing a bomb costs little is checked by the bytes it may expand to (the importer's
 * CompressionLimitsTest), which no load changes.
 */
class BadInputIT {
    static final int CLIENTS = 3;

    @TempDir
    Path temp;

    /** Per family: how many cases ended how, and the slowest answer. */
    private final Map<String, long[]> outcomes = new TreeMap<>();
    private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();

    private synchronized void count(String family, int column, long nanos) {
        long[] row = outcomes.computeIfAbsent(family.split(" ")[0], k -> new long[5]);
        row[column]++;
        if (column < 2) {
            row[3 + column] = Math.max(row[3 + column], nanos);
        }
    }

    @Test
    void everyBadUploadGets4xxWhileGoodTrafficIsUnaffected() throws Exception {
        long seed = Torture.seed();
        // 3,000 hold every family, each of the six bombs (one every 500 cases), the sample recordings' truncations and
        // flips 7 or 8 times each, every kind of lie about 110 times (the tolerated ones that make valid recordings 9
        // to 15 times) and every collapsed variant several times; 5,000 took 60-70 s of the suite's 15 minutes on two
        // busy cores, most of it importing and committing the mutations that are still recordings. The long form
        // (Torture.LONG) runs 100,000.
        int cases = Integer.getInteger("torture.cases", Torture.LONG ? 100_000 : 3_000);
        System.out.printf("bad input: seed %d, %d cases (replay one with -Dtorture.seed=%d -Dtorture.only=N)%n", seed, cases, seed);
        List<Path> samples = Torture.sampleRecordings();
        BadInputs inputs = new BadInputs(seed, samples);
        for (double ratio : inputs.bombRatios) {
            assertTrue(ratio > 1000, "every bomb expands more than 1000:1, got " + ratio);
        }
        // the bombs are assembled from a repeated segment (BadInputs.gzipFilled): the JDK's decoder must read them whole
        assertEquals(96L << 20, BadInputs.gunzippedSize(inputs.bombs[0]));
        assertEquals(96L << 20, BadInputs.gunzippedSize(inputs.bombs[4]));
        Path gcLog = temp.resolve("gc.log");
        Path data = temp.resolve("data");
        long started = System.nanoTime();
        GoodTraffic good;
        try (ServerProcess server = new ServerProcess(data, Torture.boundedHeap(gcLog), "--max-upload", "16m")) {
            Http http = new Http(server.base);
            JsonNode before = http.get("/api/recordings?limit=100").json();
            assertEquals(samples.size(), before.get("total").asInt(), "the sample recordings were loaded");

            good = new GoodTraffic(http);
            // paced: about one upload a second and a few dozen queries, enough to notice any interference
            Thread goodThread = new Thread(() -> good.run(seed, 3, 20), "good-traffic");
            goodThread.start();
            String only = System.getProperty("torture.only");
            AtomicInteger next = new AtomicInteger(only == null || only.isBlank() ? 0 : Integer.parseInt(only.trim()));
            int end = only == null || only.isBlank() ? cases : next.get() + 1;
            List<Thread> clients = new ArrayList<>();
            for (int t = 0; t < CLIENTS; t++) {
                Thread client = new Thread(() -> {
                    for (int i = next.getAndIncrement(); i < end; i = next.getAndIncrement()) {
                        send(http, inputs.get(i));
                    }
                }, "bad-client-" + t);
                client.start();
                clients.add(client);
            }
            for (Thread client : clients) {
                client.join();
            }
            good.stop();
            goodThread.join();
            double seconds = (System.nanoTime() - started) / 1e9;

            failures.stream().limit(30).forEach(f -> System.out.println("FAILED " + f));
            if (failures.stream().anyMatch(f -> f.contains("IOException"))) {
                // a connection closed without an answer: what the server said about it is the only trace
                String log = server.log.toString();
                System.out.println("server log's end:\n" + log.substring(Math.max(0, log.length() - 8000)));
            }
            assertTrue(server.process.isAlive(), "server survived:\n" + server.log);
            for (JsonNode r : before.get("recordings")) {
                String id = r.get("id").asText();
                Path file = samples.stream().filter(p -> p.getFileName().toString().equals(r.get("name").asText())).findFirst()
                        .orElseThrow();
                assertTrue(java.util.Arrays.equals(Files.readAllBytes(file), http.get("/api/recordings/" + id + "/original").bytes()),
                        "sample " + id + " still has its original bytes");
                assertEquals(200, http.get("/api/recordings/" + id + "/flame?kind=cpu").status());
            }
            JsonNode after = http.get("/api/recordings?limit=10000").json();
            assertEquals(samples.size() + good.uploads(), after.get("total").asInt(),
                    "listed: the samples and the good uploads, no bad case left behind");
            long live = Torture.liveHeapAfterFullGc(server.process, gcLog);
            Torture.HeapPeaks heap = Torture.HeapPeaks.read(gcLog);
            System.out.printf("%n== bad input: %d cases in %.0f s, seed %d, %d client threads + 1 good-traffic thread%n",
                    end - (only == null || only.isBlank() ? 0 : end - 1), seconds, seed, CLIENTS);
            System.out.printf("  %-20s %8s %8s %8s %14s %14s%n", "family", "4xx", "2xx ok", "failed", "slowest 4xx ms",
                    "slowest 2xx ms");
            long[] sum = new long[5];
            synchronized (this) {
                outcomes.forEach((family, row) -> {
                    System.out.printf("  %-20s %8d %8d %8d %14.0f %14.0f%n", family, row[0], row[1], row[2], row[3] / 1e6, row[4] / 1e6);
                    for (int i = 0; i < 5; i++) {
                        sum[i] = i < 3 ? sum[i] + row[i] : Math.max(sum[i], row[i]);
                    }
                });
            }
            System.out.printf("  %-20s %8d %8d %8d %14.0f %14.0f%n", "all", sum[0], sum[1], sum[2], sum[3] / 1e6, sum[4] / 1e6);
            System.out.printf("  server heap: -Xmx%dm, peak used before GC %d MB, live after a full GC at the end %d MB"
                    + " (%d collections), no OOM%n", Torture.HEAP_MB, heap.maxBeforeGc(), live, heap.collections());
            System.out.printf("  good traffic alongside: %d requests, %d errors%n%s", good.stats.total(), good.errors.size(),
                    good.stats.table(seconds));
            assertTrue(heap.collections() > 0, "the GC log was read");
            assertTrue(live < Torture.HEAP_MB * 3 / 4, "live heap " + live + " MB stays below 3/4 of -Xmx");
        }
        assertEquals(List.of(), new ArrayList<>(failures), "failed cases (seed " + seed + ")");
        assertEquals(List.of(), new ArrayList<>(good.errors), "good traffic beside the bad cases");
        assertTrue(good.stats.count("upload") > 0 && good.stats.count("flame") > 0 && good.stats.count("search") > 0);
    }

    private void send(Http http, BadInputs.Case c) {
        try {
            Http.Reply reply = c.fileName() != null ? http.postMultipart(c.fileName(), c.body())
                    : http.post("/api/recordings" + (c.query().isEmpty() ? "?name=case-" + c.index() : c.query()), c.body());
            int status = reply.status();
            String problem = null;
            if (status >= 400 && status < 500) {
                if (reply.error() == null) {
                    problem = "4xx without an error message";
                } else if (c.expectedSamples() >= 0) {
                    problem = "a valid recording was rejected";
                }
            } else if (status == 200 || status == 201) {
                String check = checkAccepted(http, c, reply); // also deletes it again
                problem = c.family().startsWith("bomb") || c.family().equals("request") ? "accepted" : check;
            } else {
                problem = "status " + status;
            }
            if (problem != null) {
                count(c.family(), 2, reply.nanos());
                failures.add(c + ": " + problem + " -> " + status + " " + GoodTraffic.clip(reply.body()));
            } else {
                count(c.family(), status < 300 ? 1 : 0, reply.nanos());
            }
        } catch (Exception e) {
            count(c.family(), 2, 0);
            failures.add(c + ": " + e);
        }
    }

    /** A mutation that is still a recording: its model must be sane, its flame graph must render, then it goes. */
    private static String checkAccepted(Http http, BadInputs.Case c, Http.Reply reply) throws Exception {
        JsonNode info = reply.json();
        String id = info.path("id").asText();
        JsonNode kinds = info.get("kinds");
        if (id.isEmpty() || kinds == null) {
            return "answer without id or kinds";
        }
        for (var it = kinds.fields(); it.hasNext(); ) {
            var kind = it.next();
            if (kind.getValue().path("samples").asLong(-1) < 0 || kind.getValue().path("weight").asLong(-1) < 0) {
                return "kind " + kind.getKey() + " has a negative total";
            }
            if (reply.status() == 200) {
                continue; // the same bytes from another client: that client renders and deletes them
            }
            Http.Reply flame = http.get("/api/recordings/" + id + "/flame?kind=" + kind.getKey());
            if (flame.status() != 200 || flame.json().path("total").asLong(-1) < 0) {
                return "flame of kind " + kind.getKey() + " -> " + flame.status() + " " + GoodTraffic.clip(flame.body());
            }
        }
        if (c.expectedSamples() >= 0 && kinds.path("cpu").path("samples").asLong() != c.expectedSamples()) {
            return "expected " + c.expectedSamples() + " cpu samples";
        }
        if (reply.status() == 200) {
            return null;
        }
        int deleted = http.delete("/api/recordings/" + id).status();
        return deleted == 204 || deleted == 404 ? null : "delete -> " + deleted;
    }
}
