package org.jfrworkbench.server.torture;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Well-formed work that must keep succeeding while the server is under attack or load: uploads of fresh recordings
 * with known totals, flame graphs that must show exactly those totals, method searches that must find the one
 * recording holding a unique method, and diffs. Every wrong answer is recorded as an error.
 */
final class GoodTraffic {
    private static final AtomicInteger NEXT = new AtomicInteger();
    final Stats stats = new Stats();
    final ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
    private final Http http;
    /** (id, unique method, total weight) of each recording this traffic uploaded. */
    private final List<Object[]> uploaded = new ArrayList<>();
    private volatile boolean stop;

    GoodTraffic(Http http) {
        this.http = http;
    }

    /** A collapsed recording with a method no other upload has, and a known total weight. */
    static Object[] recording(int n, Random r) {
        return recording(n, r, 200 + r.nextInt(800));
    }

    static Object[] recording(int n, Random r, int lines) {
        String unique = "com.good.Upload" + n + ".work";
        StringBuilder sb = new StringBuilder();
        long total = 0;
        for (int i = 0; i < lines; i++) {
            int w = 1 + r.nextInt(5);
            total += w;
            sb.append("java.lang.Thread.run;").append(unique).append(";com.good.Leaf").append(r.nextInt(300))
                    .append(".spin ").append(w).append('\n');
        }
        return new Object[] {sb.toString().getBytes(StandardCharsets.UTF_8), unique, total};
    }

    void stop() {
        stop = true;
    }

    boolean stopped() {
        return stop;
    }

    /**
     * Loops until stop(): uploads and queries (flame, search, diff) on random earlier uploads; uploadsPerHundred
     * sets the mix, pauseMillis the pace between operations (0: as fast as answers come).
     */
    void run(long seed, int uploadsPerHundred, long pauseMillis) {
        Random r = new Random(seed);
        while (!stop) {
            if (pauseMillis > 0) {
                try {
                    Thread.sleep(pauseMillis);
                } catch (InterruptedException e) {
                    return;
                }
            }
            try {
                Object[] u;
                Object[] v;
                synchronized (uploaded) {
                    u = uploaded.size() < 2 || r.nextInt(100) < uploadsPerHundred ? null : uploaded.get(r.nextInt(uploaded.size()));
                    v = u == null ? null : uploaded.get(r.nextInt(uploaded.size()));
                }
                if (u == null) {
                    upload(r);
                } else {
                    switch (r.nextInt(3)) {
                        case 0 -> flame(u);
                        case 1 -> search(u);
                        default -> diff(u, v);
                    }
                }
            } catch (Exception e) {
                errors.add(e.toString());
            }
        }
    }

    private void upload(Random r) throws Exception {
        int n = NEXT.incrementAndGet();
        Object[] rec = recording(n, r);
        Http.Reply reply = http.post("/api/recordings?name=good-" + n + "&labels=traffic=good", (byte[]) rec[0]);
        stats.add("upload", reply.nanos());
        if (reply.status() != 201) {
            errors.add("good upload " + n + " -> " + reply.status() + " " + reply.body());
            return;
        }
        synchronized (uploaded) {
            uploaded.add(new Object[] {reply.json().get("id").asText(), rec[1], rec[2]});
        }
    }

    private void flame(Object[] u) throws Exception {
        Http.Reply reply = http.get("/api/recordings/" + u[0] + "/flame?kind=cpu");
        stats.add("flame", reply.nanos());
        if (reply.status() != 200 || reply.json().get("total").asLong() != (Long) u[2]) {
            errors.add("flame of " + u[0] + " -> " + reply.status() + ", expected total " + u[2] + ": " + clip(reply.body()));
        }
    }

    private void search(Object[] u) throws Exception {
        Http.Reply reply = http.get("/api/search?q=" + ((String) u[1]).replace("com.good.", ""));
        stats.add("search", reply.nanos());
        JsonNode hits = reply.status() == 200 ? reply.json().get("hits") : null;
        if (hits == null || hits.size() != 1 || !hits.get(0).get("recording").get("id").asText().equals(u[0])) {
            errors.add("search for " + u[1] + " -> " + reply.status() + ": " + clip(reply.body()));
        }
    }

    private void diff(Object[] a, Object[] b) throws Exception {
        Http.Reply reply = http.get("/api/diff?base=" + a[0] + "&target=" + b[0] + "&kind=cpu");
        stats.add("diff", reply.nanos());
        if (reply.status() != 200) {
            errors.add("diff " + a[0] + " vs " + b[0] + " -> " + reply.status() + ": " + clip(reply.body()));
        }
    }

    int uploads() {
        synchronized (uploaded) {
            return uploaded.size();
        }
    }

    static String clip(String s) {
        return s.length() > 300 ? s.substring(0, 300) + "..." : s;
    }
}
