package org.jfrworkbench.server.http;

import static org.jfrworkbench.server.http.TestServer.timing;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Requests for a view that is being built for another request (two tabs, a client that repeats itself) wait for that
 * build and answer with it: the work is done once, however many ask at once.
 */
class SharedBuildApiTest extends WithTwoFixtures {
    @AfterEach
    void noHold() {
        ViewBuilds.buildStarted = k -> { };
    }

    private static CompletableFuture<HttpResponse<byte[]>> fetch(String path) {
        return server.http.sendAsync(HttpRequest.newBuilder(URI.create(server.base + path)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    @Test
    void requestsForAViewBeingBuiltWaitForThatBuildAndAnswerWithIt() throws Exception {
        for (String path : List.of("/api/recordings/" + a + "/flame?kind=cpu&maxNodes=77",
                "/api/diff?base=" + a + "&target=" + b + "&kind=cpu&maxNodes=55&format=binary")) {
            // the first build of this view is held until the other requests wait for it
            CountDownLatch held = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicInteger builds = new AtomicInteger();
            CompletableFuture<HttpResponse<byte[]>> second;
            CompletableFuture<HttpResponse<byte[]>> third;
            ViewBuilds.buildStarted = key -> {
                // only this path's view: the flame graph's JSON form, or the diff of a and b (not, say, the default
                // view the server prepares after an upload, binary and of one recording)
                boolean diff = path.startsWith("/api/diff");
                if (!key.id().equals(a) || (diff ? !b.equals(key.otherId()) : key.otherId() != null || !key.format().equals("json"))) {
                    return;
                }
                if (builds.incrementAndGet() == 1) {
                    held.countDown();
                    try {
                        release.await(60, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            };
            CompletableFuture<HttpResponse<byte[]>> first = fetch(path);
            try {
                assertTrue(held.await(30, TimeUnit.SECONDS), path + ": the first build started");
                second = fetch(path);
                third = fetch(path);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (ViewBuilds.waitingForAnothersBuild() < 2) {
                    assertTrue(System.nanoTime() < deadline, path + ": the other two requests wait for the first's build"
                            + " (builds started: " + builds.get() + ")");
                    Thread.sleep(5);
                }
            } finally {
                release.countDown();   // a failed check leaves no build held
            }

            HttpResponse<byte[]> built = first.get(30, TimeUnit.SECONDS);
            assertEquals(200, built.statusCode(), new String(built.body()));
            assertTrue(timing(built).startsWith("build;dur="), timing(built));
            for (HttpResponse<byte[]> r : List.of(second.get(30, TimeUnit.SECONDS), third.get(30, TimeUnit.SECONDS))) {
                assertEquals(200, r.statusCode(), new String(r.body()));
                assertTrue(timing(r).startsWith("shared;desc=") && timing(r).contains("build;dur="), timing(r));
                assertArrayEquals(built.body(), r.body(), path);
            }
            assertEquals(1, builds.get(), path + ": built once for the three requests");
        }
    }
}
