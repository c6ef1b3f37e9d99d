package org.jfrworkbench.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import javax.xml.parsers.DocumentBuilderFactory;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.microsoft.playwright.Browser.NewContextOptions;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Download;
import com.microsoft.playwright.ElementHandle;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.BoundingBox;
import com.microsoft.playwright.options.ColorScheme;
import com.microsoft.playwright.options.WaitForSelectorState;
import org.jfrworkbench.testkit.Browser;
import org.jfrworkbench.testkit.ServiceProfile;
import org.jfrworkbench.testkit.TestRecordings;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

/**
 * The flame graph in Chromium through the real page: nothing hidden (narrow frames drawn as slivers), short labels,
 * search (modes, dimming, stepping, hostile patterns), keyboard walking, dark mode, and the rough edges of zoom links,
 * exports and scrolling. Everything is read from the DOM, the canvas's pixels, the URL and the exports.
 */
class UiFlameGraphIT extends BrowserTest {
    /** Canvas row height (px) at device pixel ratio 1. */
    private static final int ROW = 18;

    /** Names the collapsed format must escape: a separator, a line break, NUL, a line separator, a backslash, emoji. */
    static final List<String> HOSTILE = List.of("libpthread-2.17.so;649be141 (deleted)", "com.acme.Line\nBreak.run",
            "nul\u0000byte", "sep\u2028arator", "back\\slash", "emoji\uD83D\uDE00.run", "#hash", "type_[j]");

    static String slivers, search, hostile, deep, jfr;

    @BeforeAll
    static void start() throws Exception {
        // 3,000 one-sample stacks beside one of 6,000: each of their frames is about 0.1 px wide
        StringBuilder s = new StringBuilder("java.lang.Thread.run;com.acme.Big.work 6000\n");
        for (int k = 0; k < 3000; k++) {
            s.append("java.lang.Thread.run;com.acme.Fan.out;com.acme.Leaf.m").append(k).append(";com.acme.Deep.d").append(k).append(" 1\n");
        }
        slivers = upload(s.toString(), "slivers.txt");
        search = upload(String.join("\n",
                "java.lang.Thread.run;com.acme.Cache.get;java.util.HashMap.getNode 300",
                "java.lang.Thread.run;com.acme.Cache.put;java.util.HashMap.putVal 200",
                "java.lang.Thread.run;com.acme.Sorter.sort;java.util.TreeMap.put 400",
                "java.lang.Thread.run;com.acme.Parser.parse;com.acme.Parser.parse;" + "a".repeat(80) + "! 100", ""), "search.txt");
        StringBuilder h = new StringBuilder();
        for (String name : HOSTILE) {
            h.append(h.isEmpty() ? "" : ";").append(escape(name));
        }
        hostile = upload(h + " 500\n", "hostile.txt");
        deep = upload(ServiceProfile.collapsed(300, 3), "deep.txt");
        jfr = UiServer.upload(server, TestRecordings.record(temp.resolve("checkout.jfr"), true, 800, false), null);
    }

