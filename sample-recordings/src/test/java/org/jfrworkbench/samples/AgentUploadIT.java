package org.jfrworkbench.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Upload contract of the workbench server ({@code POST /api/recordings?name=..&labels=..}, raw JFR body, Bearer token,
 * 200/201 = stored): chunks wait in the spool while nobody listens and each arrives exactly once when the server comes.
 */
class AgentUploadIT {
    @TempDir
    Path tmp;

    @Test
    void spooledChunksArriveExactlyOnceWhenTheServerComesUp() throws Exception {
        ChildJvm jvm = ChildJvm.jdk("25");
        int port = freePort();
        Path dir = tmp.resolve("spool");
        Path log = tmp.resolve("app.log");
        Process app = jvm.start("dir=" + dir + ",interval=1s,upload=http://127.0.0.1:" + port + ",token=s3cret,label.service=checkout",
                List.of(), log, "org.jfrworkbench.samples.CheckoutService", "before", "7");
        Thread.sleep(4000); // nobody listens yet: the first chunks must wait on disk
        long spooledWhileAway = Recordings.chunks(dir).size();

        Map<String, Integer> received = new ConcurrentHashMap<>();
        AtomicInteger unauthorized = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        server.createContext("/api/recordings", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String query = exchange.getRequestURI().getQuery();
            int status;
            if (!"Bearer s3cret".equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
                unauthorized.incrementAndGet();
                status = 401;
            } else if (body.length < 4 || body[0] != 'F' || body[1] != 'L' || body[2] != 'R' || !query.contains("labels=")) {
                status = 400;
            } else {
                String name = query.replaceAll(".*name=([^&]+).*", "$1");
                status = received.merge(name, 1, Integer::sum) == 1 ? 201 : 200;
            }
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        server.start();
        try {
            ChildJvm.finish(app, log);
        } finally {
            server.stop(0);
        }
        assertTrue(spooledWhileAway >= 1, "chunks spooled while the server was away: " + spooledWhileAway);
        assertEquals(0, unauthorized.get());
        assertTrue(received.size() >= 5, "chunks received: " + received.keySet());
        received.forEach((name, times) -> assertEquals(1, times, name + " delivered " + times + " times"));
        // chunk names carry a sequence number: no gap means no chunk was lost
        List<Integer> seq = received.keySet().stream().map(n -> Integer.parseInt(n.replaceAll(".*-(\\d{4})\\.jfr$", "$1"))).sorted().toList();
        for (int i = 0; i < seq.size(); i++) {
            assertEquals(i + 1, seq.get(i), "chunk sequence " + seq);
        }
        assertEquals(List.of(), Recordings.chunks(dir), "delivered chunks leave the spool");
    }

    @Test
    void spoolStaysWithinItsBoundWhileNobodyListens() throws Exception {
        ChildJvm jvm = ChildJvm.jdk("25");
        Path dir = tmp.resolve("spool");
        long bound = 400 * 1024;
        String out = jvm.run("dir=" + dir + ",interval=1s,spool-max=400k,upload=http://127.0.0.1:" + freePort(),
                List.of(), tmp.resolve("app.log"), "org.jfrworkbench.samples.CheckoutService", "after", "7");
        List<Path> left = Recordings.chunks(dir);
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
}
