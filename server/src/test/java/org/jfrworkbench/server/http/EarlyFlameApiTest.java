package org.jfrworkbench.server.http;

import static org.jfrworkbench.server.http.TestServer.body;
import static org.jfrworkbench.server.http.TestServer.builtEarly;
import static org.jfrworkbench.server.http.TestServer.timing;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A flame graph link's page (a recording's view: its kind, range, threads, weight, inverted or not) starts building the
 * graph its head names as it is served: the page's request for it finds that build under way or done (its
 * Server-Timing says which), never a build of its own, and gets the same graph; a link to a view there cannot be is
 * served its page, and the graph's request answers what is wrong.
 */
class EarlyFlameApiTest extends WithTwoFixtures {
    private static final Pattern FLAME_PRELOAD = Pattern.compile("<link rel=\"preload\" as=\"fetch\" crossorigin href=\"(/api/recordings/[^/\"]+/flame\\?[^\"]+)\">");

    @AfterEach
    void noWatch() {
        ViewBuilds.buildStarted = k -> { };
    }

    private static HttpResponse<byte[]> fetch(String path) throws Exception {
        return server.getBytes(path, true);
    }

    /** The flame graph URL the page of link names in its head, as the browser asks for it. */
    private static String flamePreload(String link) throws Exception {
        return server.preloaded(link, FLAME_PRELOAD);
    }

    @Test
    void theFlameGraphALinkNamesIsBuiltAsItsPageIsServedAndItsRequestTakesThatBuild() throws Exception {
        String thread = server.get("/api/recordings/" + a).json().get("threads").get(0).get("id").asText();
        // views no one asked for before (the whole recording's first kind is prepared after the upload): each built anew
        for (String view : List.of("kind=cpu&from=0&to=100000", "kind=cpu&invert=1&weight=samples",
                "kind=cpu&threads=" + thread + "&from=10")) {
            String url = flamePreload("/?id=" + a + "&" + view);
            HttpResponse<byte[]> early = fetch(url);
            assertEquals(200, early.statusCode(), new String(early.body()));
            assertTrue(builtEarly(timing(early)), view + ": " + timing(early));
            assertEquals("application/octet-stream", early.headers().firstValue("Content-Type").orElse(""));

            // the same graph as a request builds it: its JSON form, built for its own request
            String json = url.replace("&format=binary", "");
            HttpResponse<byte[]> built = fetch(json);
            assertTrue(timing(built).startsWith("build;dur="), timing(built));
            JsonNode expected = TestServer.JSON.readTree(body(built));
            FlameBinaryApiTest.Binary bin = FlameBinaryApiTest.Binary.decode(body(early));
            assertEquals(expected.get("names"), bin.header().get("names"), view);
            assertEquals(expected.get("total").asLong(), bin.header().get("total").asLong(), view);
            int n = expected.get("nodes").get("name").size();
            int[] names = new int[n], counts = new int[n];
            for (int i = 0; i < n; i++) {
                names[i] = expected.get("nodes").get("name").get(i).asInt();
                counts[i] = expected.get("nodes").get("count").get(i).asInt();
            }
            assertArrayEquals(names, bin.name(), view);
            assertArrayEquals(counts, bin.count(), view);
        }
    }

    @Test
    void aViewInTheCacheIsAnsweredFromItWhenItsLinkIsOpenedAgainNotBuiltAgain() throws Exception {
        String link = "/?page=recording&id=" + a + "&kind=cpu&from=5&to=90000";
        String url = flamePreload(link);
        assertEquals(200, fetch(url).statusCode());
        AtomicInteger builds = new AtomicInteger();
        ViewBuilds.buildStarted = key -> builds.incrementAndGet();
        assertEquals(url, flamePreload(link));
        HttpResponse<byte[]> again = fetch(url);
        assertEquals(200, again.statusCode());
        assertEquals("cache;desc=hit", timing(again));
        // the page's early build, which its request waited for, found the view in the cache too
        assertEquals(0, builds.get());
    }

    @Test
    void aLinkToAViewThereCannotBeGetsItsPageAndItsGraphsRequestAnswersTheErrorThenLinksBuildEarlyAsBefore() throws Exception {
        // more failed early builds than run at once: each ends and leaves its place to the next
        String missing = flamePreload("/?id=0123456789abcdef&kind=cpu&from=0&to=100");
        TestServer.Reply notThere = server.get(missing);
        assertEquals(404, notThere.status(), notThere.body());
        assertTrue(notThere.json().get("error").asText().contains("0123456789abcdef"), notThere.body());
        // a thread the recording does not have, a kind it has no samples of: 400 naming what is wrong
        TestServer.Reply thread = server.get(flamePreload("/?id=" + a + "&kind=cpu&threads=99999"));
        assertEquals(400, thread.status(), thread.body());
        assertTrue(thread.json().get("error").asText().contains("99999"), thread.body());
        TestServer.Reply kind = server.get(flamePreload("/?id=" + a + "&kind=nativemem&from=3"));
        assertEquals(400, kind.status(), kind.body());

        HttpResponse<byte[]> good = fetch(flamePreload("/?id=" + a + "&kind=cpu&from=7&to=80000"));
        assertEquals(200, good.statusCode());
        assertTrue(builtEarly(timing(good)), timing(good));
    }

    @Test
    void aClientHasOneEarlyBuildAtATimeAndItsNextPagesGraphIsLeftToItsRequestMeanwhile() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<FlameResponseCache.Key> held = new AtomicReference<>();
        // the first build to start (the first page's early one) waits until released
        ViewBuilds.buildStarted = key -> {
            if (held.compareAndSet(null, key)) {
                started.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        String first;
        try {
            first = flamePreload("/?id=" + a + "&kind=cpu&from=11&to=70000");
            assertTrue(started.await(60, TimeUnit.SECONDS), "the first page's early build started");
            // the same client's next page while that build runs: a page costs next to nothing, its build a request's
            // work, so its graph is built by its own request, as without early builds
            HttpResponse<byte[]> own = fetch(flamePreload("/?id=" + a + "&kind=cpu&from=12&to=70000"));
            assertEquals(200, own.statusCode(), new String(own.body()));
            assertTrue(timing(own).startsWith("build;dur="), timing(own));
        } finally {
            release.countDown();
        }
        HttpResponse<byte[]> early = fetch(first);
        assertEquals(200, early.statusCode());
        assertTrue(builtEarly(timing(early)), timing(early));
        // that build over, the client's next page builds early again
        HttpResponse<byte[]> next = fetch(flamePreload("/?id=" + a + "&kind=cpu&from=13&to=70000"));
        assertEquals(200, next.statusCode());
        assertTrue(builtEarly(timing(next)), timing(next));
    }
}
