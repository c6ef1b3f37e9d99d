package org.jfrworkbench.server.http;

import static org.jfrworkbench.server.http.TestServer.body;
import static org.jfrworkbench.server.http.TestServer.builtEarly;
import static org.jfrworkbench.server.http.TestServer.timing;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/**
 * A diff permalink's page (two recordings, or a diff of runs) starts building the diff its head names as it is served:
 * the page's request for it finds that build under way or done (its Server-Timing says which), never a build of its
 * own, and gets the same diff.
 */
class EarlyDiffApiTest extends WithTwoFixtures {
    private static final Pattern DIFF_PRELOAD = Pattern.compile("<link rel=\"preload\" as=\"fetch\" crossorigin href=\"(/api/(merged/)?diff\\?[^\"]+)\">");
    private static HttpResponse<byte[]> fetch(String path) throws Exception {
        return server.getBytes(path, true);
    }

    /** The diff URL the page of link names in its head, as the browser asks for it. */
    private static String diffPreload(String link) throws Exception {
        return server.preloaded(link, DIFF_PRELOAD);
    }

    @Test
    void theDiffALinkNamesIsBuiltAsItsPageIsServedAndItsRequestTakesThatBuild() throws Exception {
        // a view no one asked for before: each of these builds it anew
        for (String view : List.of("kind=cpu", "kind=cpu&mode=absolute", "kind=cpu&baseFrom=0&targetTo=100000")) {
            String url = diffPreload("/?page=diff&base=" + a + "&id=" + b + "&" + view);
            HttpResponse<byte[]> early = fetch(url);
            assertEquals(200, early.statusCode(), new String(early.body()));
            String timing = timing(early);
            // the page's build, waited for (early) or already in the cache (cache): never one of this request's own
            assertTrue(builtEarly(timing), view + ": " + timing);
            assertEquals("application/octet-stream", early.headers().firstValue("Content-Type").orElse(""));

            // the same diff as a request builds it: its JSON form, built for its own request
            String json = url.replace("&format=binary", "");
            HttpResponse<byte[]> built = fetch(json);
            assertTrue(timing(built).startsWith("build;dur="), timing(built));
            JsonNode expected = TestServer.JSON.readTree(body(built));
            DiffBinaryApiTest.Binary bin = DiffBinaryApiTest.Binary.decode(body(early));
            assertEquals(expected.get("changes"), bin.header().get("changes"), view);
            assertEquals(expected.get("names"), bin.header().get("names"), view);
            int n = expected.get("nodes").get("base").size();
            long[] base = new long[n], target = new long[n], earlyBase = new long[n], earlyTarget = new long[n];
            for (int i = 0; i < n; i++) {
                base[i] = expected.get("nodes").get("base").get(i).asLong();
                target[i] = expected.get("nodes").get("target").get(i).asLong();
                earlyBase[i] = (long) bin.base()[i];
                earlyTarget[i] = (long) bin.target()[i];
            }
            assertArrayEquals(base, earlyBase, view);
            assertArrayEquals(target, earlyTarget, view);
        }
    }

    @Test
    void theDiffOfRunsALinkNamesIsBuiltAsItsPageIsServedToo() throws Exception {
        JsonNode info = server.get("/api/recordings/" + a).json();
        long start = info.get("startMillis").asLong();
        long end = start + info.get("durationMillis").asLong() + 1;
        String url = diffPreload("/?page=diff&kind=cpu&baseFrom=" + start + "&baseTo=" + end + "&targetFrom=" + start
                + "&targetTo=" + end);
        assertTrue(url.startsWith("/api/merged/diff?"), url);
        HttpResponse<byte[]> early = fetch(url);
        assertEquals(200, early.statusCode(), new String(early.body()));
        String timing = timing(early);
        assertTrue(builtEarly(timing), timing);
        HttpResponse<byte[]> built = fetch(url.replace("&format=binary", ""));
        assertTrue(timing(built).startsWith("build;dur="), timing(built));
        JsonNode expected = TestServer.JSON.readTree(body(built));
        JsonNode header = DiffBinaryApiTest.Binary.decode(body(early)).header();
        assertEquals(expected.get("baseRuns"), header.get("baseRuns"));
        assertTrue(header.get("baseRuns").size() > 0, header.toString());
        assertEquals(expected.get("names"), header.get("names"));
        assertEquals(expected.get("baseTotal"), header.get("baseTotal"));
    }

    @Test
    void aDiffAskedForWithoutItsPageIsBuiltByItsRequestAndALinkToNoRecordingIsAnsweredByItsRequest() throws Exception {
        HttpResponse<byte[]> own = fetch("/api/diff?base=" + a + "&target=" + b + "&kind=cpu&weight=samples&baseTo=50000&format=binary");
        assertEquals(200, own.statusCode());
        assertTrue(timing(own).startsWith("build;dur="), timing(own));

        // the page of a link to recordings there are not is served as any; the diff's request says what is wrong
        String missing = diffPreload("/?page=diff&base=0123456789abcdef&id=" + b + "&kind=cpu");
        TestServer.Reply reply = server.get(missing);
        assertEquals(404, reply.status(), reply.body());
        assertTrue(reply.json().get("error").asText().contains("0123456789abcdef"), reply.body());
        // a kind neither recording has: the page's build fails, its request answers 400 naming the kinds there are
        String absent = diffPreload("/?page=diff&base=" + a + "&id=" + b + "&kind=nativemem");
        TestServer.Reply none = server.get(absent);
        assertEquals(400, none.status(), none.body());
    }
}
