package org.jfrworkbench.server.torture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import org.jfrworkbench.testkit.process.ServerProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Concurrent uploads plus flame graph, diff and search queries against one server process (bounded heap): by default
 * until every request type has been answered a set number of times ({@link #UPLOADS} uploads, {@link #QUERIES} of each
 * query), so a slow machine runs longer instead of checking less; for 5 minutes in the long form
 * ({@code -Dtorture.loadSeconds=N} sets a time). Every answer is checked (flame totals, search hits, diff status); the
 * summary prints throughput and p50/p99 per request type.
 */
class LoadIT {
    static final int UPLOADERS = 1;
    static final int QUERIERS = 2;
    static final int UPLOADS = 50;
    /**
     * Per query type. The two query threads answer about 10-12 of each a second on a quiet 2-core machine, so this is
     * most of the run (600 took 52-58 s in clean runs, 1,000 took 75 s, of the suite's 15-minute budget). The long
     * form runs for minutes.
     */
    static final int QUERIES = 400;
    private static final List<String> TYPES = List.of("upload", "flame", "search", "diff", "sample-flame", "sample-diff");

    @TempDir
    Path temp;

    @Test
    void concurrentUploadsAndQueriesRunWithoutErrorsForMinutes() throws Exception {
        long seed = Torture.seed();
        Integer seconds = Integer.getInteger("torture.loadSeconds", Torture.LONG ? 300 : null);
        Path gcLog = temp.resolve("gc.log");
        try (ServerProcess server = new ServerProcess(temp.resolve("data"), Torture.boundedHeap(gcLog))) {
            Http http = new Http(server.base);
            List<String[]> samples = new ArrayList<>(); // id, cpu weight
            for (JsonNode r : http.get("/api/recordings").json().get("recordings")) {
                samples.add(new String[] {r.get("id").asText(), r.get("kinds").get("cpu").get("weight").asText()});
            }
            assertEquals(3, samples.size(), "the sample recordings are loaded");
            GoodTraffic traffic = new GoodTraffic(http);
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < UPLOADERS + QUERIERS; t++) {
                int mix = t < UPLOADERS ? 100 : 0;
                long threadSeed = seed + t;
                threads.add(new Thread(() -> traffic.run(threadSeed, mix, 0), "load-" + t));
            }
            // the real recordings are the heavy queries: ~100k-sample flame graphs and their diff
            threads.add(new Thread(() -> sampleQueries(http, traffic, samples, seed), "load-samples"));
            long started = System.nanoTime();
            threads.forEach(Thread::start);
            // an error or a dead server ends the run early: the checks below then say what went wrong
            while (!done(seconds, started, traffic.stats) && traffic.errors.isEmpty() && server.process.isAlive()) {
                Thread.sleep(50);
            }
            traffic.stop();
            for (Thread t : threads) {
                t.join(60_000);
            }
            double elapsed = (System.nanoTime() - started) / 1e9;
            assertTrue(server.process.isAlive(), "server survived:\n" + server.log);
            long live = Torture.liveHeapAfterFullGc(server.process, gcLog);
            Torture.HeapPeaks heap = Torture.HeapPeaks.read(gcLog);
            System.out.printf("%n== load: %.0f s, %d uploader + %d query threads + 1 on the sample recordings, seed %d%n", elapsed,
                    UPLOADERS, QUERIERS, seed);
            System.out.printf("  %d requests, %.1f per second, %d errors%n%s", traffic.stats.total(), traffic.stats.total() / elapsed,
                    traffic.errors.size(), traffic.stats.table(elapsed));
            System.out.printf("  server heap: -Xmx%dm, peak used before GC %d MB, live after a full GC at the end %d MB"
                    + " (%d collections), no OOM%n", Torture.HEAP_MB, heap.maxBeforeGc(), live, heap.collections());
            assertEquals(List.of(), new ArrayList<>(traffic.errors));
            assertTrue(live < Torture.HEAP_MB * 3 / 4, "live heap " + live + " MB stays below 3/4 of -Xmx");
            for (String type : TYPES) {
                assertTrue(traffic.stats.count(type) > 0, type + " requests ran");
            }
            assertTrue(seconds != null || enough(traffic.stats), "every request type answered often enough: " + traffic.stats.table(elapsed));
            assertEquals(3 + traffic.uploads(), http.get("/api/recordings?limit=1").json().get("total").asInt());
        }
    }

    /** Given a time, whether it is up; otherwise whether every type was answered often enough (or the run is stuck). */
    private static boolean done(Integer seconds, long started, Stats stats) {
        long elapsed = System.nanoTime() - started;
        return seconds != null ? elapsed >= TimeUnit.SECONDS.toNanos(seconds)
                : enough(stats) || elapsed >= TimeUnit.SECONDS.toNanos(ServerProcess.STUCK_SECONDS);
    }

    private static boolean enough(Stats stats) {
        return TYPES.stream().allMatch(t -> stats.count(t) >= (t.equals("upload") ? UPLOADS : QUERIES));
    }

    private static void sampleQueries(Http http, GoodTraffic traffic, List<String[]> samples, long seed) {
        Random r = new Random(seed);
        while (!traffic.stopped()) {
            try {
                String[] s = samples.get(r.nextInt(samples.size()));
                if (r.nextBoolean()) {
                    Http.Reply flame = http.get("/api/recordings/" + s[0] + "/flame?kind=cpu");
                    traffic.stats.add("sample-flame", flame.nanos());
                    if (flame.status() != 200 || flame.json().get("total").asLong() != Long.parseLong(s[1])) {
                        traffic.errors.add("flame of sample " + s[0] + " -> " + flame.status() + ", expected total " + s[1]);
                    }
                } else {
                    String[] t = samples.get(r.nextInt(samples.size()));
                    Http.Reply diff = http.get("/api/diff?base=" + s[0] + "&target=" + t[0] + "&kind=cpu");
                    traffic.stats.add("sample-diff", diff.nanos());
                    if (diff.status() != 200) {
                        traffic.errors.add("diff of samples -> " + diff.status() + " " + GoodTraffic.clip(diff.body()));
                    }
                }
            } catch (Exception e) {
                traffic.errors.add(e.toString());
            }
        }
    }
}
