package org.jfrworkbench.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TokenAndDeleteTest {
    @TempDir
    Path data;

    @Test
    void writesNeedTheBearerTokenAndReadsDoNot() throws Exception {
        try (TestServer server = new TestServer(data, 1 << 20, "s3cret")) {
            assertEquals(401, server.post("", RecordingsApiTest.STACKS.getBytes(), null).status());
            assertEquals(401, server.post("", RecordingsApiTest.STACKS.getBytes(), "wrong").status());
            assertEquals(0, server.get("/api/recordings").json().get("total").asLong());
            TestServer.Reply ok = server.post("", RecordingsApiTest.STACKS.getBytes(), "s3cret");
            assertEquals(201, ok.status());
            String id = ok.json().get("id").asText();
            assertEquals(401, server.delete("/api/recordings/" + id, null).status());
            assertEquals(200, server.get("/api/recordings/" + id + "/flame").status());
            assertEquals(204, server.delete("/api/recordings/" + id, "s3cret").status());
        }
    }

    @Test
    void deleteRemovesFilesIndexEntriesAndSearchHits() throws Exception {
        try (TestServer server = new TestServer(data, 1 << 20, null)) {
            String id = server.upload("", RecordingsApiTest.STACKS);
            assertEquals(1, server.get("/api/search?q=resize").json().get("total").asLong());
            assertEquals(204, server.delete("/api/recordings/" + id, null).status());
            assertEquals(404, server.get("/api/recordings/" + id).status());
            assertEquals(404, server.delete("/api/recordings/" + id, null).status());
            assertEquals(0, server.get("/api/recordings").json().get("total").asLong());
            assertEquals(0, server.get("/api/search?q=resize").json().get("total").asLong());
            assertFalse(Files.exists(data.resolve("recordings").resolve(id)));
            assertEquals(201, server.post("", RecordingsApiTest.STACKS).status(), "can be uploaded again");
        }
    }

    @Test
    void recordingsSurviveARestartAndStrayFilesAreReconciled() throws Exception {
        String id;
        try (TestServer server = new TestServer(data, 1 << 20, null)) {
            id = server.upload("?labels=team=perf", RecordingsApiTest.STACKS);
        }
        // a recording directory the index never committed (crash after the rename) is re-indexed,
        Path copy = data.resolve("recordings").resolve("00000000000000ff");
        Files.createDirectories(copy);
        for (String f : new String[] {"original.bin", "profile.wbp"}) {
            Files.copy(data.resolve("recordings").resolve(id).resolve(f), copy.resolve(f));
        }
        Files.writeString(copy.resolve("meta.json"), Files.readString(data.resolve("recordings").resolve(id).resolve("meta.json"))
                .replace(id, "00000000000000ff"));
        // an incomplete one (no meta.json) is removed, and leftovers in tmp are cleared
        Path partial = Files.createDirectories(data.resolve("recordings").resolve("00000000000000aa"));
        Files.writeString(partial.resolve("original.bin"), "x");
        Files.writeString(data.resolve("tmp").resolve("half-upload"), "x");
        try (TestServer server = new TestServer(data, 1 << 20, null)) {
            var list = server.get("/api/recordings").json();
            assertEquals(2, list.get("total").asLong(), list.toString());
            assertEquals(2, list.get("facets").get("labels").get("team=perf").asLong());
            assertEquals(200, server.get("/api/recordings/00000000000000ff/flame").status());
            assertEquals(2, server.get("/api/search?q=HashMap.resize").json().get("total").asLong());
            assertFalse(Files.exists(partial));
            assertFalse(Files.exists(data.resolve("tmp").resolve("half-upload")));
        }
        // an index entry whose directory is gone is dropped
        try (var files = Files.list(data.resolve("recordings").resolve("00000000000000ff"))) {
            for (Path f : files.toList()) {
                Files.delete(f);
            }
        }
        try (TestServer server = new TestServer(data, 1 << 20, null)) {
            assertEquals(1, server.get("/api/recordings").json().get("total").asLong());
            assertEquals(1, server.get("/api/search?q=HashMap.resize").json().get("total").asLong());
            assertTrue(server.get("/api/recordings/" + id).status() == 200);
        }
    }
}
