package org.jfrworkbench.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Download;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import org.jfrworkbench.testkit.Browser;
import org.jfrworkbench.testkit.TestRecordings;
import org.jfrworkbench.testkit.jfr.JfrWriter.Field;
import org.jfrworkbench.testkit.jfr.JfrWriter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The rough edges a new user hit, each fixed and checked in Chromium: upload states, recordings search messages,
 * file-name and method hits, GC numbers on the heap page, whole names in the compare picker, the Java version, and
 * figures in one unit per view.
 */
class UiRoughEdgesIT extends BrowserTest {
    static final String LONG_NAME = "checkout-service-eu-west-1-2026-11-20T10-00-00-instance-";

    static Path maps;
    static String mapsId;

    @BeforeAll
    static void start() throws Exception {
        maps = TestRecordings.record(temp.resolve("checkout-maps.jfr"), true, 1500);
        mapsId = upload(Files.readAllBytes(maps), "checkout-after.jfr", "service=checkout");
        Path sort = TestRecordings.record(temp.resolve("checkout-sort.jfr"), false, 800, false);
        upload(Files.readAllBytes(sort), "checkout-before.jfr", "service=checkout");
    }

    static String upload(byte[] bytes, String name, String labels) throws Exception {
        return UiServer.upload(server, name, labels, HttpRequest.BodyPublishers.ofByteArray(bytes));
    }

    static JsonNode get(String path) throws Exception {
        return UiServer.get(server, path);
    }

    /** Every class an upload row had, in order, seen by a MutationObserver from before the page's code runs. */
    static final String WATCH_UPLOAD_ROWS = """
            window.uploadRowClasses = [];
            new MutationObserver(changes => {
              for (const c of changes) {
                if (c.target.tagName === 'LI' && c.target.parentElement && c.target.parentElement.id === 'uploads') {
                  window.uploadRowClasses.push(c.target.className);
                }
              }
            }).observe(document, { subtree: true, attributes: true, attributeFilter: ['class'] });""";