    @Test
    void framesTooNarrowToDrawAloneFillTheirRowsAsSliversSoEveryRowShowsItsWeight() {
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = open(context, errors, slivers, "");
            double width = ((Number) page.evaluate("() => document.querySelector('.flame-canvas').width")).doubleValue();
            double expected = width * 3000 / 9000;
            // depth 3 holds 3,000 frames of one sample each, depth 4 their children: all narrower than 0.35 px
            for (int depth = 3; depth <= 4; depth++) {
                double covered = coverage(page, depth);
                assertTrue(Math.abs(covered - expected) < 2, "row " + depth + " shows " + covered + " px of its " + expected + " px");
            }
            double big = coverage(page, 2);
            assertTrue(big > width - 3 && big <= width, "row 2 (Big.work and Fan.out side by side) " + big + " of " + width);
        }
        assertEquals(List.of(), errors);
    }

    @Test
    void theFirstDrawingLeavesTheSliversUnderFramesTooNarrowToSeeAloneForTheTaskAfterItsPaint() {
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = Browser.watched(context, errors);
            // the rows' coverage as the page marks its first drawing (the moment FlameGraphBenchmark times)
            page.addInitScript("(() => { const mark = performance.mark.bind(performance);"
                    + " performance.mark = (name, options) => { if (name === 'workbench:drawn' && !window.rowsAtDrawn) {"
                    + " const c = document.querySelector('.flame-canvas'), rows = c.height / 18;"
                    + " window.rowsAtDrawn = [2, 3, 4].map(d => { const px = c.getContext('2d').getImageData(0, (rows - 1 - d) * 18 + 12,"
                    + " c.width, 1).data; let sum = 0; for (let i = 3; i < px.length; i += 4) sum += px[i]; return sum / 255; }); }"
                    + " return mark(name, options); }; })()");
            page.navigate("/?page=recording&id=" + slivers + "&kind=cpu");
            page.waitForSelector(".flame-canvas[data-drawn]");
            double width = ((Number) page.evaluate("() => document.querySelector('.flame-canvas').width")).doubleValue();
            double expected = width * 3000 / 9000;
            @SuppressWarnings("unchecked")
            List<Number> atDrawn = (List<Number>) page.evaluate("() => window.rowsAtDrawn");
            // row 2 (Big.work and Fan.out) and row 3 (the 3,000 narrow Leaf frames themselves) are in the first drawing
            assertTrue(atDrawn.get(0).doubleValue() > width - 3, "row 2 at the first drawing: " + atDrawn);
            assertTrue(Math.abs(atDrawn.get(1).doubleValue() - expected) < 2, "row 3 at the first drawing: " + atDrawn);
            // their children (row 4), inside subtrees of about 0.1 px, come after the paint, and before data-drawn
            assertEquals(0, atDrawn.get(2).doubleValue(), 0.5, "row 4 at the first drawing: " + atDrawn);
            assertTrue(Math.abs(coverage(page, 4) - expected) < 2, "row 4 once drawn: " + coverage(page, 4) + " of " + expected);
            assertTrue(((Number) page.evaluate("() => performance.getEntriesByName('workbench:complete').length")).intValue() == 1,
                    "the page marks when its rows are complete");
        }
        assertEquals(List.of(), errors);
    }

    @Test
    void labelsAreShortNamesCutFromTheLeftAndTheTooltipHasTheFullName() throws Exception {
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = open(context, errors, search, "");
            Locator canvas = page.locator(".flame-canvas");
            BoundingBox box = canvas.boundingBox();
            // the Sorter.sort frame: the right 40 % of row 2
            canvas.hover(new Locator.HoverOptions().setPosition(box.width * 0.8, box.height - ROW * 2.5));
            page.waitForSelector(".flame-tooltip:not([hidden])");
            assertEquals("com.acme.Sorter.sort", page.textContent(".flame-tooltip .tip-name"));

            Document svg = parseXml(export(page, "#export-svg"));
            List<String> labels = texts(svg, "text");
            assertTrue(labels.contains("Sorter.sort") && labels.contains("HashMap.getNode"), "short labels: " + labels);
            assertFalse(labels.contains("com.acme.Sorter.sort"), "no package in labels: " + labels);
            // Parser.parse is 10 % of the width: too narrow for its label, which keeps its end
            String cut = labels.stream().filter(l -> l.startsWith("\u2026")).findFirst().orElseThrow(() -> new AssertionError(labels));
            assertTrue("Parser.parse".endsWith(cut.substring(1)) && cut.length() > 3, "cut from the left: " + cut);
            assertTrue(texts(svg, "title").contains("com.acme.Parser.parse"), "the full name is the frame's title");
        }
        assertEquals(List.of(), errors);
    }

    @Test
    void searchIsPlainAndCaseInsensitiveByDefaultWithTogglesDimsTheRestAndStepsThroughMatches() {
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = open(context, errors, search, "");
            assertEquals(255, alphaAt(page, 0), "the root row is opaque before a search");
            searchFor(page, "hashmap");
            page.waitForURL(u -> u.contains("search=hashmap") && u.contains("literal=1"));
            page.waitForSelector("#match-info[data-share='0.500000']");
            assertTrue(alphaAt(page, 0) < 128, "frames that do not match are dimmed");
            assertEquals(255, alphaAt(page, 3), "a matching frame (HashMap.getNode) is not dimmed");

            page.click("#search-case");
            page.waitForURL(u -> u.contains("matchCase=1"));
            page.waitForFunction("() => document.querySelector('#match-info').textContent === 'No frame matches'");
            page.click("#search-case");
            page.click("#search-regex");
            searchFor(page, "Hash.ap\\.(getnode|putval)|treemap");
            page.waitForSelector("#match-info[data-share='0.900000']");
            assertFalse(page.url().contains("literal="), page.url());
            assertEquals("true", page.getAttribute("#search-regex", "aria-pressed"));

            // previous and next: the outermost matching frames, left to right, with the keyboard focus on each
            List<String> visited = new ArrayList<>();
            for (int k = 0; k < 4; k++) {
                page.click("#match-next");
                visited.add(announced(page) + " " + page.textContent("#match-position"));
            }
            assertEquals(List.of("java.util.HashMap.getNode 1 of 3", "java.util.HashMap.putVal 2 of 3",
                    "java.util.TreeMap.put 3 of 3", "java.util.HashMap.getNode 1 of 3"), visited);
            page.click("#match-prev");
            assertEquals("java.util.TreeMap.put", announced(page));
            assertTrue(page.isVisible(".flame-focus"), "the focused match is outlined");

            // a hot method's row zooms to it and leaves the search as it was
            String before = param(page.url(), "search");
            page.locator("#hot-methods .vbody .vrow", new Page.LocatorOptions().setHasText("Sorter.sort")).first().click();
            page.waitForFunction("() => (document.querySelector('.crumbs').dataset.path || '').endsWith('com.acme.Sorter.sort')");
            assertEquals(before, param(page.url(), "search"));
            page.waitForSelector("#match-info[data-share='0.900000']");
        }
        assertEquals(List.of(), errors);
    }

    @Test
    void aHostilePatternInALinkIsMatchedInLinearTimeAndAnInvalidOneIsReported() {
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            // catastrophic for a backtracking engine on the 80 a's and the '!' of the Parser stack's leaf
            Page page = open(context, errors, search, "&search=" + enc("(a+)+$") + "&matchCase=1");
            page.waitForSelector("#match-info[data-share='0.000000']");
            page.navigate("/?page=recording&id=" + search + "&kind=cpu&search=" + enc("(a|aa)+!"));
            page.waitForSelector("#match-info[data-share='0.100000']");
            page.navigate("/?page=recording&id=" + search + "&kind=cpu&search=" + enc("(?<=a)b"));
            page.waitForFunction("() => document.querySelector('#match-info')?.textContent.startsWith('Invalid regex')");
            assertTrue(page.textContent("#match-info").contains("look-around"), page.textContent("#match-info"));
        }
        assertEquals(List.of(), errors);
    }

    @Test
    void theKeyboardWalksFramesWithAVisibleFocusAndEnterZooms() {
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = open(context, errors, search, "");
            page.click("#flame-search");
            for (int k = 0; k < 20 && !Boolean.TRUE.equals(page.evaluate("() => document.activeElement.classList.contains('flame-canvas')")); k++) {
                page.keyboard().press("Tab");
            }
            assertEquals("all", announced(page), "the graph's focus starts on the zoomed frame");
            assertTrue(page.isVisible(".flame-focus"));
            page.keyboard().press("ArrowUp");
            assertEquals("java.lang.Thread.run", announced(page));
            page.keyboard().press("ArrowUp");
            assertEquals("com.acme.Sorter.sort", announced(page), "up goes to the widest child");
            page.keyboard().press("ArrowLeft");
            assertEquals("com.acme.Parser.parse", announced(page));
            page.keyboard().press("ArrowRight");
            assertEquals("com.acme.Sorter.sort", announced(page));
            BoundingBox focus = page.locator(".flame-focus").boundingBox();
            BoundingBox canvas = page.locator(".flame-canvas").boundingBox();
            assertTrue(focus.width > canvas.width * 0.35 && focus.x > canvas.x + canvas.width * 0.5, "outline over Sorter.sort: " + focus.x);
            page.keyboard().press("ArrowDown");
            assertEquals("java.lang.Thread.run", announced(page));
            page.keyboard().press("ArrowUp");
            page.keyboard().press("Enter");
            page.waitForURL(u -> u.contains("zoom="));
            assertEquals("java.lang.Thread.run;com.acme.Sorter.sort", page.getAttribute(".crumbs", "data-path"));
        }
        assertEquals(List.of(), errors);
    }

    @Test
    void theCanvasFollowsTheColourScheme() {
        List<String> errors = Browser.errors();
        int[] light, dark;
        try (BrowserContext context = browser.chromium.newContext(new NewContextOptions().setViewportSize(1280, 800)
                .setBaseURL(server.baseUrl()).setColorScheme(ColorScheme.LIGHT))) {
            Page page = open(context, errors, search, "");
            light = pixel(page, 2, 0.8);
            page.emulateMedia(new Page.EmulateMediaOptions().setColorScheme(ColorScheme.DARK));
            page.waitForFunction("p => { const c = document.querySelector('.flame-canvas'); const rows = c.height / 18;"
                    + " const d = c.getContext('2d').getImageData(Math.floor(c.width * 0.8), (rows - 3) * 18 + 3, 1, 1).data;"
                    + " return d[0] + d[1] + d[2] < p; }", light[0] + light[1] + light[2]);
        }
        try (BrowserContext context = browser.chromium.newContext(new NewContextOptions().setViewportSize(1280, 800)
                .setBaseURL(server.baseUrl()).setColorScheme(ColorScheme.DARK))) {
            Page page = open(context, errors, search, "");
            dark = pixel(page, 2, 0.8);
        }
        assertTrue(dark[0] + dark[1] + dark[2] < light[0] + light[1] + light[2] - 60, "dark frames are darker: "
                + List.of(dark[0], dark[1], dark[2]) + " against " + List.of(light[0], light[1], light[2]));
        assertEquals(List.of(), errors);
    }

    @Test
    void zoomLinksExportsAndTheCollapsedTextKeepAnyFrameName() throws Exception {
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = open(context, errors, hostile, "");
            Locator canvas = page.locator(".flame-canvas");
            BoundingBox box = canvas.boundingBox();
            // one stack: every frame spans the width; the deepest is the last row up
            canvas.click(new Locator.ClickOptions().setPosition(20, box.height - ROW * HOSTILE.size() - ROW / 2.0));
            page.waitForURL(u -> u.contains("zoom="));
            String path = page.getAttribute(".crumbs", "data-path");
            assertEquals(String.join(";", HOSTILE.stream().map(UiFlameGraphIT::escape).toList()), path,
                    "the zoom path is the collapsed text's escaped names");
            assertEquals(path, URLDecoder.decode(param(page.url(), "zoom"), StandardCharsets.UTF_8));
            String link = page.url();

            Document svg = parseXml(export(page, "#export-svg"));
            assertEquals(0, page.locator(".flame-panel details[open]").count(), "the Export menu closed after the download");
            List<String> titles = texts(svg, "title");
            assertTrue(titles.contains("nul\\x00byte") && titles.contains("com.acme.Line\nBreak.run")
                    && titles.contains("libpthread-2.17.so;649be141 (deleted)"), "names in the SVG: " + titles);

            String collapsed = Files.readString(export(page, "#export-collapsed"), StandardCharsets.UTF_8);
            assertEquals(0, page.locator(".flame-panel details[open]").count());
            assertEquals(path + " 500\n", collapsed, "the collapsed export escapes names as the server does");
            String again = upload(collapsed + "java.lang.Thread.run 1\n", "again.txt");
            @SuppressWarnings("unchecked")
            List<String> names = (List<String>) new ObjectMapper().readValue(get("/api/recordings/" + again + "/flame?kind=cpu"), Map.class).get("names");
            assertTrue(names.containsAll(HOSTILE), "the export reads back to the same names: " + names);

            try (BrowserContext fresh = browser.newContext(server.baseUrl())) {
                Page restored = Browser.watched(fresh, errors);
                restored.navigate(link);
                restored.waitForSelector(".flame-canvas[data-drawn]");
                assertEquals(path, restored.getAttribute(".crumbs", "data-path"), "the link restores the zoom");
                assertEquals(HOSTILE.get(HOSTILE.size() - 1), restored.getAttribute(".crumbs button:last-child", "title"));
                assertEquals(0, restored.locator("#toast.show").count(), "no complaint about the zoomed path");
            }
        }
        assertEquals(List.of(), errors);
    }

    @Test
    void theInvertedGraphOpensAtItsRootAndZoomingOutOfADeepFrameShowsTheRoot() throws Exception {
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = open(context, errors, deep, "");
            assertTrue(scrollFromEnd(page) <= 1, "the graph opens scrolled to its root at the bottom");
            page.locator("body").press("i");
            page.waitForURL(u -> u.contains("invert=1"));
            page.waitForFunction("() => performance.getEntriesByName('workbench:drawn').length >= 2");
            assertTrue(((Number) page.evaluate("() => document.querySelector('.flame-body').scrollTop")).doubleValue() < 1,
                    "the inverted graph opens at its root, at the top");

            // a link to the deepest frame, then Escape
            String path = deepestPath();
            page.navigate("/?page=recording&id=" + deep + "&kind=cpu&zoom=" + enc(path));
            page.waitForSelector(".flame-canvas[data-drawn]");
            assertEquals(path, page.getAttribute(".crumbs", "data-path"));
            assertTrue(rowInView(page, path.split(";").length), "the zoomed frame is in view");
            page.locator("body").press("Escape");
            page.waitForFunction("() => document.querySelector('.crumbs').dataset.path === ''");
            page.waitForFunction("() => { const b = document.querySelector('.flame-body'); return b.scrollHeight - b.clientHeight - b.scrollTop < 2; }");
            assertTrue(coverage(page, 0) > 100, "the root row is drawn where the view is");
        }
        assertEquals(List.of(), errors);
    }

    @Test
    void aZoomOrASearchRedrawsTheGraphOnlyNotTheTimelineOrTheHotMethods() {
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = open(context, errors, jfr, "");
            page.waitForSelector("#hot-methods .vbody .vrow");
            page.waitForSelector("#timeline svg .bars rect", new Page.WaitForSelectorOptions().setState(WaitForSelectorState.ATTACHED));
            ElementHandle row = page.querySelector("#hot-methods .vbody .vrow");
            ElementHandle bar = page.querySelector("#timeline svg .bars rect");
            ElementHandle tab = page.querySelector(".tab[aria-selected=true]");
            Locator canvas = page.locator(".flame-canvas");
            BoundingBox box = canvas.boundingBox();
            canvas.click(new Locator.ClickOptions().setPosition(4, box.height - ROW * 1.5));
            page.waitForURL(u -> u.contains("zoom="));
            searchFor(page, "java");
            page.waitForSelector("#match-info[data-share]");
            // Escape outside the search box resets the zoom
            page.evaluate("() => document.activeElement.blur()");
            page.keyboard().press("Escape");
            page.waitForURL(u -> !u.contains("zoom="));
            page.waitForFunction("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))");
            assertEquals(List.of(true, true, true), List.of(connected(row), connected(bar), connected(tab)),
                    "hot-methods row, timeline bar, kind tab: still the same elements");
        }
        assertEquals(List.of(), errors);
    }

    @Test
    void aLinkedViewsTreeIsBuiltFromTheOneEarlyRequestWhetherItsDataOrThePageCodeArrivesFirst() throws Exception {
        Map<?, ?> recording = new ObjectMapper().readValue(get("/api/recordings/" + jfr), Map.class);
        Map<?, ?> thread = (Map<?, ?>) ((List<?>) recording.get("threads")).stream()
                .max(java.util.Comparator.comparingLong(t -> ((Number) ((Map<?, ?>) t).get("samples")).longValue())).orElseThrow();
        long duration = ((Number) recording.get("durationMillis")).longValue();
        String selection = "&from=" + duration / 10 + "&to=" + duration * 9 / 10 + "&threads=" + thread.get("id");
        Map<?, ?> expected = new ObjectMapper().readValue(get("/api/recordings/" + jfr + "/flame?kind=cpu" + selection), Map.class);
        String link = "/?page=recording&id=" + jfr + "&kind=cpu" + selection + "&search=HashMap";
        List<String> errors = Browser.errors();
        // the data in before the page's code: the page's module waits until the tree is built from it
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = Browser.openHolding(context, errors, link, "**/js/pages/recording.js",
                    p -> p.waitForFunction("() => performance.getEntriesByName('workbench:flame-tree').length === 1"));
            page.waitForSelector(".flame-canvas[data-drawn]");
            assertLinkedView(page, expected, "tree built before the page's code ran");
            // a view no one asked for before: the server started building it as it sent the page, and the page's
            // request took that build, not one of its own
            Object timing = page.evaluate("() => performance.getEntriesByType('resource').find(r => new URL(r.name).pathname"
                    + ".endsWith('/flame')).serverTiming.map(t => t.name).join(',')");
            assertTrue(String.valueOf(timing).startsWith("early,build,") || "cache".equals(timing), String.valueOf(timing));
        }
        // the page's code in before the data: it takes the tree once the held answer comes
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = Browser.openHolding(context, errors, link, "**/flame?**",
                    p -> p.waitForFunction("() => performance.getEntriesByName('workbench:metadata').length === 1"));
            page.waitForSelector(".flame-canvas[data-drawn]");
            assertLinkedView(page, expected, "tree built after the page's code ran");
        }
        assertEquals(List.of(), errors);
    }

    @Test
    void theGraphsDataAndModulesAreAskedForFromThePagesHeadBeforeItsEntryRunsAndTheSideTablesCodeAfterTheGraphIsDrawn() {
        List<String> first = List.of("/js/app.js", "/js/pages/recording.js", "/js/pages/common.js", "/js/core/dom.js",
                "/js/core/state.js", "/js/core/api.js", "/js/flame/flametree.js", "/js/flame/flamepanel.js", "/js/flame/flamegraph.js",
                "/js/flame/colors.js", "/js/flame/names.js", "/js/flame/search.js", "/js/components/threadfilter.js",
                "/js/components/samplefilters.js", "/api/recordings/" + search, "/api/recordings/" + search + "/flame");
        List<String> asked = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            context.onRequest(r -> asked.add(URI.create(r.url()).getPath()));
            // the entry held back: what the browser asks for meanwhile, it has from the head alone
            Page page = Browser.openHolding(context, errors, "/?page=recording&id=" + search + "&kind=cpu", "**/js/core/boot.js",
                    p -> p.waitForCondition(() -> first.stream().allMatch(m -> asked.stream().anyMatch(a -> a.endsWith(m)))));
            assertEquals(List.of(), asked.stream().filter(a -> a.endsWith("/components/timeline.js")
                    || a.endsWith("/components/hotmethods.js") || a.contains("/webjars/")).toList(),
                    "before the entry ran: nothing only used after the first paint");
            page.waitForSelector(".flame-canvas[data-drawn]");
            page.waitForSelector("#hot-methods .vbody .vrow");
            assertEquals(Boolean.TRUE, page.evaluate("() => { const drawn = performance.getEntriesByName('workbench:drawn')[0].startTime;"
                    + " const asked = m => performance.getEntriesByType('resource').find(e => e.name.endsWith(m)).startTime;"
                    + " return asked('/components/timeline.js') >= drawn && asked('/components/hotmethods.js') >= drawn; }"),
                    "the side tables' and timeline's code asked for after the graph was drawn");
            assertEquals(List.of(1L, 1L), List.of(asked.stream().filter(a -> a.endsWith("/flame")).count(),
                    asked.stream().filter(a -> a.equals("/api/recordings/" + search)).count()),
                    "the head's requests for the data are the ones the entry's fetch() takes: one each");
        }
        assertEquals(List.of(), errors);
    }

    /** The linked view's graph is the server's for its selection, asked for once, its tree built once, searched. */
    private static void assertLinkedView(Page page, Map<?, ?> expected, String how) {
        assertEquals(String.valueOf(((Number) expected.get("total")).longValue()), page.getAttribute("#flame-status", "data-weight"), how);
        int nodes = ((List<?>) ((Map<?, ?>) expected.get("nodes")).get("count")).size();
        assertTrue(page.textContent("#flame-status").contains(String.format(java.util.Locale.US, "%,d frames", nodes)),
                how + ": " + page.textContent("#flame-status"));
        page.waitForSelector("#match-info[data-share]");
        assertEquals("HashMap", page.inputValue("#flame-search"), how);
        assertEquals("flame 1, trees 1", page.evaluate("() => `flame ${performance.getEntriesByType('resource')"
                + ".filter(e => new URL(e.name).pathname.endsWith('/flame')).length}, trees ${performance.getEntriesByName('workbench:flame-tree').length}`"),
                how + ": one request for the graph, one tree built from it");
    }

    // ---- helpers

    private static Page open(BrowserContext context, List<String> errors, String id, String extra) {
        Page page = Browser.watched(context, errors);
        page.navigate("/?page=recording&id=" + id + "&kind=cpu" + extra);
        page.waitForSelector(".flame-canvas[data-drawn]");
        return page;
    }

    private static void searchFor(Page page, String text) {
        page.fill("#flame-search", text);
        page.press("#flame-search", "Enter");
    }

    private static String announced(Page page) {
        return page.textContent(".flame .visually-hidden");
    }

    /** Drawn pixels (alpha-weighted, px) along the middle of the row at depth, for a graph that is not inverted. */
    private static double coverage(Page page, int depth) {
        return ((Number) page.evaluate("d => { const c = document.querySelector('.flame-canvas'); const rows = c.height / 18;"
                + " const px = c.getContext('2d').getImageData(0, (rows - 1 - d) * 18 + 12, c.width, 1).data; let sum = 0;"
                + " for (let i = 3; i < px.length; i += 4) sum += px[i]; return sum / 255; }", depth)).doubleValue();
    }

    private static int alphaAt(Page page, int depth) {
        return ((Number) page.evaluate("d => { const c = document.querySelector('.flame-canvas'); const rows = c.height / 18;"
                + " return c.getContext('2d').getImageData(4, (rows - 1 - d) * 18 + 3, 1, 1).data[3]; }", depth)).intValue();
    }

    /** The RGB of a pixel of the row at depth, a fraction of the width in (above the labels' baseline). */
    private static int[] pixel(Page page, int depth, double x) {
        @SuppressWarnings("unchecked")
        List<Number> rgb = (List<Number>) page.evaluate("([d, x]) => { const c = document.querySelector('.flame-canvas');"
                + " const rows = c.height / 18; return Array.from(c.getContext('2d').getImageData(Math.floor(c.width * x),"
                + " (rows - 1 - d) * 18 + 3, 1, 1).data.slice(0, 3)); }", List.of(depth, x));
        return rgb.stream().mapToInt(Number::intValue).toArray();
    }

    private static int scrollFromEnd(Page page) {
        return ((Number) page.evaluate("() => { const b = document.querySelector('.flame-body'); return Math.round(b.scrollHeight - b.clientHeight - b.scrollTop); }")).intValue();
    }

    /** Whether the row at depth (not inverted) is within the graph box's view. */
    private static boolean rowInView(Page page, int depth) {
        return (Boolean) page.evaluate("d => { const b = document.querySelector('.flame-body'); const c = b.querySelector('canvas');"
                + " const y = c.height - (d + 1) * 18; return y >= b.scrollTop && y + 18 <= b.scrollTop + b.clientHeight; }", depth);
    }

    private static boolean connected(ElementHandle element) {
        return (Boolean) element.evaluate("e => e.isConnected");
    }

    /** The path (escaped names joined by ';') of the first deepest frame of the deep profile's flame graph. */
    private static String deepestPath() throws Exception {
        Map<?, ?> flame = new ObjectMapper().readValue(get("/api/recordings/" + deep + "/flame?kind=cpu"), Map.class);
        List<?> names = (List<?>) flame.get("names");
        Map<?, ?> nodes = (Map<?, ?>) flame.get("nodes");
        List<?> parent = (List<?>) nodes.get("parent"), name = (List<?>) nodes.get("name");
        int best = 0, bestDepth = 0;
        for (int i = 0; i < parent.size(); i++) {
            int d = 0;
            for (int p = i; ((Number) parent.get(p)).intValue() >= 0; p = ((Number) parent.get(p)).intValue()) {
                d++;
            }
            if (d > bestDepth) {
                best = i;
                bestDepth = d;
            }
        }
        List<String> path = new ArrayList<>();
        for (int p = best; ((Number) parent.get(p)).intValue() >= 0; p = ((Number) parent.get(p)).intValue()) {
            path.add(0, escape((String) names.get(((Number) name.get(p)).intValue())));
        }
        return String.join(";", path);
    }

    private static Path export(Page page, String item) {
        if (!page.isVisible(item)) {
            page.click(".flame-panel summary");
        }
        Download download = page.waitForDownload(() -> page.click(item));
        return download.path();
    }

    private static Document parseXml(Path file) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new ByteArrayInputStream(Files.readAllBytes(file)));
    }

    private static List<String> texts(Document doc, String tag) {
        NodeList list = doc.getElementsByTagName(tag);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < list.getLength(); i++) {
            out.add(list.item(i).getTextContent());
        }
        return out;
    }

    /** A frame name as collapsed text writes it (importer CollapsedFormat): what zoom= paths are made of. */
    static String escape(String name) {
        return org.jfrworkbench.importer.CollapsedFormat.escapeFrame(name);
    }

    private static String enc(String text) {
        return java.net.URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    private static String param(String url, String name) {
        for (String part : url.substring(url.indexOf('?') + 1).split("&")) {
            if (part.startsWith(name + "=")) {
                return part.substring(name.length() + 1);
            }
        }
        throw new AssertionError("no " + name + " in " + url);
    }

    private static String get(String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(server.baseUrl() + path)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    private static String upload(String collapsed, String name) throws Exception {
        return UiServer.upload(server, name, null, HttpRequest.BodyPublishers.ofString(collapsed, StandardCharsets.UTF_8));
    }
}
