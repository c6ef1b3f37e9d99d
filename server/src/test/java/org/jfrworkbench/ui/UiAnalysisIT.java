package org.jfrworkbench.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.jfrworkbench.ui.UiServer.enc;
import static org.jfrworkbench.ui.UiServer.param;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Download;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.BoundingBox;
import com.microsoft.playwright.options.MouseButton;
import org.jfrworkbench.testkit.Browser;
import org.jfrworkbench.testkit.TestRecordings;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The views on the analysis API in Chromium, on two recordings of different work: one method's sandwich, bytes or
 * samples as the weight of allocations, and the diff (significance colours and legend, one row per method in
 * percentage points with the test named, the per-second mode, filters per side with their warnings, both sides in
 * the collapsed export, a recording against itself, the graph painted before the table is built).
 */
class UiAnalysisIT extends BrowserTest {
    static String maps;
    static String sort;

    @BeforeAll
    static void start() throws Exception {
        maps = upload(TestRecordings.record(temp.resolve("checkout-maps.jfr"), true, 1500));
        sort = upload(TestRecordings.record(temp.resolve("checkout-sort.jfr"), false, 1500, false));
    }

    static String upload(Path file) throws Exception {
        return UiServer.upload(server, file, null);
    }

    static JsonNode get(String path) throws Exception {
        return UiServer.get(server, path);
    }