    @Test
    void anUploadSaysWhenTheServerProcessesItAFailureIsRedAndTheSameBytesAgainAreNamedAlreadyUploaded() throws Exception {
        Path again = temp.resolve("again.jfr");
        Files.copy(maps, again);
        Path broken = temp.resolve("broken.jfr");
        Files.write(broken, new byte[] {'F', 'L', 'R', 0, 9, 9, 9, 9, 1, 2, 3});
        Path fresh = TestRecordings.record(temp.resolve("fresh.jfr"), false, 600, false);
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            context.addInitScript(WATCH_UPLOAD_ROWS);
            Page page = Browser.watched(context, errors);
            page.navigate("/");
            page.waitForSelector("#recordings tbody tr");

            page.setInputFiles("#file-input", fresh);
            page.waitForSelector("#uploads li.done");
            @SuppressWarnings("unchecked")
            List<String> seen = (List<String>) page.evaluate("() => window.uploadRowClasses");
            assertTrue(seen.contains("processing"), "the row said the server was processing after the last byte: " + seen);
            assertFalse(page.locator("#uploads li.done").getAttribute("class").contains("processing"));
            assertFalse(page.textContent("#uploads li.done").contains("Already"));

            page.setInputFiles("#file-input", again);
            page.waitForSelector("#uploads li.duplicate");
            String note = page.textContent("#uploads li.duplicate .upload-status");
            assertTrue(note.startsWith("Already uploaded: these bytes are stored as checkout-after.jfr"), note);
            assertEquals("Open checkout-after.jfr", page.textContent("#uploads li.duplicate a"));

            page.setInputFiles("#file-input", broken);
            page.waitForSelector("#uploads li.failed");
            String bar = (String) page.evaluate("() => getComputedStyle(document.querySelector('#uploads li.failed progress')).accentColor");
            String danger = (String) page.evaluate("() => getComputedStyle(document.querySelector('#uploads li.failed .upload-status')).color");
            assertEquals(danger, bar, "a failed row's bar is in the error colour, not the progress blue");
        }
        errors.removeIf(e -> e.contains("Failed to load resource") && e.contains("status of 4"));
        assertEquals(List.of(), errors);
    }

    @Test
    void theRecordingsSearchExplainsABadQueryFindsFileNamesAndShowsWhichMethodMatched() throws Exception {
        JsonNode hits = get("/api/search?q=method:HashMap&limit=200").get("hits");
        JsonNode best = null;
        for (JsonNode h : hits) {
            if (h.get("recording").get("id").asText().equals(mapsId)) {
                best = h;
                break;
            }
        }
        assertTrue(best != null, "the fixture runs HashMap methods");
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = Browser.watched(context, errors);
            page.navigate("/");
            page.waitForSelector("button.facet");

            page.fill("#recordings-search", "foo:(");
            page.press("#recordings-search", "Enter");
            page.waitForSelector("#search-error");
            assertTrue(page.textContent("#search-error strong").contains("parentheses do not pair up"), page.textContent("#search-error"));
            assertEquals(0, page.locator("button.facet").count(), "the facets of the last search are gone");
            assertEquals("No facets while the search cannot be read.", page.textContent(".facets .hint"));

            page.fill("#recordings-search", "checkout-after");
            page.press("#recordings-search", "Enter");
            page.waitForFunction("() => document.querySelector('#recordings-count')?.textContent === '1 recording'");
            assertEquals("checkout-after.jfr", page.textContent("#recordings a.title-link"));

            page.fill("#recordings-search", "method:HashMap");
            page.press("#recordings-search", "Enter");
            Locator row = page.locator("#recordings tbody tr[data-id='" + mapsId + "']");
            row.locator(".method-hit").first().waitFor();
            assertEquals(best.get("method").asText(), row.locator(".hit-method").first().textContent(), "the best hit first");
            String kindLabel = Map.of("cpu", "CPU", "alloc", "Allocations", "live", "Live objects", "wall", "Wall clock", "lock", "Locks")
                    .getOrDefault(best.get("kind").asText(), best.get("kind").asText());
            String share = String.format(Locale.ROOT, "%.2f%% of %s", 100 * best.get("totalShare").asDouble(), kindLabel);
            assertTrue(row.locator(".hit-share").first().textContent().contains(share),
                    row.locator(".hit-share").first().textContent() + " says " + share);

            // the hit opens the graph of its kind with the method searched
            row.locator(".hit-method").first().click();
            page.waitForSelector(".flame-canvas[data-drawn]");
            page.waitForSelector("#match-info[data-share]");
            assertEquals(best.get("kind").asText(), page.getAttribute(".tab[aria-selected=true]", "data-kind"));
            String search = page.inputValue("#flame-search");
            assertTrue(search.contains("HashMap") && search.startsWith("^"), search);
            assertTrue(Double.parseDouble(page.getAttribute("#match-info", "data-share")) > 0);
        }
        errors.removeIf(e -> e.contains("Failed to load resource") && e.contains("status of 400"));
        assertEquals(List.of(), errors);
    }

    @Test
    void theHeapPageNamesAGcByTheNumberInItsAddressAndExportNames() {
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = Browser.watched(context, errors);
            page.navigate("/?page=heap&id=" + mapsId);
            page.waitForSelector("#gc-chart .gc");
            int gcs = page.locator("#gc-select option").count();
            assertTrue(gcs >= 2, "GCs: " + gcs);
            int picked = gcs - 2;
            page.selectOption("#gc-select", String.valueOf(picked));
            page.waitForURL(u -> u.contains("gc=" + picked));
            page.waitForFunction("n => document.querySelector('#live-summary')?.textContent.startsWith('Live heap after GC ' + n + ' ')"
                    + " || document.querySelector('#live-summary')?.textContent.startsWith('Live heap after GC ' + n + ':')", picked);
            assertTrue(page.locator("#gc-select option").nth(picked).textContent().startsWith("GC " + picked + " "),
                    page.locator("#gc-select option").nth(picked).textContent());
            assertTrue(page.locator("#gc-chart .gc.selected title").textContent().startsWith("GC " + picked + " "));
            page.click(".flame-panel details.menu > summary");
            Download download = page.waitForDownload(() -> page.click("#export-collapsed"));
            assertTrue(download.suggestedFilename().endsWith("-live-gc" + picked + ".collapsed.txt"), download.suggestedFilename());
        }
        assertEquals(List.of(), errors);
    }

    @Test
    void theComparePickerShowsWholeNamesSoRunsNamedAlikeDiffer() throws Exception {
        byte[] a = Files.readAllBytes(TestRecordings.record(temp.resolve("names-0.jfr"), false, 500, false));
        byte[] b = Files.readAllBytes(TestRecordings.record(temp.resolve("names-1.jfr"), false, 500, false));
        String first = upload(a, LONG_NAME + "__0.jfr", "service=names");
        upload(b, LONG_NAME + "__1.jfr", "service=names");
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = Browser.watched(context, errors);
            page.navigate("/?page=recording&id=" + first);
            page.waitForSelector(".flame-canvas[data-drawn]");
            page.click("#compare-button");
            Locator name = page.locator("#compare-list .title-text");
            name.first().waitFor();
            assertEquals(List.of(LONG_NAME + "__1.jfr"), name.allTextContents());
            assertEquals(Boolean.TRUE, name.first().evaluate("e => e.scrollWidth <= e.clientWidth && e.getBoundingClientRect().right"
                    + " <= e.closest('.menu-items').getBoundingClientRect().right"), "the name is shown whole, not cut");
        }
        assertEquals(List.of(), errors);
    }

    @Test
    void aJava8RecordingSaysJava8AndLiveSamplesWithoutSizesAreCountedNotShownAsBytes() throws Exception {
        String id = upload(jdk8WithLiveSamples(9), "jdk8-old-objects.jfr", null);
        JsonNode live = get("/api/recordings/" + id).get("kinds").get("live");
        assertEquals(9, live.get("samples").asLong());
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = Browser.watched(context, errors);
            page.navigate("/?page=recording&id=" + id + "&kind=live");
            page.waitForSelector(".flame-canvas[data-drawn]");
            assertTrue(page.textContent(".page-head .facts").contains("Java 8 (1.8.0_144)"), page.textContent(".page-head .facts"));
            String status = page.textContent("#flame-status");
            assertTrue(status.startsWith("9 samples") && !status.contains(" B"), status);
            page.waitForSelector("#hot-methods .vbody .vrow");
            String figure = page.textContent("#hot-methods .vbody .vrow .vcell:nth-child(3) small");
            assertEquals("9 samples", figure);
        }
        assertEquals(List.of(), errors);
    }

    @Test
    void theStatusLineAndTheTablesCountTheSameWeightForOneView() {
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = Browser.watched(context, errors);
            for (String kind : List.of("cpu", "alloc")) {
                page.navigate("/?page=recording&id=" + mapsId + "&kind=" + kind + "&side=tree");
                page.waitForSelector("#call-tree .vrow[aria-rowindex='2']");
                String total = page.getAttribute("#call-tree .vrow[aria-rowindex='2'] .vcell:nth-child(3)", "title");
                String status = page.textContent("#flame-status");
                assertTrue(total.startsWith("Total: ") && status.startsWith(total.substring(7)), kind + ": '" + status + "' vs '" + total + "'");
            }
        }
        assertEquals(List.of(), errors);
    }

    /**
     * A JDK 8u144-like chunk (HotSpot calls itself 25.144) with count jdk.OldObjectSample events of JDK 8's shape:
     * no objectSize field.
     */
    static byte[] jdk8WithLiveSamples(int count) {
        JfrWriter w = new JfrWriter(JfrWriter.START_NANOS, 1_000_000_000L);
        w.type("jdk.types.Symbol", null, Field.of("string", "java.lang.String"));
        w.type("java.lang.Class", null, Field.pool("name", "jdk.types.Symbol"));
        w.type("jdk.types.Method", null, Field.pool("type", "java.lang.Class"), Field.pool("name", "jdk.types.Symbol"),
                Field.pool("descriptor", "jdk.types.Symbol"));
        w.type("jdk.types.StackFrame", null, Field.pool("method", "jdk.types.Method"), Field.of("lineNumber", "int"));
        w.type("jdk.types.StackTrace", null, Field.of("truncated", "boolean"), Field.array("frames", "jdk.types.StackFrame"));
        w.type("java.lang.Thread", null, Field.of("javaName", "java.lang.String"), Field.of("javaThreadId", "long"));
        w.type("jdk.JVMInformation", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                Field.of("jvmName", "java.lang.String"), Field.of("jvmVersion", "java.lang.String"));
        w.type("jdk.InitialSystemProperty", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                Field.of("key", "java.lang.String"), Field.of("value", "java.lang.String"));
        w.type("jdk.OldObjectSample", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                Field.pool("eventThread", "java.lang.Thread"), Field.pool("stackTrace", "jdk.types.StackTrace"),
                Field.timestamp("allocationTime", "long", "TICKS"));
        w.constant("jdk.types.Symbol", 1, "app/Cache").constant("jdk.types.Symbol", 2, "put")
                .constant("jdk.types.Symbol", 3, "()V");
        w.constant("java.lang.Class", 10, 1L);
        w.constant("jdk.types.Method", 20, 10L, 2L, 3L);
        w.constant("jdk.types.StackTrace", 30, false, List.<Object[]>of(new Object[] {20L, 7}));
        w.constant("java.lang.Thread", 5, "main", 1L);
        w.event("jdk.JVMInformation", 100L, "Java HotSpot(TM) 64-Bit Server VM",
                "Java HotSpot(TM) 64-Bit Server VM (25.144-b01) for linux-amd64 JRE (1.8.0_144-b01)");
        w.event("jdk.InitialSystemProperty", 100L, "java.vm.version", "25.144-b01");
        w.event("jdk.InitialSystemProperty", 100L, "java.version", "1.8.0_144");
        for (int i = 0; i < count; i++) {
            w.event("jdk.OldObjectSample", 1_000L + i * 1_000L, 5L, 30L, 500L + i * 1_000L);
        }
        return w.chunk();
    }
}
