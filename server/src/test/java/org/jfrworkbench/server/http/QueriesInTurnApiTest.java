package org.jfrworkbench.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import org.jfrworkbench.testkit.SyntheticProfile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Queries reuse the arrays the size of a call tree that earlier queries used: different views of the same trees, asked
 * in turn, answer as they do asked in the other order on another server, so nothing one query leaves in those arrays
 * reaches the next. The recordings' trees are large enough (over 100,000 nodes) for their arrays to be reused.
 */
class QueriesInTurnApiTest {
    @TempDir
    Path first;
    @TempDir
    Path second;

    @Test
    void viewsAskedInEitherOrderAnswerTheSame() throws Exception {
        String base = SyntheticProfile.collapsed(8_000, 1);
        String target = SyntheticProfile.collapsed(8_000, 2);
        List<String> forward = new ArrayList<>();
        List<String> views = new ArrayList<>();
        try (TestServer server = new TestServer(first, 64 << 20, null)) {
            String a = server.upload("?name=base.txt", base);
            String b = server.upload("?name=target.txt", target);
            String flame = "/api/recordings/" + a + "/flame?kind=cpu";
            views.addAll(List.of(flame, flame + "&maxNodes=3000", flame + "&weight=samples&maxNodes=5000",
                    flame + "&search=" + URLEncoder.encode("C1\\.m", StandardCharsets.UTF_8), flame + "&invert=true",
                    flame + "&invert=true&weight=samples&maxNodes=4000",
                    "/api/recordings/" + a + "/sandwich?kind=cpu&method=com.acme.Worker.loop&maxNodes=2000",
                    "/api/recordings/" + b + "/flame?kind=cpu&maxNodes=6000",
                    "/api/diff?kind=cpu&base=" + a + "&target=" + b + "&maxNodes=4000",
                    "/api/diff?kind=cpu&weight=samples&base=" + b + "&target=" + a,
                    "/api/diff?kind=cpu&base=" + a + "&target=" + a + "&maxNodes=3000"));
            for (String view : views) {
                forward.add(answer(server, view));
            }
            JsonNode whole = TestServer.JSON.readTree(forward.get(0));
            assertEquals(weight(base), whole.get("total").asLong(), "the root holds every sample's weight");
            assertTrue(whole.get("nodes").get("name").size() > 100_000, "a tree large enough for its arrays to be kept");
        }
        try (TestServer server = new TestServer(second, 64 << 20, null)) {
            server.upload("?name=base.txt", base);
            server.upload("?name=target.txt", target);
            for (int i = views.size() - 1; i >= 0; i--) {
                assertEquals(forward.get(i), answer(server, views.get(i)), views.get(i));
            }
        }
    }

    private static String answer(TestServer server, String path) throws Exception {
        TestServer.Reply r = server.get(path);
        assertEquals(200, r.status(), path + ": " + r.body());
        return r.body();
    }

    private static long weight(String collapsed) {
        long sum = 0;
        for (String line : collapsed.split("\n")) {
            sum += Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
        }
        return sum;
    }
}