    @Test
    void aMethodsSandwichOpensFromItsHotMethodsRowTheCallTreeOrAFramesMenuAndItsFramesLeadOn() throws Exception {
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = Browser.watched(context, errors);
            // the fixture's own work: it has callers (the worker thread) and callees (the maps)
            page.navigate("/?page=recording&id=" + maps + "&kind=cpu&filter=fillMaps");
            page.waitForSelector("#hot-methods .vbody .vrow");
            Locator row = page.locator("#hot-methods .vbody .vrow").first();
            String method = row.getAttribute("data-name");
            row.locator(".sandwich-open").click();
            page.waitForURL(u -> method.equals(param(u, "method")));
            page.waitForSelector("#sandwich-figures[data-total]");
            JsonNode sandwich = get("/api/recordings/" + maps + "/sandwich?kind=cpu&method=" + enc(method));
            assertEquals(sandwich.get("total").asText(), page.getAttribute("#sandwich-figures", "data-total"));
            assertEquals(sandwich.get("self").asText(), page.getAttribute("#sandwich-figures", "data-self"));
            assertEquals(method, page.getAttribute("#sandwich-method", "title"));
            page.waitForSelector("#sandwich-callers canvas[data-drawn]");
            page.waitForSelector("#sandwich-callees canvas[data-drawn]");
            assertTrue(page.locator(".flame-panel:not(.sandwich)").isHidden(), "the sandwich takes the flame graph's place");
            Browser.screenshot(page, "sandwich.png");

            // the heaviest direct caller (the row above the method, which is the callers' bottom row) shows its own
            JsonNode callers = sandwich.get("callers"), nodes = callers.get("nodes");
            int best = -1;
            long x = 0, bestX = 0;
            for (int c = 1; c < nodes.get("count").get(0).asInt(); c += nodes.get("count").get(c).asInt()) {
                if (best < 0 || nodes.get("total").get(c).asLong() > nodes.get("total").get(best).asLong()) {
                    best = c;
                    bestX = x;
                }
                x += nodes.get("total").get(c).asLong();
            }
            String caller = callers.get("names").get(nodes.get("name").get(best).asInt()).asText();
            BoundingBox box = page.locator("#sandwich-callers canvas").boundingBox();
            double middle = (bestX + nodes.get("total").get(best).asLong() / 2.0) / nodes.get("total").get(0).asLong() * box.width;
            page.locator("#sandwich-callers canvas").click(new Locator.ClickOptions().setPosition(middle, box.height - 18 - 9));
            page.waitForURL(u -> caller.equals(param(u, "method")));
            page.waitForFunction("m => document.querySelector('#sandwich-method').title === m", caller);

            page.click("#sandwich-close");
            page.waitForURL(u -> param(u, "method") == null);
            page.waitForSelector(".flame-panel:not(.sandwich) .flame-canvas[data-drawn]");

            // from the call tree: S on a row
            page.navigate("/?page=recording&id=" + maps + "&kind=cpu&side=tree");
            Locator treeRow = page.locator("#call-tree .vrow[aria-rowindex='3']");
            treeRow.waitFor();
            String frame = treeRow.getAttribute("title");
            treeRow.focus();
            page.keyboard().press("s");
            page.waitForURL(u -> frame.equals(param(u, "method")));
            page.waitForSelector("#sandwich-figures[data-total]");

            // from a frame's context menu
            page.click("#sandwich-close");
            page.waitForSelector(".flame-panel:not(.sandwich) .flame-canvas[data-drawn]");
            Locator canvas = page.locator(".flame-panel:not(.sandwich) .flame-canvas");
            BoundingBox graph = canvas.boundingBox();
            canvas.click(new Locator.ClickOptions().setButton(MouseButton.RIGHT).setPosition(4, graph.height - 18 - 9));
            page.waitForSelector("#frame-menu:not([hidden])");
            page.click("#frame-sandwich");
            page.waitForURL(u -> param(u, "method") != null);
            assertTrue(page.locator("#frame-menu").isHidden());

            // and by name, from the sandwich's search box, which offers the view's methods
            page.waitForSelector("#sandwich-figures[data-total]");
            assertTrue(((Number) page.evaluate("m => [...document.querySelectorAll('#sandwich-methods option')]"
                    + ".filter(o => o.value === m).length", method)).intValue() == 1, "the box offers " + method);
            page.fill("#sandwich-search", method);
            page.press("#sandwich-search", "Enter");
            page.waitForURL(u -> method.equals(param(u, "method")));
            page.waitForFunction("t => document.querySelector('#sandwich-figures').dataset.total === t", sandwich.get("total").asText());
        }
        assertEquals(List.of(), errors);
    }

    @Test
    void allocationsAreWeighedInBytesOrBySampleCount() throws Exception {
        long samples = get("/api/recordings/" + maps + "/flame?kind=alloc&weight=samples").get("total").asLong();
        long bytes = get("/api/recordings/" + maps + "/flame?kind=alloc").get("total").asLong();
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = Browser.watched(context, errors);
            page.navigate("/?page=recording&id=" + maps + "&kind=alloc");
            page.waitForSelector(".weight-picker:not([hidden])");
            page.waitForFunction("w => document.querySelector('#flame-status').dataset.weight === w", String.valueOf(bytes));
            assertTrue(page.textContent("#flame-status").contains("iB in "), page.textContent("#flame-status"));
            page.selectOption("#weight", "samples");
            page.waitForURL(u -> "samples".equals(param(u, "weight")));
            page.waitForFunction("w => document.querySelector('#flame-status').dataset.weight === w", String.valueOf(samples));
            assertTrue(page.textContent("#flame-status").startsWith(String.format(java.util.Locale.ROOT, "%,d samples", samples)), page.textContent("#flame-status"));
            page.click("#tab-cpu");
            page.waitForURL(u -> param(u, "weight") == null);
            assertTrue(page.locator(".weight-picker").isHidden(), "CPU samples have no bytes to weigh");
        }
        assertEquals(List.of(), errors);
    }

    @Test
    void theDiffColoursOnlySignificantChangesAndListsOneRowPerMethodInPercentagePointsWithItsTest() throws Exception {
        JsonNode diff = get("/api/diff?base=" + sort + "&target=" + maps + "&kind=cpu");
        int grew = 0, shrank = 0;
        for (JsonNode s : diff.get("nodes").get("significance")) {
            grew += s.asInt() > 0 ? 1 : 0;
            shrank += s.asInt() < 0 ? 1 : 0;
        }
        assertTrue(grew > 0 && shrank > 0, "the fixtures differ: " + grew + " grew, " + shrank + " shrank");
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = Browser.watched(context, errors);
            page.navigate("/?page=diff&base=" + sort + "&id=" + maps + "&kind=cpu");
            page.waitForSelector(".flame-canvas[data-drawn]");
            page.waitForSelector("#changes tbody tr");
            String legend = page.textContent("#diff-legend");
            assertTrue(legend.contains("grew significantly (" + grew + ")") && legend.contains("shrank significantly (" + shrank + ")")
                    && legend.contains("no significant change"), legend);
            @SuppressWarnings("unchecked")
            Map<String, Number> hues = (Map<String, Number>) page.evaluate(HUES);
            assertTrue(hues.get("red").intValue() > 50 && hues.get("blue").intValue() > 50 && hues.get("grey").intValue() > 50, "colours: " + hues);

            @SuppressWarnings("unchecked")
            List<String> methods = (List<String>) page.locator("#changes tbody tr").evaluateAll("rs => rs.map(r => r.dataset.method)");
            assertEquals(methods.size(), new HashSet<>(methods).size(), "one row per method");
            List<String> expected = new ArrayList<>();
            for (JsonNode c : diff.get("changes")) {
                if (expected.size() < methods.size()) {
                    expected.add(c.get("method").asText());
                }
            }
            assertEquals(expected, methods, "in the server's ranking");
            assertTrue(page.locator("#changes tbody tr").first().getAttribute("class").contains("significant"));
            for (String delta : page.locator("#changes tbody td.delta").allTextContents()) {
                assertTrue(delta.endsWith(" pp"), "a change of share is in percentage points: " + delta);
            }
            assertTrue(page.textContent("#diff-test").contains(diff.get("test").get("name").asText()), page.textContent("#diff-test"));

            page.click("#mode-absolute");
            page.waitForURL(u -> "absolute".equals(param(u, "mode")));
            page.waitForFunction("() => document.querySelector('#diff-test')?.textContent.includes('Poisson')");
            for (String delta : page.locator("#changes tbody td.delta").allTextContents()) {
                assertTrue(delta.endsWith("/s"), "a change of rate is per second: " + delta);
            }

            // a recording against itself: nothing is significant, nothing coloured
            page.navigate("/?page=diff&base=" + maps + "&id=" + maps + "&kind=cpu");
            page.waitForSelector(".flame-canvas[data-drawn]");
            page.waitForFunction("() => document.querySelector('#changes caption')?.textContent.startsWith('No significant change')");
            @SuppressWarnings("unchecked")
            Map<String, Number> same = (Map<String, Number>) page.evaluate(HUES);
            assertEquals(0, same.get("red").intValue() + same.get("blue").intValue(), "no colour where nothing changed: " + same);
        }
        assertEquals(List.of(), errors);
    }

    /**
     * The order the diff page shows itself in, without timings: "graph" when the canvas is first drawn (its data-zoom
     * is set by each drawing), "frame" at the browser's next frame after that (requested right then, so it is the
     * frame that paints the graph), "table" when the changes table's first row is in the document.
     */
    static final String WATCH_DIFF_ORDER = """
            window.diffOrder = [];
            new MutationObserver(() => {
              const order = window.diffOrder;
              if (!order.includes('graph') && document.querySelector('.flame-canvas[data-zoom]')) {
                order.push('graph');
                requestAnimationFrame(() => order.push('frame'));
              }
              if (!order.includes('table') && document.querySelector('#changes tbody tr')) order.push('table');
            }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-zoom'] });""";

    @Test
    void theDiffsGraphIsPaintedBeforeItsChangesTableIsBuiltAndTheTableIsTheServersAnswer() throws Exception {
        JsonNode diff = get("/api/diff?base=" + sort + "&target=" + maps + "&kind=cpu");
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            context.addInitScript(WATCH_DIFF_ORDER);
            Page page = Browser.watched(context, errors);
            page.navigate("/?page=diff&base=" + sort + "&id=" + maps + "&kind=cpu");
            page.waitForSelector("#changes tbody tr");
            page.waitForFunction("() => window.diffOrder.length === 3");
            assertEquals(List.of("graph", "frame", "table"), page.evaluate("() => window.diffOrder"),
                    "the graph is drawn and a frame painted before the table's rows are built");
            assertEquals(1, ((Number) page.evaluate("() => performance.getEntriesByName('workbench:changes').length")).intValue(),
                    "the page marks its table ready once");

            @SuppressWarnings("unchecked")
            List<String> methods = (List<String>) page.locator("#changes tbody tr").evaluateAll("rs => rs.map(r => r.dataset.method)");
            List<String> expected = new ArrayList<>();
            int significant = 0;
            for (JsonNode c : diff.get("changes")) {
                if (expected.size() < 200) {
                    expected.add(c.get("method").asText());
                }
                significant += c.path("significant").asBoolean() || c.path("selfSignificant").asBoolean() ? 1 : 0;
            }
            assertTrue(significant > 0, "the fixtures differ");
            assertEquals(expected, methods, "the server's changes, in its ranking");
            assertTrue(page.textContent("#changes caption").startsWith(significant + " method"), page.textContent("#changes caption"));

            // the rows, built after the graph, lead to it: Enter on the first zooms to its method's heaviest frame
            page.focus("#changes tbody tr");
            page.keyboard().press("Enter");
            page.waitForURL(u -> param(u, "zoom") != null && param(u, "zoom").contains(expected.get(0)));
        }
        assertEquals(List.of(), errors);
    }

    @Test
    void aLinkedDiffsTreeIsBuiltFromTheOneEarlyRequestWhetherItsDataOrThePageCodeArrivesFirst() throws Exception {
        // a view of its own (per second, the target's first 1.2 s), so the early request's URL is not the default one
        String selection = "&kind=cpu&mode=absolute&targetFrom=0&targetTo=1200";
        JsonNode expected = get("/api/diff?base=" + sort + "&target=" + maps + selection);
        String link = "/?page=diff&base=" + sort + "&id=" + maps + selection;
        List<String> errors = Browser.errors();
        // the data in before the page's code: the page's module waits until the tree is built from it
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = Browser.openHolding(context, errors, link, "**/js/pages/diff.js",
                    p -> p.waitForFunction("() => performance.getEntriesByName('workbench:diff-tree').length === 1"));
            assertLinkedDiff(page, expected, "tree built before the page's code ran");
        }
        // the page's code in before the data: it takes the tree once the held answer comes
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            // the page's header: its code ran and both recordings' metadata came
            Page page = Browser.openHolding(context, errors, link, "**/api/diff?**", p -> p.waitForSelector("#swap"));
            assertLinkedDiff(page, expected, "tree built after the page's code ran");
        }
        assertEquals(List.of(), errors);
    }

    @Test
    void aDiffLinksHeadAsksForTheDataItsPageFetchesWithTheSameUrlsSoEachIsAskedForOnce() throws Exception {
        String thread = null;
        long most = -1;
        for (JsonNode t : get("/api/recordings/" + sort).get("threads")) {
            if (t.get("samples").asLong() > most) {
                most = t.get("samples").asLong();
                thread = t.get("id").asText();
            }
        }
        List<String> errors = Browser.errors();
        for (String link : new String[] {"/?page=diff&base=" + sort + "&id=" + maps + "&kind=cpu",
            // every kind of parameter of a diff's view, in another order than the page writes them, one named twice
            "/?targetTo=1200&targetFrom=100&baseThreads=" + thread + "&baseTo=1400&baseFrom=0&weight=samples&mode=absolute"
                    + "&kind=cpu&kind=wall&id=" + maps + "&base=" + sort + "&search=HashMap&literal=1",
            "/?page=diff&base=" + maps + "&id=" + maps + "&kind=cpu&baseFrom=0&baseTo=700&targetFrom=700&targetTo=1400"}) {
            try (BrowserContext context = browser.newContext(server.baseUrl())) {
                List<String> asked = new java.util.concurrent.CopyOnWriteArrayList<>();
                context.onRequest(r -> asked.add(pathAndQuery(r.url())));
                Page page = Browser.watched(context, errors);
                page.navigate(link);
                page.waitForSelector(".flame-canvas[data-drawn]");
                page.waitForSelector("#changes tbody tr");
                List<String> named = headData(page);
                assertEquals(link.contains("&id=" + maps + "&kind=cpu&baseFrom") ? 2 : 3, named.size(), link + ": " + named);
                assertTrue(named.stream().anyMatch(u -> u.startsWith("/api/diff?")), link + ": " + named);
                // a URL the head writes otherwise than the page's code would be asked for twice (or an unused one once)
                assertEquals(named.stream().sorted().toList(), asked.stream().filter(u -> u.startsWith("/api/")).sorted().toList(),
                        link + ": the page's data is what its head asked for, each once");
                // the server started the diff's build as it sent the page: the page's request took that build (or
                // the cache, for a view built before), never one of its own
                Object timing = page.evaluate("() => performance.getEntriesByType('resource').find(r => r.name.includes('/api/diff?'))"
                        + ".serverTiming.map(t => t.name).join(',')");
                assertTrue(String.valueOf(timing).startsWith("early,build,") || "cache".equals(timing), link + ": " + timing);
            }
        }
        assertEquals(List.of(), errors);
        // a value no view has: the head asks for the metadata only, the page for the diff (which the server refuses)
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            List<String> asked = new java.util.concurrent.CopyOnWriteArrayList<>();
            context.onRequest(r -> asked.add(pathAndQuery(r.url())));
            Page page = Browser.watched(context, Browser.errors());
            page.navigate("/?page=diff&base=" + sort + "&id=" + maps + "&kind=cpu&mode=" + enc("\"><b>per second</b>"));
            page.waitForSelector("#view-problem:not([hidden])");
            assertEquals(List.of("/api/recordings/" + maps, "/api/recordings/" + sort), headData(page));
            assertEquals(1L, asked.stream().filter(u -> u.startsWith("/api/diff?")).count(), String.valueOf(asked));
            assertEquals(0, page.locator("#view-problem b").count(), "the server's message shown as text");
        }
    }

    /** The data URLs the page's head asks for (preload links), as written. */
    @SuppressWarnings("unchecked")
    private static List<String> headData(Page page) {
        return (List<String>) page.evaluate("() => [...document.querySelectorAll('link[rel=preload][as=fetch]')].map(l => l.getAttribute('href'))");
    }

    private static String pathAndQuery(String url) {
        URI u = URI.create(url);
        return u.getRawPath() + (u.getRawQuery() == null ? "" : "?" + u.getRawQuery());
    }

    /** The linked diff's graph, legend and table are the server's for its view, asked for once, its tree built once. */
    private static void assertLinkedDiff(Page page, JsonNode expected, String how) {
        page.waitForSelector(".flame-canvas[data-drawn]");
        page.waitForSelector("#changes tbody tr");
        int grew = 0, shrank = 0;
        for (JsonNode s : expected.get("nodes").get("significance")) {
            grew += s.asInt() > 0 ? 1 : 0;
            shrank += s.asInt() < 0 ? 1 : 0;
        }
        assertTrue(grew + shrank > 0, "the view has significant changes to colour");
        String legend = page.textContent("#diff-legend");
        assertTrue(legend.contains("grew significantly (" + grew + ")") && legend.contains("shrank significantly (" + shrank + ")"), how + ": " + legend);
        @SuppressWarnings("unchecked")
        Map<String, Number> hues = (Map<String, Number>) page.evaluate(HUES);
        assertTrue(hues.get("red").intValue() + hues.get("blue").intValue() > 0 && hues.get("grey").intValue() > 0, how + ": " + hues);
        assertEquals(expected.get("changes").get(0).get("method").asText(), page.getAttribute("#changes tbody tr", "data-method"), how);
        for (String delta : page.locator("#changes tbody td.delta").allTextContents()) {
            assertTrue(delta.endsWith("/s"), how + ": the per-second view: " + delta);
        }
        assertEquals("diff 1, trees 1", page.evaluate("() => `diff ${performance.getEntriesByType('resource')"
                + ".filter(e => new URL(e.name).pathname === '/api/diff').length}, trees ${performance.getEntriesByName('workbench:diff-tree').length}`"),
                how + ": one request for the diff, one tree built from it");
        // the server's tree drawn whole: as many frames drawn as are at least 0.35 px wide at its per-second widths
        assertEquals(String.valueOf(drawable(expected, page)), page.getAttribute(".flame-canvas", "data-drawn"), how);
    }

    /** The frames of a per-second diff at least 0.35 px wide on the page's canvas (width = mean rate of both sides). */
    private static int drawable(JsonNode diff, Page page) {
        JsonNode n = diff.get("nodes");
        double bs = diff.get("baseSeconds").asDouble(), ts = diff.get("targetSeconds").asDouble();
        java.util.function.IntToDoubleFunction width = i -> (n.get("base").get(i).asDouble() / bs + n.get("target").get(i).asDouble() / ts) / 2;
        double scale = ((Number) page.evaluate("() => parseFloat(document.querySelector('.flame-canvas').style.width)")).doubleValue() / width.applyAsDouble(0);
        int drawable = 0;
        for (int i = 0; i < n.get("name").size();) {
            if (width.applyAsDouble(i) * scale < 0.35) {
                i += n.get("count").get(i).asInt();
                continue;
            }
            drawable++;
            i++;
        }
        return drawable;
    }

    /** Pixels of the diff's canvas that are clearly red, clearly blue, or grey. */
    static final String HUES = """
            () => {
              const c = document.querySelector('.flame-canvas');
              const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
              let red = 0, blue = 0, grey = 0;
              for (let i = 0; i < d.length; i += 4) {
                if (d[i + 3] < 200) continue;
                if (d[i] > d[i + 2] + 60 && d[i] > d[i + 1] + 40) red++;
                else if (d[i + 2] > d[i] + 60) blue++;
                else if (Math.abs(d[i] - d[i + 2]) < 20 && Math.abs(d[i] - d[i + 1]) < 20) grey++;
              }
              return { red, blue, grey };
            }""";

    @Test
    void filtersPerSideNarrowOneSideTheWarningsSayWhyTheSidesDoNotCompareAndTheExportHasBothSides() throws Exception {
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = Browser.watched(context, errors);
            page.navigate("/?page=diff&base=" + sort + "&id=" + maps + "&kind=cpu");
            page.waitForSelector("#changes tbody tr");
            page.click("#side-filters-button");
            page.fill("#base-from", "0");
            page.fill("#base-to", "0.3");
            page.click("#base-apply");
            page.waitForURL(u -> "0".equals(param(u, "baseFrom")) && "300".equals(param(u, "baseTo")));
            JsonNode narrowed = get("/api/diff?base=" + sort + "&target=" + maps + "&kind=cpu&baseFrom=0&baseTo=300");
            assertTrue(narrowed.get("warnings").size() > 0, "a 0.3 s side against a 1.5 s one is warned about");
            page.waitForSelector("#diff-warnings:not([hidden])");
            for (JsonNode w : narrowed.get("warnings")) {
                assertTrue(page.textContent("#diff-warnings").contains(w.asText()), page.textContent("#diff-warnings"));
            }
            assertEquals("0", page.inputValue("#base-from"));
            assertEquals("0.3", page.inputValue("#base-to"));
            assertEquals("", page.inputValue("#target-to"), "the target keeps all of its time");

            page.click(".flame-panel details.menu > summary");
            Download download = page.waitForDownload(() -> page.click("#export-collapsed"));
            List<String> lines = Files.readAllLines(download.path());
            long base = 0, target = 0;
            Set<String> stacks = new HashSet<>();
            for (String line : lines) {
                String[] parts = line.split(" ");
                base += Long.parseLong(parts[parts.length - 2]);
                target += Long.parseLong(parts[parts.length - 1]);
                stacks.add(line.substring(0, line.lastIndexOf(' ', line.lastIndexOf(' ') - 1)));
            }
            assertEquals(narrowed.get("baseTotal").asLong(), base, "the base column is the narrowed baseline");
            assertEquals(narrowed.get("targetTotal").asLong(), target, "the target column is the whole target");
            assertEquals(lines.size(), stacks.size(), "a line per stack");
        }
        assertEquals(List.of(), errors);
    }
}
