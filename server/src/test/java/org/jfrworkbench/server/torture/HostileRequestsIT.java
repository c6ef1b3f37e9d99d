package org.jfrworkbench.server.torture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import org.jfrworkbench.testkit.process.ServerProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile requests against a server process with a token and a 1 MB upload limit: path traversal in every place
 * a name enters (query name, X-File-Name, multipart file name, labels) writes nothing outside the data dir and
 * nothing but content-addressed files inside it; oversized bodies (with a length, chunked, multipart, and a
 * Content-Length that lies) get 413 or 400 and store nothing; writes without the right token get 401 and change
 * nothing.
 */
class HostileRequestsIT {
    static final String TOKEN = "s3cret-torture-token";
    static final String[] TRAVERSALS = {"../../escaped-a.jfr", "../../../../../../tmp/escaped-b.jfr", "..\\..\\escaped-c.jfr",
        "recordings/../../escaped-d.jfr", "a\u0000b/../../escaped-e.jfr", "/etc/escaped-f.jfr", "%2e%2e%2fescaped-g.jfr",
        "....//....//escaped-h.jfr"};

    @TempDir
    static Path root;
    static ServerProcess server;
    static Http http;
    static String keptId;

    @BeforeAll
    static void start() throws Exception {
        server = new ServerProcess(root.resolve("data"), List.of("-Xmx256m"), "--no-samples", "--token", TOKEN,
                "--max-upload", "1m");
        http = new Http(server.base);
        keptId = upload("?name=kept", "com.acme.Kept.run;com.acme.Kept.work 5\n".getBytes(StandardCharsets.UTF_8)).json()
                .get("id").asText();
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    static Http.Reply upload(String query, byte[] body) throws Exception {
        return http.send(http.request("/api/recordings" + query).header("Authorization", "Bearer " + TOKEN)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build());
    }

    /** Every regular file under the test's root with its size: the data dir and everything beside it. */
    static Map<String, Long> files() throws Exception {
        Map<String, Long> out = new TreeMap<>();
        for (Path p : regularFiles(root)) {
            try {
                out.put(root.relativize(p).toString(), Files.size(p));
            } catch (NoSuchFileException e) {
                // an index file merged away since the walk passed it
            }
        }
        return out;
    }

    /**
     * The regular files under dir. The index adds new recordings' entries after their answers and merges and deletes
     * its own files at any moment, so a file that vanishes as the walk passes it is left out, not an error.
     */
    static List<Path> regularFiles(Path dir) throws IOException {
        List<Path> out = new ArrayList<>();
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                if (attrs.isRegularFile()) {
                    out.add(file);
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE;
                }
                throw e;
            }
        });
        return out;
    }

    static void assertOnlyTheKeptRecordingIsListed(int expected) throws Exception {
        JsonNode list = http.get("/api/recordings").json();
        assertEquals(expected, list.get("total").asInt(), list.toString());
        assertEquals(200, http.get("/api/recordings/" + keptId + "/flame").status());
    }

    @Test
    void traversalInNamesAndLabelsWritesOnlyContentAddressedFilesInsideTheDataDir() throws Exception {
        Map<String, Long> before = files();
        List<String> ids = new ArrayList<>();
        int n = 0;
        for (String name : TRAVERSALS) {
            byte[] body = ("com.acme.T.run;com.acme.Trav" + n++ + ".x 1\n").getBytes(StandardCharsets.UTF_8);
            String q = URLEncoder.encode(name, StandardCharsets.UTF_8);
            Http.Reply byQuery = upload("?name=" + q + "&labels=path=" + q, body);
            assertEquals(201, byQuery.status(), byQuery.body());
            assertEquals(name, byQuery.json().get("name").asText(), "the name is data, kept as sent");
            ids.add(byQuery.json().get("id").asText());

            byte[] body2 = ("com.acme.T.run;com.acme.Trav" + n++ + ".x 1\n").getBytes(StandardCharsets.UTF_8);
            if (!name.contains("\u0000")) { // a NUL cannot travel in an HTTP header
                Http.Reply byHeader = http.send(http.request("/api/recordings").header("Authorization", "Bearer " + TOKEN)
                        .header("X-File-Name", name).POST(HttpRequest.BodyPublishers.ofByteArray(body2)).build());
                assertEquals(201, byHeader.status(), byHeader.body());
                assertEquals(name, byHeader.json().get("name").asText());
                ids.add(byHeader.json().get("id").asText());
            }
            byte[] body3 = ("com.acme.T.run;com.acme.Trav" + n++ + ".x 1\n").getBytes(StandardCharsets.UTF_8);
            Http.Reply byPart = http.send(http.multipart(name, body3, TOKEN));
            if (name.contains("\u0000")) { // Jetty refuses control characters in part headers: a 400, not a 500
                assertEquals(400, byPart.status(), byPart.body());
                assertTrue(byPart.error().contains("malformed multipart"), byPart.body());
            } else {
                assertEquals(201, byPart.status(), byPart.body());
                ids.add(byPart.json().get("id").asText());
            }
        }
        Map<String, Long> after = files();
        before.keySet().forEach(after::remove);
        for (String added : after.keySet()) {
            assertTrue(added.matches("data/(recordings/[0-9a-f]{16}/(original\\.bin|profile\\.wbp|meta\\.json)|index/[^/]+)"),
                    "a write outside the content-addressed layout: " + added);
        }
        for (String id : ids) {
            assertTrue(after.containsKey("data/recordings/" + id + "/original.bin"), id);
        }
        assertEquals(List.of(), regularFiles(root).stream().filter(p -> p.getFileName().toString().startsWith("escaped-")).toList());
        assertFalse(Files.exists(Path.of("/etc/escaped-f.jfr")));
        assertFalse(Files.exists(Path.of("/tmp/escaped-b.jfr")));
        for (String id : ids) {
            assertEquals(204, http.send(http.request("/api/recordings/" + id).header("Authorization", "Bearer " + TOKEN)
                    .DELETE().build()).status());
        }
        assertOnlyTheKeptRecordingIsListed(1);
        System.out.printf("%n== hostile names: %d traversal names x (query, header, multipart) -> %d uploads, %d files added,"
                + " all content-addressed inside the data dir%n", TRAVERSALS.length, ids.size(), after.size());
    }

    @Test
    void uploadsOverTheLimitGet413AndStoreNothing() throws Exception {
        byte[] big = "com.acme.Big.run;com.acme.Big.x 1\n".repeat(40_000).getBytes(StandardCharsets.UTF_8); // 1.3 MB
        Map<String, Long> before = files();
        List<Integer> statuses = new ArrayList<>();
        Http.Reply sized = upload("", big);
        assertEquals(413, sized.status(), sized.body());
        assertTrue(sized.error().contains("limit"), sized.error());
        Http.Reply chunked = http.send(http.request("/api/recordings").header("Authorization", "Bearer " + TOKEN)
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big))).build());
        assertEquals(413, chunked.status(), chunked.body());
        assertTrue(chunked.error().contains("limit"), chunked.error());
        Http.Reply part = http.send(http.multipart("big.txt", big, TOKEN));
        assertEquals(413, part.status(), part.body());
        assertTrue(part.error() != null, part.body());
        statuses.addAll(List.of(sized.status(), chunked.status(), part.status()));
        // a Content-Length that promises more than is sent: the body ends early, nothing may be stored
        int lying = rawPost("Content-Length: 500000\r\n", "com.acme.Short.run 1\n".getBytes(StandardCharsets.UTF_8));
        assertEquals(400, lying, "a body shorter than its Content-Length is refused");
        statuses.add(lying);
        // each refusal was answered after its staging dir was removed (the store deletes it before the error reaches
        // the client), so what is on disk now is final
        Map<String, Long> after = files();
        after.keySet().removeIf(k -> k.startsWith("data/index/") || k.startsWith("data/tmp/MultiPart"));
        before.keySet().removeIf(k -> k.startsWith("data/index/") || k.startsWith("data/tmp/MultiPart"));
        assertEquals(before, after, "no file was added or changed");
        assertOnlyTheKeptRecordingIsListed(1);
        System.out.printf("== upload limit (1 MB): with length, chunked, multipart, lying Content-Length -> %s, nothing stored%n",
                statuses);
    }

    /** A hand-written HTTP/1.1 POST, so headers can lie; returns the status, or -1 when the server just closed. */
    static int rawPost(String extraHeaders, byte[] body) throws Exception {
        URI uri = URI.create(server.base);
        try (Socket s = new Socket(uri.getHost(), uri.getPort())) {
            s.setSoTimeout(20_000);
            OutputStream out = s.getOutputStream();
            out.write(("POST /api/recordings HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + TOKEN + "\r\n"
                    + extraHeaders + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            s.shutdownOutput();
            InputStream in = s.getInputStream();
            String head = new String(in.readNBytes(12), StandardCharsets.US_ASCII);
            return head.startsWith("HTTP/1.1 ") ? Integer.parseInt(head.substring(9, 12)) : -1;
        }
    }

    @Test
    void writesWithoutTheRightTokenGet401AndChangeNothing() throws Exception {
        byte[] body = "com.acme.Intruder.run;com.acme.Intruder.x 1\n".getBytes(StandardCharsets.UTF_8);
        List<Http.Reply> replies = new ArrayList<>();
        replies.add(http.post("/api/recordings?name=intruder", body));
        for (String wrong : new String[] {"Bearer wrong", "Bearer " + TOKEN + "x", "Bearer", "Basic " + TOKEN,
            "Bearer " + TOKEN.toUpperCase(), "Bearer " + TOKEN.substring(1), "bearer wrong"}) {
            replies.add(http.send(http.request("/api/recordings").header("Authorization", wrong)
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build()));
            replies.add(http.send(http.request("/api/recordings/" + keptId).header("Authorization", wrong).DELETE().build()));
        }
        replies.add(http.send(http.multipart("intruder.txt", body, null)));
        replies.add(http.delete("/api/recordings/" + keptId));
        for (Http.Reply r : replies) {
            assertEquals(401, r.status(), r.body());
            assertTrue(r.error() != null, r.body());
        }
        assertOnlyTheKeptRecordingIsListed(1);
        assertEquals(0, http.get("/api/search?q=Intruder").json().get("total").asInt());
        // the scheme is case-insensitive (RFC 7235), on a fresh connection as on a kept-alive one
        Http fresh = new Http(server.base);
        Http.Reply lower = fresh.send(fresh.request("/api/recordings").header("Authorization", "bearer " + TOKEN)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build());
        assertEquals(201, lower.status(), lower.body());
        assertEquals(204, new Http(server.base).send(fresh.request("/api/recordings/" + lower.json().get("id").asText())
                .header("Authorization", "BEARER " + TOKEN).DELETE().build()).status());
        assertOnlyTheKeptRecordingIsListed(1);
        System.out.printf("== token: %d writes without the right token -> all 401, nothing changed%n", replies.size());
    }
}
