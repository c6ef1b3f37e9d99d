package org.jfrworkbench.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecordingsApiTest {
    static final String STACKS = """
            java.lang.Thread.run;com.shop.Checkout.handle;java.util.HashMap.resize 30
            java.lang.Thread.run;com.shop.Checkout.handle;com.shop.Checkout.price 50
            java.lang.Thread.run;com.shop.Cart.load 20
            """;

    @TempDir
    Path data;
    TestServer server;

    @BeforeEach
    void start() throws Exception {
        server = new TestServer(data, 1 << 20, null);
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
    }

    @Test
    void uploadOfCollapsedTextIsStoredListedAndRendered() throws Exception {
        TestServer.Reply created = server.post("?name=checkout&labels=service=shop,env=test", STACKS);
        assertEquals(201, created.status(), created.body());
        JsonNode rec = created.json();
        String id = rec.get("id").asText();
        assertEquals(16, id.length());
        assertEquals("checkout", rec.get("name").asText());
        assertEquals("shop", rec.get("labels").get("service").asText());
        assertEquals(100, rec.get("kinds").get("cpu").get("weight").asLong());

        TestServer.Reply again = server.post("", STACKS);
        assertEquals(200, again.status());
        assertEquals(id, again.json().get("id").asText());

        JsonNode list = server.get("/api/recordings").json();
        assertEquals(1, list.get("total").asLong());
        assertEquals(id, list.get("recordings").get(0).get("id").asText());
        assertEquals(1, list.get("facets").get("labels").get("service=shop").asLong());
        assertEquals(1, list.get("facets").get("kinds").get("cpu").asLong());

        JsonNode detail = server.get("/api/recordings/" + id).json();
        assertEquals(id, detail.get("id").asText());
        assertTrue(detail.has("threads") && detail.has("timeline"));

        JsonNode flame = server.get("/api/recordings/" + id + "/flame?kind=cpu").json();
        assertEquals(100, flame.get("total").asLong());
        JsonNode nodes = flame.get("nodes");
        // all, Thread.run, Cart.load, Checkout.handle, HashMap.resize, Checkout.price
        assertEquals(6, nodes.get("name").size());
        assertEquals(6, nodes.get("count").get(0).asInt());
        assertEquals("java.lang.Thread.run", flame.get("names").get(nodes.get("name").get(1).asInt()).asText());
        assertEquals("com.shop.Cart.load", flame.get("names").get(nodes.get("name").get(2).asInt()).asText());
        assertEquals(80, nodes.get("total").get(3).asLong());
        assertEquals(-1, nodes.get("parent").get(0).asInt());
        assertEquals(3, nodes.get("parent").get(4).asInt());
    }

    @Test
    void aRecordingWhoseIndexEntryFailsIsRetriedInTheBackgroundUntilItIsFound() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        CountDownLatch stateSeen = new CountDownLatch(1);
        // the hook each attempt at an entry runs first: the first fails as a full disk would, the retry waits until
        // the test has seen the recording's state
        server.server.library().beforeIndexing(info -> {
            if (attempts.incrementAndGet() == 1) {
                throw new UncheckedIOException(new IOException("no space left on device"));
            }
            try {
                stateSeen.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        TestServer.Reply created = server.post("?name=retried", STACKS);
        assertEquals(201, created.status(), created.body());
        String id = created.json().get("id").asText();

        // stored and shown, not found yet, and its state says why
        assertEquals(0, server.get("/api/recordings?q=id:" + id).json().get("total").asLong());
        JsonNode index = server.get("/api/recordings/" + id).json().get("index");
        assertEquals("retrying", index.get("state").asText(), index.toString());
        assertEquals(1, index.get("attempts").asInt());
        assertEquals("UncheckedIOException", index.get("error").asText());
        assertTrue(index.get("nextAttemptMillis").asLong() > 0);
        stateSeen.countDown();

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (server.get("/api/recordings?q=id:" + id).json().get("total").asLong() == 0) {
            assertTrue(System.nanoTime() < deadline, "the retried entry never became searchable");
            Thread.sleep(20); // between polls of the condition
        }
        assertEquals(2, attempts.get());
        assertEquals("indexed", server.get("/api/recordings/" + id).json().get("index").get("state").asText());
        assertEquals(100, server.get("/api/recordings/" + id + "/flame?kind=cpu").json().get("total").asLong());
    }
}
