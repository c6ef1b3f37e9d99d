package org.jfrworkbench.agent.upload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the uploader sends for each kind of spooled file, to a server that records the requests. */
class UploaderTest {
    @TempDir
    Path spoolDir;

    /** A request as the server saw it: its query and how many body bytes came. */
    record Seen(String query, int bodyBytes) {
    }

    @Test
    void aChunkGoesAsItsRunsPartAndAnEndMarkerEndsTheRunWithoutABody() throws Exception {
        List<Seen> seen = new CopyOnWriteArrayList<>();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/api/recordings", exchange -> {
            seen.add(new Seen(exchange.getRequestURI().getRawQuery(), exchange.getRequestBody().readAllBytes().length));
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.start();
        try {
            String key = RunParts.runKey("host", 42, 1_764_000_000_000L);
            Path chunk = Files.write(spoolDir.resolve(RunParts.fileName("app-1", key, 1_764_000_000_000L, 3, false)),
                    new byte[] {'F', 'L', 'R', 0, 1, 2});
            Path end = Files.createFile(spoolDir.resolve(RunParts.endFileName("app-2", key, 1_764_000_000_000L)));
            Uploader uploader = new Uploader(new Spool(spoolDir, 1 << 20),
                    URI.create("http://127.0.0.1:" + server.getAddress().getPort()), null, Map.of("service", "app"));
            assertTrue(uploader.post(chunk));
            assertTrue(uploader.post(end));
            String encodedKey = key.replace(":", "%3A");
            assertEquals(2, seen.size(), seen.toString());
            assertTrue(seen.get(0).query().contains("&run=" + encodedKey + "&chunk=3&runStart=1764000000000"), seen.get(0).query());
            assertTrue(!seen.get(0).query().contains("last="), seen.get(0).query());
            assertEquals(6, seen.get(0).bodyBytes());
            // the end marker: the run's key and last=true, no part number and no body
            assertTrue(seen.get(1).query().contains("&run=" + encodedKey + "&runStart=1764000000000&last=true"), seen.get(1).query());
            assertTrue(!seen.get(1).query().contains("chunk="), seen.get(1).query());
            assertEquals(0, seen.get(1).bodyBytes());
        } finally {
            server.stop(0);
        }
    }
}
