package org.jfrworkbench.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.jfrworkbench.ui.UiServer.enc;
import static org.jfrworkbench.ui.UiServer.param;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.BoundingBox;
import org.jfrworkbench.testkit.Browser;
import org.jfrworkbench.testkit.ServiceRun;
import org.jfrworkbench.testkit.jfr.JfrWriter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Runs over time in Chromium: two runs of service=checkout 5 s apart (only the second calls audit) and a run of another
 * service; the service page reached from the label facet, a brushed range's merged flame graph, a second range's diff,
 * and one recording compared with itself at two ranges from its timeline.
 */
class UiRunsOverTimeIT extends BrowserTest {
    private static final long T0 = JfrWriter.START_NANOS;

    static String first;
    static String second;

    @BeforeAll
    static void start() throws Exception {
        first = upload("run1", "service=checkout", ServiceRun.of(T0, 200, 10, i -> i < 100 ? "parse" : "render"));
        second = upload("run2", "service=checkout",
                ServiceRun.of(T0 + 5_000_000_000L, 200, 10, i -> i % 2 == 0 ? "parse" : "audit"));
        upload("catalog", "service=catalog", ServiceRun.of(T0 + 1_000_000_000L, 50, 10, i -> "browse"));
    }

    static String upload(String name, String labels, byte[] body) throws Exception {
        return UiServer.upload(server, name, labels, HttpRequest.BodyPublishers.ofByteArray(body));
    }

    /** Drags across a brush's overlay from one fraction of its width to another. */
    private static void brush(Page page, String overlay, double from, double to) {
        Locator area = page.locator(overlay);
        area.scrollIntoViewIfNeeded();
        BoundingBox box = area.boundingBox();
        double y = box.y + box.height / 2;
        page.mouse().move(box.x + box.width * from, y);
        page.mouse().down();
        page.mouse().move(box.x + box.width * to, y, new com.microsoft.playwright.Mouse.MoveOptions().setSteps(5));
        page.mouse().up();
    }

