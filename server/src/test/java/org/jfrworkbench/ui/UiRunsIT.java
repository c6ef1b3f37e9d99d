package org.jfrworkbench.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Page;
import org.jfrworkbench.server.library.Runs;
import org.jfrworkbench.testkit.Browser;
import org.jfrworkbench.testkit.jfr.JfrChunks;
import org.jfrworkbench.testkit.process.ChildJvm;
import org.jfrworkbench.testkit.workload.UploadingWorkload;
import org.junit.jupiter.api.Test;

/**
 * Runs in Chromium: several files combined into one recording at upload, and the page of a run that grows (parts
 * posted over HTTP, and the real agent uploading from a child JVM).
 */
class UiRunsIT extends BrowserTest {
    static final Path CHECKOUT = Path.of(System.getProperty("samples.dir", "../sample-recordings"), "checkout-before.jfr");


    private static HttpResponse<String> post(String query, byte[] body) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/api/recordings" + query))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void severalFilesCombinedAtUploadAreOneRecordingOfTheirChunksInNameOrder() throws Exception {
        List<byte[]> chunks = JfrChunks.split(CHECKOUT);
        // numbers in names sort as numbers: part-10 is after part-9
        // a .gz part is decompressed in the browser: the run's parts are JFR chunks
        String[] names = {"dump-part-1.jfr", "dump-part-2.jfr", "dump-part-9.jfr.gz", "dump-part-10.jfr"};
        Path dir = Files.createDirectories(temp.resolve("dump"));
        Path[] files = new Path[names.length];
        for (int i = 0; i < names.length; i++) {
            files[i] = dir.resolve(names[i]);
            try (var out = names[i].endsWith(".gz") ? new java.util.zip.GZIPOutputStream(Files.newOutputStream(files[i]))
                    : Files.newOutputStream(files[i])) {
                out.write(chunks.get(i));
            }
        }
        long before = UiServer.get(server, "/api/recordings").get("total").asLong();
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = Browser.watched(context, errors);
            page.navigate("/");
            page.waitForSelector("#dropzone");
            page.check("#upload-combine");
            page.setInputFiles("#file-input", new Path[] {files[3], files[1], files[0], files[2]});
            page.waitForSelector("#uploads li.done a");
            assertTrue(page.textContent("#uploads").contains("4 parts in one recording"), page.textContent("#uploads"));
            page.waitForFunction("() => (document.querySelector('#recordings-count') || {}).textContent === '"
                    + (before + 1) + " recording" + (before == 0 ? "" : "s") + "'");
            String row = page.textContent("#recordings tbody tr:has-text('dump-part-1.jfr')");
            assertTrue(row.contains("4 parts, ended"), row);
        }
        assertEquals(List.of(), errors);

        JsonNode list = UiServer.get(server, "/api/recordings?q=" + UiServer.enc("name:\"dump-part-1.jfr\""));
        assertEquals(1, list.get("total").asLong());
        JsonNode run = list.get("recordings").get(0);
        assertEquals(4, run.get("parts").asInt());
        HttpResponse<String> whole = post("?name=whole", Files.readAllBytes(CHECKOUT));
        JsonNode plain = new ObjectMapper().readTree(whole.body());
        assertEquals(plain.get("kinds"), run.get("kinds"), "the parts in name order are the file's chunks in order");
        assertEquals(plain.get("durationMillis"), run.get("durationMillis"));
    }

    @Test
    void thePageOfAGrowingRunShowsANewPartWithoutLeavingItsRange() throws Exception {
        List<byte[]> chunks = JfrChunks.split(CHECKOUT);
        String key = "ui-live-run";
        String id = Runs.id(key);
        // the run's time starts where the JVM's first chunk does, whichever part the server has
        long runStart = new ObjectMapper().readTree(post("", chunks.get(0)).body()).get("startMillis").asLong();
        assertEquals(201, post("?run=" + key + "&chunk=0&name=live&runStart=" + runStart, chunks.get(1)).statusCode());
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = Browser.watched(context, errors);
            String range = "from=0&to=600000";
            page.navigate("/?page=recording&id=" + id + "&kind=cpu&" + range);
            page.waitForFunction("() => (document.querySelector('#run-state') || {}).textContent === '1 part, growing'");
            page.waitForFunction("() => /frames/.test(document.querySelector('#flame-status').textContent)");
            String shown = page.textContent("#flame-status");

            assertEquals(200, post("?run=" + key + "&chunk=1", chunks.get(3)).statusCode());
            // the page asks by itself; nothing here navigates or reloads it
            page.waitForFunction("() => (document.querySelector('#run-state') || {}).textContent === '2 parts, growing'",
                    null, new Page.WaitForFunctionOptions().setTimeout(60_000));
            page.waitForFunction("() => /frames/.test(document.querySelector('#flame-status').textContent)");
            assertNotEquals(shown, page.textContent("#flame-status"));
            long samples = UiServer.get(server, "/api/recordings/" + id + "/flame?kind=cpu&" + range).get("samples").asLong();
            assertTrue(page.textContent("#flame-status").contains(String.format(java.util.Locale.ROOT, "%,d", samples))
                    || page.textContent("#flame-status").contains(Long.toString(samples)), page.textContent("#flame-status") + " vs " + samples);
            assertEquals("0", UiServer.param(page.url(), "from"));
            assertEquals("600000", UiServer.param(page.url(), "to"));

            // once ended, the page asks no more
            assertEquals(200, post("?run=" + key + "&last=true", new byte[0]).statusCode());
            page.waitForFunction("() => (document.querySelector('#run-state') || {}).textContent === '2 parts, ended'",
                    null, new Page.WaitForFunctionOptions().setTimeout(60_000));
        }
        assertEquals(List.of(), errors);
    }

    @Test
    void theAgentsRunGrowsOnItsOpenPage() throws Exception {
        Path appLog = temp.resolve("agent-app.log");
        Process app = ChildJvm.current().launch(List.of(
                ChildJvm.agent("dir=" + temp.resolve("spool") + ",interval=1s,upload=" + server.baseUrl() + ",label.service=ui-agent"),
                "-cp", Path.of(UploadingWorkload.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString(),
                UploadingWorkload.class.getName()), appLog);
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            String list = "/api/recordings?q=" + UiServer.enc("label:service=ui-agent");
            ChildJvm.await(app, appLog, () -> UiServer.get(server, list).get("total").asLong() == 1, () -> "no run yet");
            String id = UiServer.get(server, list).get("recordings").get(0).get("id").asText();
            Page page = Browser.watched(context, errors);
            page.navigate("/?page=recording&id=" + id);
            page.waitForSelector("#run-state.growing");
            int shown = parts(page.textContent("#run-state"));
            // the agent sends a part a second; the page shows them by itself
            ChildJvm.await(app, appLog, () -> {
                String now = page.textContent("#run-state");
                return now.endsWith("growing") && parts(now) >= shown + 2;
            }, () -> page.textContent("#run-state"));
            assertEquals(id, UiServer.param(page.url(), "id"));
            ChildJvm.stop(app, appLog);
            assertEquals(1, UiServer.get(server, list).get("total").asLong(), "one process, one recording");
        } finally {
            app.destroyForcibly();
        }
        assertEquals(List.of(), errors);
    }

    /** The parts count of a run-state text ("12 parts, growing"). */
    private static int parts(String runState) {
        return Integer.parseInt(runState.substring(0, runState.indexOf(' ')));
    }
}
