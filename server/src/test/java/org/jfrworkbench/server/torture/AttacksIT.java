package org.jfrworkbench.server.torture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import com.fasterxml.jackson.databind.JsonNode;
import org.jfrworkbench.testkit.jfr.JfrWriter;
import org.jfrworkbench.testkit.jfr.JfrWriter.Field;
import org.jfrworkbench.testkit.process.ServerProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The attacks of a shared server's threat review, one regression test each, against a server process with a small
 * heap that exits on the first OutOfMemoryError: every attack must end in a 4xx with a message or a 503 with
 * Retry-After, the server must keep answering everyone else, and nothing it stores may be lost or half-written.
 * {@link #goodTrafficHoldsWhileAttacksRun} measures the good traffic with and without the attacks side by side.
 */
class AttacksIT {
    /** The server's silence limit here: short, so that the stalled-body case ends in seconds. */
    static final int IDLE_SECONDS = 3;
    /** Per-client connections: the attackers use other loopback addresses than the good clients. */
    static final int PER_CLIENT = 64;
    /** For requests that may wait their turn at the server (10 s at most) and then build for seconds. */
    static final java.time.Duration PATIENT = java.time.Duration.ofSeconds(120);

    @TempDir
    static Path root;
    static ServerProcess server;
    static Http http;
    static Path gcLog;
    static String smallId;
    /** A recording with 40,000 distinct stacks: its views take seconds and tens of MB. */
    static String bigId;

    @BeforeAll
    static void start() throws Exception {
        gcLog = root.resolve("gc.log");
        server = new ServerProcess(root.resolve("data"), Torture.boundedHeap(gcLog), "--no-samples", "--idle-timeout",
                Integer.toString(IDLE_SECONDS), "--max-connections-per-client", Integer.toString(PER_CLIENT),
                "--max-upload", "64m");
        http = new Http(server.base);
        smallId = created(http.post("/api/recordings?name=small",
                "java.lang.Thread.run;com.acme.Service.handle;java.util.HashMap.resize 5\n".getBytes(StandardCharsets.UTF_8)));
        bigId = created(http.post("/api/recordings?name=big", manyStacks(40_000, 12, 1)));
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            assertTrue(server.process.isAlive(), "the server survived every attack (no OutOfMemoryError):\n" + tail());
            server.close();
        }
    }

    static String created(Http.Reply reply) {
        assertEquals(201, reply.status(), reply.body());
        return reply.json().get("id").asText();
    }

    static String tail() {
        String log = server.log.toString();
        return log.length() > 4000 ? log.substring(log.length() - 4000) : log;
    }

    /** Collapsed text of n random distinct stacks of the given depth over a name space of 400,000 methods. */
    static byte[] manyStacks(int n, int depth, long seed) {
        Random r = new Random(seed);
        StringBuilder sb = new StringBuilder(n * depth * 32);
        for (int i = 0; i < n; i++) {
            for (int d = 0; d < depth; d++) {
                sb.append(d == 0 ? "" : ";").append("com.acme.p").append(r.nextInt(50)).append(".C").append(r.nextInt(200))
                        .append(".m").append(r.nextInt(40));
            }
            sb.append(' ').append(1 + r.nextInt(9)).append('\n');
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    static String q(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** A 4xx with an {"error": ...} message. */
    static void assertRefused(int status, Http.Reply reply, String containing) {
        assertEquals(status, reply.status(), reply.body());
        assertTrue(reply.error() != null && reply.error().contains(containing), reply.body());
    }

    /** 2xx, or 503 with Retry-After and a message: never a 500, never a dropped connection. */
    static void assertAnsweredOrBusy(HttpResponse<byte[]> r) {
        String body = new String(r.body(), StandardCharsets.UTF_8);
        if (r.statusCode() == 503) {
            assertTrue(r.headers().firstValue("Retry-After").isPresent(), body);
            assertTrue(body.contains("busy") || body.contains("already"), body);
        } else {
            assertTrue(r.statusCode() == 200 || r.statusCode() == 201, r.statusCode() + " " + body);
        }
    }

    // 1: catastrophic regular expressions, in the flame search and for a client that leaves
    @Test
    void backtrackingSearchPatternsRunInLinearTimeAndAClientThatLeavesStopsItsWork() throws Exception {
        for (String evil : List.of("((?:[\\w.$]+)+)+!", "(.*.*.*.*.*.*)!", "(x+x+)+y")) {
            Http.Reply r = http.get("/api/recordings/" + smallId + "/flame?search=" + q(evil));
            assertEquals(200, r.status(), evil + ": " + r.body());
            assertEquals(0, r.json().get("search").get("matched").asLong(), evil);
        }
        assertRefused(400, http.get("/api/recordings/" + smallId + "/flame?search=" + q("((a{1000}){1000}){1000}")), "repeats");
        assertRefused(400, http.get("/api/recordings/" + smallId + "/flame?search=" + q("(a)\\1")), "regular expression");
        // 60 of them at once on the big recording, each uncached: the list still answers
        ExecutorService pool = Executors.newFixedThreadPool(12);
        try {
            List<Future<Integer>> evil = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                String search = "((?:[\\w.$]+)+)+" + i + "!";
                evil.add(pool.submit(() -> http.get("/api/recordings/" + smallId + "/flame?search=" + q(search)).status()));
            }
            assertEquals(200, http.get("/api/recordings").status());
            for (Future<Integer> f : evil) {
                assertEquals(200, f.get());
            }
        } finally {
            pool.shutdownNow();
        }
        // clients that hang up as soon as they have asked: their work is dropped, not run to the end (large views run
        // one or two at a time here, and a view that waited for its turn finds its client gone when its turn comes)
        int before = count(server.log, "cancelled: its client is gone");
        URI uri = URI.create(server.base);
        List<Socket> quitters = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            Socket s = new Socket(uri.getHost(), uri.getPort());
            s.getOutputStream().write(("GET /api/recordings/" + bigId + "/flame?search=quit" + i + " HTTP/1.1\r\nHost: localhost\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            quitters.add(s);
        }
        for (Socket s : quitters) {
            s.close();
        }
        // only a stuck server takes this long
        long deadline = System.currentTimeMillis() + 120_000;
        while (count(server.log, "cancelled: its client is gone") - before < 4 && System.currentTimeMillis() < deadline) {
            Thread.sleep(50);
        }
        int cancelled = count(server.log, "cancelled: its client is gone") - before;
        assertTrue(cancelled >= 4, cancelled + " of 6 abandoned views were cancelled:\n" + tail());
        System.out.printf("== regex: backtracking patterns answered by RE2/J, 60 at once beside a list; %d of 6 abandoned"
                + " views cancelled%n", cancelled);
    }

    static int count(StringBuffer log, String text) {
        synchronized (log) {
            int n = 0;
            for (int i = log.indexOf(text); i >= 0; i = log.indexOf(text, i + 1)) {
                n++;
            }
            return n;
        }
    }

    // 2: a gzip of short collapsed lines, 300 MB expanded at about 600:1 (below the ratio limit)
    @Test
    void gzipOfShortLinesIsRefusedByTheSampleBudgetNotAnOutOfMemoryError() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Random r = new Random(2);
        long expanded = 0;
        try (GZIPOutputStream gz = new GZIPOutputStream(out, 1 << 16)) {
            byte[] line = "a;b 1\n".getBytes(StandardCharsets.US_ASCII);
            byte[] block = new byte[line.length * 2000];
            for (int i = 0; i < 25_000; i++) {
                for (int j = 0; j < 2000; j++) {
                    System.arraycopy(line, 0, block, j * line.length, line.length);
                }
                block[4] = (byte) ('1' + r.nextInt(9)); // a weight that varies now and then keeps it below 1000:1
                gz.write(block);
                expanded += block.length;
            }
        }
        byte[] gz = out.toByteArray();
        assertTrue(expanded / gz.length < 1000, "below the ratio limit: " + expanded / gz.length);
        Http.Reply reply = http.post("/api/recordings?name=bomb", gz);
        assertRefused(413, reply, "samples");
        assertEquals(0, http.get("/api/recordings?q=name:bomb").json().get("total").asInt());
        System.out.printf("== gzip of %d KB expanding %d:1 into %d MB of collapsed lines: %d %s%n", gz.length >> 10,
                expanded / gz.length, expanded >> 20, reply.status(), reply.error());
    }

    // 3: heavy work in parallel: views of a recording with many stacks, diffs, 9 MB uploads
    @Test
    void parallelHeavyViewsDiffsAndUploadsWaitTheirTurnOrGet503NeverAnOutOfMemoryError() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            List<Callable<HttpResponse<byte[]>>> work = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                String path = "/api/recordings/" + bigId + "/flame?search=heavy" + i;
                work.add(() -> http.client.send(http.request(path).timeout(PATIENT).GET().build(), HttpResponse.BodyHandlers.ofByteArray()));
            }
            for (int i = 0; i < 4; i++) {
                String path = "/api/diff?base=" + bigId + "&target=" + smallId + "&lines=" + (i % 2 == 0) + "&signatures=" + (i > 1);
                work.add(() -> http.client.send(http.request(path).timeout(PATIENT).GET().build(), HttpResponse.BodyHandlers.ofByteArray()));
            }
            for (int i = 0; i < 8; i++) {
                byte[] body = manyStacks(24_000, 12, 100 + i); // about 9 MB each
                work.add(() -> http.client.send(http.request("/api/recordings?name=parallel").timeout(PATIENT).POST(
                        HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofByteArray()));
            }
            Map<Integer, Integer> statuses = new java.util.TreeMap<>();
            for (Future<HttpResponse<byte[]>> f : pool.invokeAll(work)) {
                assertAnsweredOrBusy(f.get());
                statuses.merge(f.get().statusCode(), 1, Integer::sum);
            }
            assertTrue(server.process.isAlive(), tail());
            assertEquals(200, http.get("/api/recordings/" + bigId + "/flame?search=heavy0").status());
            System.out.printf("== 4 heavy views + 4 diffs + 8 uploads of 9 MB at once: %s%n", statuses);
        } finally {
            pool.shutdownNow();
        }
    }

    // 4: slow senders and readers that never read, from other addresses; the good client still gets answers
    @Test
    void slowSendersAndNonReadingReadersDoNotStarveOtherClients() throws Exception {
        List<Socket> sockets = new ArrayList<>();
        URI uri = URI.create(server.base);
        InetAddress sender = InetAddress.getByName("127.0.0.2");
        InetAddress reader = InetAddress.getByName("127.0.0.3");
        try {
            for (int i = 0; i < 100; i++) {
                Socket s = connect(sender, uri);
                s.getOutputStream().write(("POST /api/recordings HTTP/1.1\r\nHost: localhost\r\nContent-Length: 10000000\r\n\r\nx")
                        .getBytes(StandardCharsets.US_ASCII));
                sockets.add(s);
                Socket d = connect(reader, uri);
                d.setReceiveBufferSize(4096);
                d.getOutputStream().write(("GET /api/recordings/" + bigId + "/original HTTP/1.1\r\nHost: localhost\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                sockets.add(d);
            }
            // the good client's lists are timed while the slow senders hold their connections, until the server has
            // cut off every one of them (past the per-client limit at once, the rest for their body rate once its grace
            // has passed): the attack lasts as long as the server lets it, not a guessed time
            List<Socket> senders = sockets.stream().filter(s -> s.getLocalAddress().equals(sender)).toList();
            Set<Socket> cut = new HashSet<>();
            List<Double> millis = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120); // only a stuck server takes this long
            while (cut.size() < senders.size()) {
                assertTrue(System.nanoTime() < deadline, (senders.size() - cut.size()) + " slow senders never cut off");
                Http.Reply list = http.get("/api/recordings?limit=5");
                assertEquals(200, list.status(), list.body());
                millis.add(list.millis());
                for (Socket s : senders) {
                    if (cut.contains(s)) {
                        continue;
                    }
                    if (answeredOrClosed(s, 1)) {
                        cut.add(s);
                        continue;
                    }
                    try {
                        s.getOutputStream().write('x'); // a byte now and then: not idle, far below the minimum rate
                    } catch (IOException e) {
                        cut.add(s); // closed by the server
                    }
                }
            }
            millis.sort(null);
            System.out.printf("== 100 slow senders + 100 readers that never read: %d lists answered until every sender was cut"
                    + " off, median %.0f ms, max %.0f ms%n", millis.size(), millis.get(millis.size() / 2), millis.get(millis.size() - 1));
        } catch (IOException e) {
            // a slow sender's socket the server closed while this test wrote to it: that is the point
        } finally {
            for (Socket s : sockets) {
                s.close();
            }
        }
        assertEquals(200, http.get("/api/recordings/" + smallId).status());
        assertTrue(tmpFiles().isEmpty(), "no upload left staged: " + tmpFiles());
    }

    /**
     * Whether the server has answered s or closed it, looking for up to waitMillis: its first byte (a 408, say), the end
     * of the stream or a reset.
     */
    static boolean answeredOrClosed(Socket s, int waitMillis) throws IOException {
        int timeout = s.getSoTimeout();
        s.setSoTimeout(waitMillis);
        try {
            s.getInputStream().read();
            return true;
        } catch (java.net.SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        } finally {
            if (!s.isClosed()) {
                s.setSoTimeout(timeout);
            }
        }
    }

    static Socket connect(InetAddress from, URI to) throws IOException {
        Socket s = new Socket();
        s.bind(new InetSocketAddress(from, 0));
        s.connect(new InetSocketAddress(to.getHost(), to.getPort()), 5000);
        s.setSoTimeout(30_000);
        return s;
    }

    static List<Path> tmpFiles() throws IOException {
        try (Stream<Path> walk = Files.walk(root.resolve("data/tmp"))) {
            return walk.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().startsWith("MultiPart")).toList();
        }
    }

    // 5: a frame name longer than Lucene's term limit
    @Test
    void frameNameLongerThanLucenesTermLimitIsStoredWholeAndSearchable() throws Exception {
        String longName = "com.acme.Generated" + "X".repeat(40_000) + ".call";
        byte[] body = ("java.lang.Thread.run;" + longName + " 3\n").getBytes(StandardCharsets.UTF_8);
        Http.Reply first = http.post("/api/recordings?name=long-frame", body);
        assertEquals(201, first.status(), first.body());
        String id = first.json().get("id").asText();
        assertEquals(200, http.post("/api/recordings?name=long-frame", body).status(), "the same bytes again: stored once");
        assertEquals(1, http.get("/api/recordings?q=id:" + id).json().get("total").asInt());
        // the name is indexed by its first 1,024 characters: found by them
        JsonNode hits = http.get("/api/search?q=" + q("method:generated" + "x".repeat(100) + "*")).json().get("hits");
        assertEquals(1, hits.size(), hits.toString());
        assertEquals(id, hits.get(0).get("recording").get("id").asText());
        assertEquals(longName, hits.get(0).get("method").asText(), "the method is stored whole");
        assertTrue(Files.isDirectory(root.resolve("data/recordings/" + id)));
        assertTrue(tmpFiles().isEmpty(), tmpFiles().toString());
    }

    // 6: zips with many entries, and a README beside a recording
    @Test
    void zipEntriesAreCappedAndAnUnreadableEntryBesideARecordingIsSkippedWithAWarning() throws Exception {
        ByteArrayOutputStream many = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(many)) {
            for (int i = 0; i < 5000; i++) {
                zip.putNextEntry(new ZipEntry("part-" + i + ".txt"));
                zip.write(("a;b" + i + " 1\n").getBytes(StandardCharsets.US_ASCII));
            }
        }
        assertRefused(413, http.post("/api/recordings?name=many-entries", many.toByteArray()), "entries");

        ByteArrayOutputStream mixed = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(mixed)) {
            zip.putNextEntry(new ZipEntry("README.txt"));
            zip.write("These are the recordings of Tuesday's run.\n".getBytes(StandardCharsets.US_ASCII));
            zip.putNextEntry(new ZipEntry("run.collapsed"));
            zip.write("com.acme.Zipped.run;com.acme.Zipped.work 7\n".getBytes(StandardCharsets.US_ASCII));
        }
        Http.Reply reply = http.post("/api/recordings?name=mixed-zip", mixed.toByteArray());
        assertEquals(201, reply.status(), reply.body());
        JsonNode info = http.get("/api/recordings/" + reply.json().get("id").asText()).json();
        assertEquals(7, info.get("kinds").get("cpu").get("weight").asLong());
        assertTrue(info.get("warnings").toString().contains("README.txt skipped"), info.get("warnings").toString());
    }

    // 7: cross-site writes, foreign Host names, and the headers every answer carries
    @Test
    void crossSiteWritesAndForeignHostNamesAreRefusedAndEveryAnswerCarriesTheSecurityHeaders() throws Exception {
        int before = http.get("/api/recordings").json().get("total").asInt();
        byte[] body = "com.acme.Csrf.run 1\n".getBytes(StandardCharsets.UTF_8);
        Http.Reply csrf = http.send(http.request("/api/recordings").header("Content-Type", "text/plain")
                .header("Origin", "https://evil.example").POST(HttpRequest.BodyPublishers.ofByteArray(body)).build());
        assertRefused(403, csrf, "cross-site");
        Http.Reply fetchSite = http.send(http.request("/api/recordings/" + smallId).header("Sec-Fetch-Site", "cross-site")
                .DELETE().build());
        assertRefused(403, fetchSite, "cross-site");
        Http.Reply nullOrigin = http.send(http.request("/api/recordings").header("Origin", "null")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build());
        assertRefused(403, nullOrigin, "cross-site");
        assertEquals(before, http.get("/api/recordings").json().get("total").asInt(), "nothing was stored or deleted");
        for (String method : List.of("GET", "DELETE")) {
            int status = rawStatus(method + " /api/recordings/" + smallId + " HTTP/1.1\r\nHost: rebound.evil.example:8080\r\n"
                    + "User-Agent: Mozilla/5.0 (X11; Linux x86_64)\r\nSec-Fetch-Mode: cors\r\nSec-Fetch-Site: same-origin\r\n"
                    + "Connection: close\r\n\r\n");
            assertEquals(403, status, method + " from a browser with a foreign Host name");
        }
        // an agent or script reaches the server by whatever name its network gives it
        assertEquals(200, rawStatus("GET /api/recordings/" + smallId + " HTTP/1.1\r\nHost: workbench:8080\r\n"
                + "User-Agent: Java-http-client/25\r\nConnection: close\r\n\r\n"));
        assertEquals(200, http.get("/api/recordings/" + smallId).status());
        for (String path : List.of("/", "/js/app.js", "/api/recordings", "/api/nothing", "/api/recordings/" + smallId + "/original")) {
            HttpResponse<byte[]> r = http.client.send(http.request(path).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
            assertTrue(r.headers().firstValue("Content-Security-Policy").orElse("").contains("frame-ancestors 'none'"), path);
            assertEquals("nosniff", r.headers().firstValue("X-Content-Type-Options").orElse(""), path);
            assertEquals("no-referrer", r.headers().firstValue("Referrer-Policy").orElse(""), path);
        }
    }

    /** Sends a hand-written request and returns the status of the answer. */
    static int rawStatus(String request) throws Exception {
        URI uri = URI.create(server.base);
        try (Socket s = new Socket(uri.getHost(), uri.getPort())) {
            s.setSoTimeout(30_000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            String head = new String(s.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
            return Integer.parseInt(head.substring(9, 12));
        }
    }

    // 8: the page, gzipped
    @Test
    void thePageDeclaresTheLengthItSendsAndItsType() throws Exception {
        HttpResponse<byte[]> gz = http.client.send(http.request("/").header("Accept-Encoding", "gzip").GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, gz.statusCode());
        assertEquals("gzip", gz.headers().firstValue("Content-Encoding").orElse(""));
        assertTrue(gz.headers().firstValue("Content-Type").orElse("").startsWith("text/html"), gz.headers().toString());
        assertEquals(gz.body().length, gz.headers().firstValueAsLong("Content-Length").orElse(-1));
        byte[] plain = new GZIPInputStream(new java.io.ByteArrayInputStream(gz.body())).readAllBytes();
        Http.Reply direct = http.get("/");
        assertTrue(java.util.Arrays.equals(direct.bytes(), plain), "the gzip body is the page");
        assertTrue(direct.body().contains("<title>JFR Workbench</title>"));
    }

    // 9: expensive recordings searches
    @Test
    void expensiveOrMalformedRecordingSearchesAre400WithAReason() throws Exception {
        assertRefused(400, http.get("/api/recordings?q=" + q("(".repeat(500) + "a" + ")".repeat(500))), "nests");
        StringBuilder fuzzy = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            fuzzy.append("word").append(i).append("~2 ");
        }
        assertRefused(400, http.get("/api/recordings?q=" + q(fuzzy.toString())), "terms");
        assertRefused(400, http.get("/api/recordings?q=" + q("/a?{200}a{200}/")), "repeat");
        // the URI itself too long: Jetty's refusal, in the API's form
        Http.Reply huge = http.get("/api/recordings?q=" + q("(".repeat(3500)));
        assertEquals(414, huge.status(), huge.body());
        assertTrue(huge.error() != null, huge.body());
        assertEquals(200, http.get("/api/recordings?q=" + q("HashMap* AND name:small")).status());
    }

    // 11: a body that stops arriving
    @Test
    void aBodyThatStopsArrivingGets408WithAMessage() throws Exception {
        URI uri = URI.create(server.base);
        try (Socket s = new Socket(uri.getHost(), uri.getPort())) {
            s.setSoTimeout(60_000);
            OutputStream out = s.getOutputStream();
            out.write(("POST /api/recordings?name=stalled HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000\r\n\r\n"
                    + "com.acme.Stall.run 1\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            String answer = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(answer.startsWith("HTTP/1.1 408"), answer);
            assertTrue(answer.contains("\"error\""), answer);
        }
        assertEquals(0, http.get("/api/recordings?q=name:stalled").json().get("total").asInt());
        assertTrue(tmpFiles().isEmpty(), tmpFiles().toString());
    }

    // 10: a kill during a gzip import
    @Test
    void aKillDuringAGzipImportLeavesNoTemporaryFileAfterTheNextStart() throws Exception {
        Path data = root.resolve("killed-data");
        Path javaTmp = Files.createDirectories(root.resolve("java-tmp"));
        List<String> jvm = List.of("-Xmx256m", "-Djava.io.tmpdir=" + javaTmp);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(manyStacks(120_000, 12, 10));
        }
        Path spool;
        try (ServerProcess victim = new ServerProcess(data, jvm, "--no-samples")) {
            Http h = new Http(victim.base);
            Thread upload = new Thread(() -> {
                try {
                    h.post("/api/recordings?name=killed", out.toByteArray());
                } catch (Exception e) {
                    // the server is killed under it
                }
            });
            upload.start();
            spool = null;
            long deadline = System.currentTimeMillis() + 120_000;
            while (spool == null && System.currentTimeMillis() < deadline) {
                try (Stream<Path> files = Files.walk(data.resolve("tmp"))) {
                    spool = files.filter(f -> f.getFileName().toString().startsWith("workbench-gunzip")).findFirst().orElse(null);
                } catch (IOException e) {
                    // a staging directory went while walking
                }
                Thread.sleep(spool == null ? 2 : 0);
            }
            assertTrue(spool != null, "the import spooled its decompressed bytes into the data dir");
            victim.kill();
            upload.join();
        }
        assertTrue(Files.exists(spool), "the kill left the spooled file");
        try (ServerProcess again = new ServerProcess(data, jvm, "--no-samples")) {
            assertEquals(200, new Http(again.base).get("/api/recordings").status());
            try (Stream<Path> left = Files.walk(data.resolve("tmp"))) {
                assertEquals(List.of(), left.filter(Files::isRegularFile).toList(), "tmp/ is emptied on start");
            }
            try (Stream<Path> left = Files.list(javaTmp)) {
                assertEquals(List.of(), left.filter(f -> f.getFileName().toString().startsWith("workbench-")).toList(),
                        "nothing in java.io.tmpdir");
            }
        }
    }

    // the token for reads too
    @Test
    void withTokenForReadsEveryRequestNeedsTheTokenAndBrowsersAreAskedForIt() throws Exception {
        String token = "reads-" + System.nanoTime();
        try (ServerProcess guarded = new ServerProcess(root.resolve("guarded-data"), List.of("-Xmx128m"), "--no-samples",
                "--token", token, "--token-for-reads")) {
            Http h = new Http(guarded.base);
            Http.Reply list = h.get("/api/recordings");
            assertRefused(401, list, "every request");
            HttpResponse<byte[]> page = h.client.send(h.request("/").GET().build(), HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(401, page.statusCode());
            assertTrue(page.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Basic"), page.headers().toString());
            assertEquals(200, h.send(h.request("/").header("Authorization", basic(token)).GET().build()).status());
            assertEquals(200, h.send(h.request("/api/recordings").header("Authorization", "Bearer " + token).GET().build()).status());
            assertEquals(401, h.send(h.request("/api/recordings").header("Authorization", basic("wrong")).GET().build()).status());
        }
    }

    // secrets in the JVM facts
    @Test
    void secretsInJvmArgumentsAreMaskedInEveryAnswer() throws Exception {
        JfrWriter w = new JfrWriter(JfrWriter.START_NANOS, 1_000_000_000L);
        w.type("jdk.JVMInformation", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                Field.of("jvmName", "java.lang.String"), Field.of("jvmVersion", "java.lang.String"),
                Field.of("jvmArguments", "java.lang.String"), Field.of("javaArguments", "java.lang.String"));
        w.event("jdk.JVMInformation", 1_000L, "OpenJDK 64-Bit Server VM", "25.0.1+8",
                "-Xmx1g -Dapp.db.password=hunter2 -Dapi.key=k-123 -javaagent:a.jar=token=t0k3n",
                "--db-password hunter3 --port 8080");
        Http.Reply up = http.post("/api/recordings?name=secrets.jfr", w.chunk());
        assertEquals(201, up.status(), up.body());
        String id = up.json().get("id").asText();
        for (String answer : List.of(up.body(), http.get("/api/recordings/" + id).body(), http.get("/api/recordings?q=name:secrets.jfr").body())) {
            for (String secret : List.of("hunter2", "hunter3", "k-123", "t0k3n")) {
                assertFalse(answer.contains(secret), secret + " in " + answer);
            }
            assertTrue(answer.contains("-Dapp.db.password=****") && answer.contains("--port 8080"), answer);
        }
    }

    /**
     * Good traffic (uploads, flame graphs, searches, diffs) alone, then with every attack above running against the
     * same server from other addresses; prints both side by side. The good traffic must see only right answers.
     */
    @Test
    void goodTrafficHoldsWhileAttacksRun() throws Exception {
        int seconds = Integer.getInteger("torture.attackSeconds", 10);
        Stats alone = goodTraffic(seconds, false);
        Stats attacked = goodTraffic(seconds, true);
        System.out.printf("%n== good traffic, %d s each: alone | while attacked (regex floods, slow senders and readers,"
                + " bombs, heavy views, cross-site writes)%n", seconds);
        System.out.printf("  %-8s %8s %8s %9s %9s | %8s %8s %9s %9s%n", "request", "count", "per s", "p50 ms", "p99 ms",
                "count", "per s", "p50 ms", "p99 ms");
        for (String type : List.of("upload", "flame", "search", "diff")) {
            System.out.printf("  %-8s %8d %8.1f %9.1f %9.1f | %8d %8.1f %9.1f %9.1f%n", type, alone.count(type),
                    alone.count(type) / (double) seconds, alone.millis(type, 0.5), alone.millis(type, 0.99),
                    attacked.count(type), attacked.count(type) / (double) seconds, attacked.millis(type, 0.5),
                    attacked.millis(type, 0.99));
        }
        System.out.printf("  %-8s %8d %8.1f %19s | %8d %8.1f%n", "all", alone.total(), alone.total() / (double) seconds, "",
                attacked.total(), attacked.total() / (double) seconds);
        assertTrue(attacked.total() > 0);
    }

    private Stats goodTraffic(int seconds, boolean attacked) throws Exception {
        GoodTraffic good = new GoodTraffic(http);
        List<Thread> threads = new ArrayList<>();
        threads.add(new Thread(() -> good.run(11, 10, 0), "good-1"));
        threads.add(new Thread(() -> good.run(12, 10, 0), "good-2"));
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        List<String> attackErrors = new java.util.concurrent.CopyOnWriteArrayList<>();
        if (attacked) {
            Http evil = new Http(server.base, InetAddress.getByName("127.0.0.4"));
            threads.add(attacker("regex", stop, attackErrors, i -> {
                Http.Reply r = evil.get("/api/recordings/" + bigId + "/flame?search=" + q("((?:[\\w.$]+)+)+" + i + "!"));
                return r.status() == 200 || r.status() == 503 || r.status() == 413;
            }));
            threads.add(attacker("bomb", stop, attackErrors, i -> {
                Http.Reply r = evil.post("/api/recordings?name=zip", zipOf(5000));
                return r.status() == 413 || r.status() == 503;
            }));
            threads.add(attacker("csrf", stop, attackErrors, i -> {
                Http.Reply r = evil.send(evil.request("/api/recordings").header("Origin", "https://evil.example")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[] {'x'})).build());
                if (r.status() != 403) {
                    attackErrors.add("csrf " + i + " -> " + r.status() + " " + r.body());
                }
                return true;
            }));
            threads.add(attacker("search", stop, attackErrors, i -> evil.get("/api/recordings?q="
                    + q("(".repeat(500) + "x" + ")".repeat(500))).status() == 400));
            threads.add(attacker("slow", stop, attackErrors, i -> {
                slowClients(40);
                return true;
            }));
        }
        threads.forEach(Thread::start);
        Thread.sleep(seconds * 1000L);
        good.stop();
        stop.set(true);
        for (Thread t : threads) {
            t.join(120_000);
        }
        assertTrue(server.process.isAlive(), tail());
        assertEquals(List.of(), new ArrayList<>(good.errors), "good traffic" + (attacked ? " under attack" : ""));
        assertEquals(List.of(), attackErrors, "every attack answered as it should");
        return good.stats;
    }

    interface Attack {
        boolean once(int i) throws Exception;
    }

    private static Thread attacker(String name, java.util.concurrent.atomic.AtomicBoolean stop, List<String> errors, Attack attack) {
        return new Thread(() -> {
            for (int i = 0; !stop.get(); i++) {
                try {
                    if (!attack.once(i)) {
                        errors.add(name + " " + i + " answered otherwise");
                    }
                } catch (Exception e) {
                    errors.add(name + " " + i + ": " + e);
                }
            }
        }, "attack-" + name);
    }

    static byte[] zipOf(int entries) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(out)) {
            for (int i = 0; i < entries; i++) {
                zip.putNextEntry(new ZipEntry("e" + i + ".txt"));
                zip.write('a');
            }
        }
        return out.toByteArray();
    }

    /**
     * n slow senders from 127.0.0.2 and n non-reading readers from 127.0.0.3, held until the server has cut off every
     * sender (its idle timeout, or the per-client limit at once).
     */
    static void slowClients(int n) throws Exception {
        URI uri = URI.create(server.base);
        List<Socket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                Socket s = connect(InetAddress.getByName("127.0.0.2"), uri);
                s.getOutputStream().write("POST /api/recordings HTTP/1.1\r\nHost: localhost\r\nContent-Length: 10000000\r\n\r\nx"
                        .getBytes(StandardCharsets.US_ASCII));
                sockets.add(s);
                Socket d = connect(InetAddress.getByName("127.0.0.3"), uri);
                d.getOutputStream().write(("GET /api/recordings/" + bigId + "/original HTTP/1.1\r\nHost: localhost\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                sockets.add(d);
            }
            for (Socket s : sockets) {
                if (s.getLocalAddress().getHostAddress().equals("127.0.0.2")) {
                    assertTrue(answeredOrClosed(s, 120_000), "a slow sender was never cut off"); // only if stuck
                }
            }
        } catch (IOException e) {
            // refused or reset by the per-client limit: expected
        } finally {
            for (Socket s : sockets) {
                s.close();
            }
        }
    }

    static String basic(String token) {
        return "Basic " + Base64.getEncoder().encodeToString(("anyone:" + token).getBytes(StandardCharsets.UTF_8));
    }
}