    @Test
    void theServicePageMergesABrushedRangeAcrossRunsAndDiffsItWithASecondRange() throws Exception {
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = Browser.watched(context, errors);
            page.navigate("/");
            page.click(".facet-time[data-label='service=checkout']");
            page.waitForURL(u -> "service".equals(param(u, "page")));
            page.waitForFunction("() => document.querySelectorAll('#run-lanes .run-lane').length === 2");
            assertEquals(List.of("run1", "run2"), page.locator("#run-lanes .run-lane-name").evaluateAll(
                    "ts => ts.map(t => t.firstChild.textContent)"));
            String q = param(page.url(), "q");

            // a range over the second run only: its samples alone, audit among them
            brush(page, "#run-lanes .overlay", 0.6, 0.98);
            page.waitForURL(u -> param(u, "from") != null);
            String from = param(page.url(), "from");
            String to = param(page.url(), "to");
            JsonNode merged = UiServer.get(server, "/api/merged/flame?q=" + enc(q) + "&kind=cpu&from=" + from + "&to=" + to
                    + "&search=audit&literal=true");
            assertTrue(merged.get("total").asLong() > 0);
            assertEquals(second, merged.get("runs").get(0).get("id").asText());
            page.waitForSelector("#flame-status[data-weight='" + merged.get("total").asLong() + "']");
            page.waitForSelector(".flame-canvas[data-drawn]");
            assertEquals(List.of(second), page.locator("#runs-used .run-used").evaluateAll("rs => rs.map(r => r.dataset.id)"));
            page.fill("#flame-search", "audit");
            page.press("#flame-search", "Enter");
            double share = merged.get("search").get("share").asDouble();
            assertTrue(share > 0.4 && share < 0.6, "audit is half of the second run: " + share);
            page.waitForFunction("s => Math.abs(Number(document.querySelector('#match-info').dataset.share) - s) < 1e-6", share);

            // the state is the URL: a reload shows the same range and graph
            page.reload();
            page.waitForSelector("#flame-status[data-weight='" + merged.get("total").asLong() + "']");
            page.waitForSelector("#match-info[data-share]");
            Browser.screenshot(page, "service.png");

            // compare: the first run's range as the baseline, the second run's as the target
            page.navigate("/?page=service&q=" + enc(q) + "&kind=cpu");
            page.waitForSelector("#run-lanes .overlay");
            brush(page, "#run-lanes .overlay", 0.02, 0.4);
            page.waitForURL(u -> param(u, "from") != null);
            page.click("#compare-ranges");
            page.waitForURL(u -> param(u, "baseFrom") != null);
            page.waitForSelector("#run-mark");
            brush(page, "#run-lanes .overlay", 0.6, 0.98);
            page.waitForURL(u -> "diff".equals(param(u, "page")) && param(u, "targetFrom") != null);
            assertEquals(null, param(page.url(), "base"), "a diff of runs, not of two recordings");
            page.waitForSelector("#changes tbody tr");
            Locator audit = page.locator("#changes tbody tr[data-method='app.Service.audit']");
            assertTrue(audit.getAttribute("class").contains("significant"), "audit appears in the target");
            assertTrue(audit.locator("td.delta").first().getAttribute("class").contains("grows"));
            String baseRange = page.textContent("#base-range");
            assertTrue(baseRange.contains("UTC") && baseRange.contains("1 run"), baseRange);
            assertTrue(page.textContent("#target-range").contains("1 run"), page.textContent("#target-range"));
            // the diff's own permalink
            page.reload();
            page.waitForSelector("#changes tbody tr[data-method='app.Service.audit'].significant");
            Browser.screenshot(page, "diff-of-runs.png");
            // a side leads back to the service page at its range
            String baseFrom = param(page.url(), "baseFrom");
            String baseTo = param(page.url(), "baseTo");
            page.click(".diff-side.base .title-link");
            page.waitForURL(u -> "service".equals(param(u, "page")) && baseFrom.equals(param(u, "from")));
            JsonNode baseSide = UiServer.get(server, "/api/merged/flame?q=" + enc(q) + "&kind=cpu&from=" + baseFrom + "&to=" + baseTo);
            assertEquals(first, baseSide.get("runs").get(0).get("id").asText());
            page.waitForSelector("#flame-status[data-weight='" + baseSide.get("total").asLong() + "']");

            // the target side's runs from another search: the other service's run over the whole span
            page.navigate("/?page=diff&q=" + enc(q) + "&targetQ=" + enc("service:catalog") + "&kind=cpu&baseFrom=" + baseFrom
                    + "&baseTo=" + baseTo + "&targetFrom=" + baseFrom + "&targetTo=" + (Long.parseLong(baseTo) + 10_000));
            page.waitForSelector("#changes tbody tr[data-method='app.Service.browse']");
            assertEquals("service:catalog", page.textContent(".diff-side.target .title-link"));
            assertTrue(page.textContent("#target-range").contains("1 run"), page.textContent("#target-range"));
            page.click("#swap");
            page.waitForURL(u -> "service:catalog".equals(param(u, "q")));
            page.waitForFunction("() => document.querySelector('.diff-side.base .title-link')?.textContent === 'service:catalog'");
        }
        assertEquals(List.of(), errors);
    }

    @Test
    void aDiffOfRunsLinksHeadAsksForTheSearchAndTheDiffItsPageFetchesEachOnce() {
        long t0 = T0 / 1_000_000;
        String q = "label:\"service=checkout\"";
        // the first run against the second (5 s later): audit only in the target
        String link = "/?page=diff&q=" + enc(q) + "&kind=cpu&baseFrom=" + t0 + "&baseTo=" + (t0 + 4000)
                + "&targetFrom=" + (t0 + 4000) + "&targetTo=" + (t0 + 9000);
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            List<String> asked = new java.util.concurrent.CopyOnWriteArrayList<>();
            context.onRequest(r -> {
                URI u = URI.create(r.url());
                asked.add(u.getRawPath() + (u.getRawQuery() == null ? "" : "?" + u.getRawQuery()));
            });
            Page page = Browser.watched(context, errors);
            page.navigate(link);
            page.waitForSelector("#changes tbody tr[data-method='app.Service.audit'].significant");
            @SuppressWarnings("unchecked")
            List<String> named = ((List<String>) page.evaluate("() => [...document.querySelectorAll('link[rel=preload][as=fetch]')]"
                    + ".map(l => l.getAttribute('href'))"));
            assertEquals(2, named.size(), String.valueOf(named));
            assertTrue(named.get(0).startsWith("/api/recordings?q=") && named.get(1).startsWith("/api/merged/diff?q="), String.valueOf(named));
            // a URL the head writes otherwise than the page's code would be asked for twice (or an unused one once)
            assertEquals(named.stream().sorted().toList(), asked.stream().filter(u -> u.startsWith("/api/")).sorted().toList(),
                    "the page's data is what its head asked for, each once");
        }
        assertEquals(List.of(), errors);
    }

    @Test
    void theServicePageFitsAPhoneAndFollowsDarkMode() {
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.chromium.newContext(new com.microsoft.playwright.Browser.NewContextOptions()
                .setViewportSize(390, 844).setColorScheme(com.microsoft.playwright.options.ColorScheme.DARK)
                .setBaseURL(server.baseUrl()))) {
            Page page = Browser.watched(context, errors);
            page.navigate("/?page=service&q=" + enc("service:checkout"));
            page.waitForSelector("#run-lanes .run-lane-bars");
            page.waitForSelector(".flame-canvas[data-drawn]");
            assertEquals(0, ((Number) page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")).intValue(),
                    "the page scrolls sideways");
            // the bars in the dark scheme's colour, the lane names in its text colour
            assertEquals("rgb(90, 127, 196)", page.evaluate("() => getComputedStyle(document.querySelector('.run-lane-bars')).fill"));
            assertEquals(page.evaluate("() => getComputedStyle(document.body).color"),
                    page.evaluate("() => getComputedStyle(document.querySelector('.run-lane-name')).fill"));
            Browser.screenshot(page, "service-390-dark.png");
        }
        assertEquals(List.of(), errors);
    }

    @Test
    void allocationsAcrossRunsAreWeighedInBytesOrCountedInSamples() throws Exception {
        upload("alloc1", "service=alloc", ServiceRun.of(T0 + 30_000_000_000L, 40, 10, i -> "parse", 1000));
        upload("alloc2", "service=alloc", ServiceRun.of(T0 + 31_000_000_000L, 60, 10, i -> "render", 500));
        JsonNode bytes = UiServer.get(server, "/api/timeline?q=" + enc("service:alloc") + "&kind=alloc");
        assertEquals(40, bytes.get("runs").get(0).get("kinds").get("alloc").get("samples").asLong());
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = Browser.watched(context, errors);
            page.navigate("/?page=service&q=" + enc("service:alloc") + "&kind=alloc");
            page.waitForSelector(".flame-canvas[data-drawn]");
            // upscaled bytes: at least what was allocated (40 x 1000 + 60 x 500)
            page.waitForFunction("() => Number(document.querySelector('#flame-status').dataset.weight) >= 70000");
            assertTrue(page.isVisible(".weight-picker"));
            page.selectOption("#weight", "samples");
            page.waitForURL(u -> "samples".equals(param(u, "weight")));
            page.waitForSelector("#flame-status[data-weight='100']");
            page.click("#tab-cpu");
            page.waitForURL(u -> param(u, "weight") == null);
            assertTrue(page.locator(".weight-picker").isHidden(), "CPU samples have no bytes to weigh");
        }
        assertEquals(List.of(), errors);
    }

    @Test
    void markupInRunNamesAndLabelsIsShownAsText() throws Exception {
        String name = "<img src=x onerror=window.__pwned=1>";
        upload(name, "service=hostile,team=<script>window.__pwned=1</script>",
                ServiceRun.of(T0 + 20_000_000_000L, 50, 10, i -> "work"));
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = Browser.watched(context, errors);
            page.navigate("/");
            page.waitForSelector(".facet-time[data-label='service=hostile']");
            assertTrue(page.locator(".facets").textContent().contains("team=<script>"), "a label as text");
            page.click(".facet-time[data-label='service=hostile']");
            page.waitForSelector("#run-lanes .run-lane");
            assertEquals(name, page.locator("#run-lanes .run-lane-name title").textContent().split("\n")[0]);
            page.waitForSelector("#runs-used .run-used");
            assertEquals(name, page.textContent("#runs-used .run-used a"));
            assertEquals(0, page.locator("#app img, #app script").count(), "no element from a name or label");
            // a run's name opens its recording
            page.click("#run-lanes .run-lane-link");
            page.waitForURL(u -> "recording".equals(param(u, "page")));
            assertEquals(name, page.textContent("h1.title"));
            assertEquals(true, page.evaluate("() => window.__pwned === undefined"));
        }
        assertEquals(List.of(), errors);
    }

    @Test
    void aRecordingComparesTwoOfItsOwnRangesOnTheDiffPage() throws Exception {
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = Browser.watched(context, errors);
            page.navigate("/?page=recording&id=" + first + "&kind=cpu");
            page.waitForSelector("#timeline .overlay");
            page.click("#compare-ranges");
            page.waitForFunction("() => document.querySelector('#compare-info').textContent === 'Brush range A'");
            // the first run calls parse in its first second, render in its second
            brush(page, "#timeline .overlay", 0.02, 0.45);
            page.waitForURL(u -> param(u, "baseFrom") != null);
            page.waitForFunction("() => document.querySelector('#compare-info').textContent.includes('now brush range B')");
            brush(page, "#timeline .overlay", 0.55, 0.98);
            page.waitForURL(u -> "diff".equals(param(u, "page")));
            assertEquals(first, param(page.url(), "base"));
            assertEquals(first, param(page.url(), "id"));
            assertTrue(Long.parseLong(param(page.url(), "baseTo")) <= Long.parseLong(param(page.url(), "targetFrom")));
            page.waitForSelector("#changes tbody tr");
            assertEquals("Diff of two ranges", page.textContent("h1.title"));
            assertTrue(page.locator("#changes tbody tr[data-method='app.Service.render'] td.delta").first()
                    .getAttribute("class").contains("grows"));
            assertTrue(page.locator("#changes tbody tr[data-method='app.Service.parse'] td.delta").first()
                    .getAttribute("class").contains("shrinks"));
            String baseRange = page.textContent("#base-range");
            String targetRange = page.textContent("#target-range");
            assertTrue(baseRange.matches("\\d+\\.\\d\\d s \u2013 \\d+\\.\\d\\d s"), baseRange);
            assertTrue(targetRange.matches("\\d+\\.\\d\\d s \u2013 \\d+\\.\\d\\d s"), targetRange);
            Browser.screenshot(page, "diff-of-ranges.png");
        }
        assertEquals(List.of(), errors);
    }
}
