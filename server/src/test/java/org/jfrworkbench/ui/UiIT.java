package org.jfrworkbench.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.BoundingBox;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.testkit.Browser;
import org.jfrworkbench.testkit.TestRecordings;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** The web UI end to end in Chromium against the real server: upload, flame graph, permalinks, diff, heap. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class UiIT extends BrowserTest {
    static Path mapHeavy;
    static Path sortHeavy;

    @BeforeAll
    static void start() throws Exception {
        mapHeavy = TestRecordings.record(temp.resolve("checkout-maps.jfr"), true, 1500);
        sortHeavy = TestRecordings.record(temp.resolve("checkout-sort.jfr"), false, 1500);
    }

    @Test
    @Order(1)
    void uploadedRecordingShowsAFlameGraphWhoseZoomSearchAndRangeSurviveAPermalink() {
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = Browser.watched(context, errors);
            page.navigate("/");
            page.fill("#upload-labels", "service=checkout,env=test");
            page.setInputFiles("#file-input", mapHeavy);
            page.waitForSelector("#uploads li.done");
            assertEquals("1", page.getAttribute("#uploads li.done progress", "value"));
            page.waitForSelector("#recordings tbody tr");
            assertTrue(page.textContent("#recordings").contains("service=checkout"));
            Browser.screenshot(page, "recordings.png");

            page.click("#uploads li.done a");
            Locator canvas = page.locator(".flame-canvas");
            page.waitForSelector(".flame-canvas[data-drawn]");
            assertEquals(page.evaluate(Browser.DRAWABLE_FRAMES), page.getAttribute(".flame-canvas", "data-drawn"),
                    "every frame of the JSON tree wide enough to see is drawn from the binary one");
            page.waitForSelector("#hot-methods .vbody .vrow"); // built after the graph has painted
            assertTrue(page.locator("#hot-methods .vbody .vrow").count() > 5, "hot methods listed");
            @SuppressWarnings("unchecked")
            List<String> apiKinds = (List<String>) page.evaluate(API_KINDS);
            assertEquals(Arrays.stream(Kind.values()).map(Kind::id).filter(apiKinds::contains).toList(), apiKinds,
                    "the API lists kinds in the server's order");
            assertEquals(apiKinds, page.locator(".tab").evaluateAll("tabs => tabs.map(t => t.dataset.kind)"),
                    "a tab per kind with samples, in the API's order");
            assertTrue(apiKinds.size() > 1, "kinds: " + apiKinds);
            assertEquals(apiKinds.get(0), page.getAttribute(".tab[aria-selected=true]", "data-kind"), "the upload opens the first kind");

            page.click("#search-regex");
            page.click("#flame-search");
            page.keyboard().type("HashMap|TreeMap");
            page.keyboard().press("Enter");
            page.waitForSelector("#match-info[data-share]");
            double share = Double.parseDouble(page.getAttribute("#match-info", "data-share"));
            assertTrue(share > 0 && share <= 1, "matched share " + share);
            assertTrue(page.url().contains("search="), page.url());

            zoomIntoAFrame(page, canvas);
            String zoomPath = page.getAttribute(".crumbs", "data-path");
            assertTrue(!zoomPath.isEmpty() && page.url().contains("zoom="), "zoomed: " + page.url());

            brushTimeline(page, 0.15, 0.85);
            page.waitForURL(u -> u.contains("from=") && u.contains("to="));
            // the range's own tree drawn (each tree's first drawing is marked) and counted
            page.waitForFunction("() => performance.getEntriesByName('workbench:drawn').length >= 2");
            page.waitForSelector(".flame-canvas[data-drawn]");
            page.waitForFunction("() => document.querySelector('#flame-status').textContent.includes('frames')");
            Browser.screenshot(page, "recording.png");
            View before = View.of(page);
            assertEquals(zoomPath, before.zoomPath, "zoom kept across the range change");

            page.click("#copy-link");
            String link = (String) page.evaluate("() => navigator.clipboard.readText()");
            assertEquals(page.url(), link);

            try (BrowserContext fresh = browser.newContext(server.baseUrl())) {
                Page restored = Browser.watched(fresh, errors);
                restored.navigate(link);
                restored.waitForSelector(".flame-canvas[data-drawn]");
                restored.waitForSelector("#match-info[data-share]");
                assertEquals(before, View.of(restored), "the permalink restores the same view");
                assertEquals("flame 1, metadata 1, asked before the page's code: true", restored.evaluate(EARLY_DATA),
                        "the entry module asks for the view's data once, before the page's code runs; the page uses those responses");

                restored.click("#hot-methods .vhead .vcell:nth-child(3) button");
                restored.waitForURL(u -> u.contains("sort=total"));
                assertEquals("descending", restored.getAttribute("#hot-methods .vhead .vcell:nth-child(3)", "aria-sort"));
                List<String> totals = restored.locator("#hot-methods .vbody .vrow .vcell:nth-child(3) span").allTextContents();
                assertTrue(percent(totals.get(0)) >= percent(totals.get(totals.size() - 1)), "sorted by total: " + totals);

                restored.locator("body").press("Escape");
                restored.waitForFunction("() => document.querySelector('.crumbs').dataset.path === ''");
                restored.goBack();
                restored.waitForFunction("p => document.querySelector('.crumbs').dataset.path === p", zoomPath);
                restored.locator("body").press("i");
                restored.waitForURL(u -> u.contains("invert=1"));
                restored.waitForSelector(".flame-canvas[data-drawn]");
                assertTrue(restored.isChecked("#invert"));
            }

            page.goBack();
            page.waitForFunction("() => !location.search.includes('from=')");
            page.waitForFunction("() => document.querySelector('#range-info').textContent === 'Whole recording'");
            page.goForward();
            page.waitForFunction("() => document.querySelector('#range-info').textContent.startsWith('Range')");
        }
        assertEquals(List.of(), errors);
    }

    @Test
    @Order(2)
    void searchAndFacetsFilterTheListAndTwoPickedRecordingsOpenAColouredDiff() {
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = Browser.watched(context, errors);
            page.navigate("/");
            page.setInputFiles("#file-input", sortHeavy);
            page.waitForSelector("#uploads li.done");
            page.waitForFunction("() => document.querySelectorAll('#recordings tbody tr').length >= 2");

            page.locator("button.facet", new Page.LocatorOptions().setHasText("service=checkout")).click();
            page.waitForURL(u -> u.contains("q="));
            page.waitForFunction("() => document.querySelector('#recordings-count').textContent === '1 recording'");
            assertEquals("label:\"service=checkout\"", page.inputValue("#recordings-search"));
            assertEquals("checkout-maps.jfr", page.textContent("#recordings a.title-link"));
            page.fill("#recordings-search", "kind:cpu");
            page.press("#recordings-search", "Enter");
            page.waitForFunction("() => document.querySelector('#recordings-count').textContent === '2 recordings'");
            page.goBack();
            page.waitForFunction("() => document.querySelector('#recordings-count').textContent === '1 recording'");
            page.press("#recordings-search", "Escape");
            page.waitForFunction("() => document.querySelectorAll('#recordings tbody tr').length >= 2");

            page.locator("#recordings input.pick").nth(0).check();
            page.locator("#recordings input.pick").nth(1).check();
            page.click("#compare");
            page.waitForURL(u -> u.contains("page=diff") && u.contains("base="));
            page.waitForSelector(".flame-canvas[data-drawn]");
            page.waitForSelector("#changes tbody tr");
            assertTrue(Integer.parseInt(page.getAttribute(".flame-canvas", "data-drawn")) > 10);
            // the merged graph came in the binary form and is coloured by change: reds (grows) and blues (shrinks)
            assertEquals(Boolean.TRUE, page.evaluate("() => performance.getEntriesByType('resource')"
                    + ".some(e => e.name.includes('/api/diff?') && e.name.includes('format=binary'))"));
            @SuppressWarnings("unchecked")
            Map<String, Number> hues = (Map<String, Number>) page.evaluate("() => { const c = document.querySelector('.flame-canvas');"
                    + " const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let red = 0, blue = 0;"
                    + " for (let i = 0; i < d.length; i += 4) { if (d[i] > d[i + 2] + 60 && d[i] > d[i + 1] + 60) red++;"
                    + " else if (d[i + 2] > d[i] + 60) blue++; } return { red, blue }; }");
            assertTrue(hues.get("red").intValue() > 100 && hues.get("blue").intValue() > 100, "diff colours: " + hues);
            Browser.screenshot(page, "diff.png");
        }
        assertEquals(List.of(), errors);
    }

    @Test
    @Order(3)
    void heapPageScalesTheLiveHeapToAPickedGc() {
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = Browser.watched(context, errors);
            page.navigate("/");
            page.click("#recordings tbody tr:last-child a.title-link");
            page.waitForSelector(".flame-canvas[data-drawn]");
            page.click("#heap-link");
            page.waitForSelector("#gc-chart .gc");
            int gcs = page.locator("#gc-chart .gc").count();
            assertTrue(gcs >= 2, "GCs drawn: " + gcs);
            int picked = gcs - 2;
            page.locator("#gc-chart .gc").nth(picked).locator(".gc-hit").click(new Locator.ClickOptions().setForce(true));
            page.waitForURL(u -> u.contains("gc=" + picked));
            page.waitForSelector("#gc-chart .gc.selected");
            page.waitForSelector("#live-summary, .message");
            assertEquals(String.valueOf(picked), page.inputValue("#gc-select"));
            assertEquals(1, page.locator("#gc-chart .gc.selected").count());
            if (page.locator("#live-summary").count() > 0) {
                page.waitForSelector("#live-classes tbody tr");
            }
            Browser.screenshot(page, "heap.png");
        }
        assertEquals(List.of(), errors);
    }

    @Test
    @Order(4)
    void aBrokenUploadShowsTheServersMessageAndStoresNothing() throws Exception {
        Path broken = temp.resolve("broken.jfr");
        Files.write(broken, new byte[] {'F', 'L', 'R', 0, 9, 9, 9, 9, 1, 2, 3});
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = Browser.watched(context, errors);
            page.navigate("/");
            page.waitForSelector("#recordings-count");
            String countBefore = page.textContent("#recordings-count");
            page.setInputFiles("#file-input", broken);
            page.waitForSelector("#uploads li.failed");
            String status = page.textContent("#uploads li.failed .upload-status");
            assertTrue(status.startsWith("Failed: ") && status.length() > "Failed: ".length() + 5, status);
            page.reload();
            page.waitForSelector("#recordings-count");
            assertEquals(countBefore, page.textContent("#recordings-count"));
        }
        // the browser itself logs the 4xx answer of the upload; nothing else may appear
        errors.removeIf(e -> e.contains("Failed to load resource") && e.contains("status of 4"));
        assertEquals(List.of(), errors);
    }

    @Test
    @Order(5)
    void aRecordingWithoutLiveSamplesSaysHowToRecordThem() throws Exception {
        Path noLive = TestRecordings.record(temp.resolve("no-live.jfr"), false, 800, false);
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = uploadAndOpen(Browser.watched(context, errors), noLive, null);
            page.click("#heap-link");
            page.waitForSelector(".message");
            String text = page.textContent(".message");
            assertTrue(text.contains("live=true") && text.contains("asprof -e alloc --live"), text);
            Browser.screenshot(page, "heap-no-live.png");
        }
        assertEquals(List.of(), errors);
    }

    @Test
    @Order(6)
    void compareWithPicksARecordingOfTheSameServiceAndOpensTheDiffEitherWay() throws Exception {
        Path v2 = TestRecordings.record(temp.resolve("checkout-v2.jfr"), true, 800, false);
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = uploadAndOpen(Browser.watched(context, errors), v2, "service=checkout");
            String v2Id = param(page.url(), "id");

            // keyboard: the picker opens with Enter and offers the other recording of service=checkout only
            page.focus("#compare-button");
            page.keyboard().press("Enter");
            page.waitForSelector("#compare-list li");
            assertEquals("label:\"service=checkout\"", page.inputValue("#compare-search"));
            assertEquals(List.of("checkout-maps.jfr"), page.locator("#compare-list .title-text").allTextContents());
            Browser.screenshot(page, "compare-picker.png");
            page.click("#compare-list li .as-baseline");
            page.waitForURL(u -> u.contains("page=diff"));
            page.waitForSelector(".flame-canvas[data-drawn]");
            assertEquals(v2Id, param(page.url(), "id"), "this recording is the target");
            assertEquals("checkout-maps.jfr", page.textContent(".diff-side.base .title-link"));
            assertEquals("checkout-v2.jfr", page.textContent(".diff-side.target .title-link"));

            // back on the recording page, an emptied search lists every other recording
            page.goBack();
            page.waitForSelector("#compare-button");
            page.click("#compare-button");
            page.fill("#compare-search", "");
            page.press("#compare-search", "Enter");
            page.waitForFunction("() => [...document.querySelectorAll('#compare-list .title-text')].some(e => e.textContent === 'checkout-sort.jfr')");
            assertTrue(page.locator("#compare-list .title-text").allTextContents().stream().noneMatch("checkout-v2.jfr"::equals),
                    "the recording itself is not offered");
            page.locator("#compare-list li", new Page.LocatorOptions().setHasText("checkout-sort.jfr")).locator(".as-target").click();
            page.waitForURL(u -> u.contains("page=diff") && u.contains("base=" + v2Id));
            page.waitForSelector(".flame-canvas[data-drawn]");
            assertEquals("checkout-v2.jfr", page.textContent(".diff-side.base .title-link"));
            assertEquals("checkout-sort.jfr", page.textContent(".diff-side.target .title-link"));
        }
        assertEquals(List.of(), errors);
    }

    @Test
    @Order(7)
    void pagesFitTheWindowAndShowTheFlameGraphRootAt1280AndAtFullHd() {
        List<String> errors = Browser.errors();
        for (int[] size : new int[][] {{1280, 800}, {1920, 1080}}) {
            try (BrowserContext context = browser.chromium.newContext(new com.microsoft.playwright.Browser.NewContextOptions()
                    .setViewportSize(size[0], size[1]).setBaseURL(server.baseUrl()))) {
                Page page = Browser.watched(context, errors);
                page.navigate("/");
                page.waitForSelector("#recordings tbody tr");
                assertFits(page, "recordings", size[0]);
                page.click("#recordings tbody tr:first-child a.title-link");
                page.waitForSelector(".flame-canvas[data-drawn]");
                page.waitForSelector("#timeline svg .bars");
                assertFits(page, "recording", size[0]);
                BoundingBox canvas = page.locator(".flame-canvas").boundingBox();
                BoundingBox column = page.locator(".flame-col").boundingBox();
                assertTrue(canvas.width > column.width - 40 && canvas.width <= column.width,
                        "the flame graph fills its column at " + size[0] + ": " + canvas.width + " of " + column.width);
                BoundingBox graph = page.locator(".flame-body").boundingBox();
                assertTrue(graph.y + graph.height <= size[1], "the graph's root row is above the fold at " + size[1]
                        + " px: the graph box ends at " + (graph.y + graph.height));
                if (size[0] > 1280) {
                    Browser.screenshot(page, "recording-" + size[0] + ".png");
                }
            }
        }
        assertEquals(List.of(), errors);
    }

    private static void assertFits(Page page, String what, int width) {
        Object overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth");
        assertEquals(0, ((Number) overflow).intValue(), what + " page scrolls sideways at " + width + " px");
    }

    /** Uploads a file through the recordings page and opens its flame graph from the upload list. */
    private static Page uploadAndOpen(Page page, Path file, String labels) {
        page.navigate("/");
        if (labels != null) {
            page.fill("#upload-labels", labels);
        }
        page.setInputFiles("#file-input", file);
        page.waitForSelector("#uploads li.done");
        page.click("#uploads li.done a");
        page.waitForSelector(".flame-canvas[data-drawn]");
        return page;
    }

    private static String param(String url, String name) {
        for (String part : url.substring(url.indexOf('?') + 1).split("&")) {
            if (part.startsWith(name + "=")) {
                return part.substring(name.length() + 1);
            }
        }
        throw new AssertionError("no " + name + " in " + url);
    }

    /** The kinds with samples of the page's recording, as GET /api/recordings/{id} lists them. */
    static final String API_KINDS = """
            async () => {
              const id = new URLSearchParams(location.search).get('id');
              const kinds = (await (await fetch('/api/recordings/' + encodeURIComponent(id))).json()).kinds;
              return Object.keys(kinds).filter(k => kinds[k].samples > 0);
            }""";

    /** How often the page requested its flame graph and metadata, and whether both came before the app's code. */
    static final String EARLY_DATA = """
            () => {
              const requests = performance.getEntriesByType('resource').map(e => [new URL(e.name).pathname, e.startTime]);
              const flame = requests.filter(([path]) => /^\\/api\\/recordings\\/[^/]+\\/flame$/.test(path));
              const metadata = requests.filter(([path]) => /^\\/api\\/recordings\\/[^/]+$/.test(path));
              // the page's modules are asked for from the head, beside the entry: the data is asked for before they run
              const app = performance.getEntriesByName('workbench:app')[0];
              const first = app !== undefined && [...flame, ...metadata].every(([, at]) => at < app.startTime);
              return `flame ${flame.length}, metadata ${metadata.length}, asked before the page's code: ${first}`;
            }""";

    private static double percent(String text) {
        return Double.parseDouble(text.replace("%", ""));
    }

    private static void zoomIntoAFrame(Page page, Locator canvas) {
        BoundingBox box = canvas.boundingBox();
        for (int depth = 2; depth >= 1; depth--) {
            canvas.click(new Locator.ClickOptions().setPosition(4, box.height - 18 * depth - 9));
            if (!"0".equals(page.getAttribute(".flame-canvas", "data-zoom"))) {
                page.waitForURL(u -> u.contains("zoom="));
                return;
            }
        }
        throw new AssertionError("no frame to zoom into");
    }

    private static void brushTimeline(Page page, double from, double to) {
        Locator overlay = page.locator("#timeline .overlay");
        overlay.scrollIntoViewIfNeeded();
        BoundingBox box = overlay.boundingBox();
        double y = box.y + box.height / 2;
        page.mouse().move(box.x + box.width * from, y);
        page.mouse().down();
        page.mouse().move(box.x + box.width * to, y, new com.microsoft.playwright.Mouse.MoveOptions().setSteps(5));
        page.mouse().up();
    }

    /** What a user sees of a flame graph view, compared across browsers. */
    record View(String url, String zoomPath, String matchText, String share, String range, String kind, String drawn) {
        static View of(Page page) {
            String path = page.url().substring(page.url().indexOf('?'));
            return new View(path, page.getAttribute(".crumbs", "data-path"), page.textContent("#match-info"),
                    page.getAttribute("#match-info", "data-share"), page.textContent("#range-info"),
                    page.getAttribute(".tab[aria-selected=true]", "data-kind"), page.getAttribute(".flame-canvas", "data-drawn"));
        }
    }
}
