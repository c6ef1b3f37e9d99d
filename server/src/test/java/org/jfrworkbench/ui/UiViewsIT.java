package org.jfrworkbench.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.jfrworkbench.ui.UiServer.enc;
import static org.jfrworkbench.ui.UiServer.param;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.BoundingBox;
import com.microsoft.playwright.options.ColorScheme;
import org.jfrworkbench.testkit.Browser;
import org.jfrworkbench.testkit.Recordings;
import org.jfrworkbench.testkit.TestRecordings;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The recording page's views in Chromium on one uploaded recording: the hot methods (every method, virtualised,
 * filtered, sorted), the call tree in step with the graph, the thread-state and source filters, a time range that
 * cannot show anything, and the pages at tablet and phone widths and in dark mode.
 */
class UiViewsIT extends BrowserTest {
    static String maps;
    static String sort;

    @BeforeAll
    static void start() throws Exception {
        maps = upload(TestRecordings.record(temp.resolve("checkout-maps.jfr"), true, 1500), "service=checkout");
        sort = upload(TestRecordings.record(temp.resolve("checkout-sort.jfr"), false, 800, false), "service=checkout");
    }

    static String upload(Path file, String labels) throws Exception {
        return UiServer.upload(server, file, labels);
    }

    static JsonNode get(String path) throws Exception {
        return UiServer.get(server, path);
    }

    /** Distinct frame names (but the root's) of a flame graph's nodes with weight: the hot-methods rows. */
    static int methodCount(JsonNode flame) {
        Set<Integer> names = new HashSet<>();
        JsonNode nodes = flame.get("nodes");
        for (int i = 1; i < nodes.get("name").size(); i++) {
            if (nodes.get("total").get(i).asLong() > 0) {
                names.add(nodes.get("name").get(i).asInt());
            }
        }
        return names.size();
    }

    /** The path of names from the root's heaviest child down the heaviest children, depth frames long at most. */
    static List<String> heaviestPath(JsonNode flame, int depth) {
        JsonNode nodes = flame.get("nodes");
        List<String> path = new ArrayList<>();
        int node = 0;
        while (path.size() < depth) {
            int best = -1;
            for (int c = node + 1; c < node + nodes.get("count").get(node).asInt(); c += nodes.get("count").get(c).asInt()) {
                if (best < 0 || nodes.get("total").get(c).asLong() > nodes.get("total").get(best).asLong()) {
                    best = c;
                }
            }
            if (best < 0) {
                break;
            }
            path.add(flame.get("names").get(nodes.get("name").get(best).asInt()).asText());
            node = best;
        }
        return path;
    }


    @Test
    void hotMethodsListEveryMethodVirtualisedFilteredAndSortedAndAClickZoomsWithoutTouchingTheSearch() throws Exception {
        JsonNode flame = get("/api/recordings/" + maps + "/flame?kind=cpu");
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = Browser.watched(context, errors);
            page.navigate("/?page=recording&id=" + maps + "&kind=cpu&search=TreeMap");
            page.waitForSelector("#hot-methods .vbody .vrow");
            int rows = Integer.parseInt(page.getAttribute("#hot-methods", "aria-rowcount")) - 1;
            assertEquals(methodCount(flame), rows, "a row for every method of the view");
            int rendered = page.locator("#hot-methods .vbody .vrow").count();
            assertTrue(rendered < rows, "only the rows in view are built: " + rendered + " of " + rows);

            page.evaluate("() => { const s = document.querySelector('#hot-methods .vscroll'); s.scrollTop = s.scrollHeight; }");
            page.waitForSelector("#hot-methods .vrow[aria-rowindex='" + (rows + 1) + "']");

            page.fill("#side-filter", "hashmap");
            page.waitForURL(u -> u.contains("filter=hashmap"));
            page.waitForFunction("n => +document.querySelector('#hot-methods').getAttribute('aria-rowcount') < n", rows + 1);
            @SuppressWarnings("unchecked")
            List<String> names = (List<String>) page.locator("#hot-methods .vbody .vrow").evaluateAll("rs => rs.map(r => r.dataset.name)");
            assertFalse(names.isEmpty());
            assertTrue(names.stream().allMatch(n -> n.toLowerCase().contains("hashmap")), "filtered: " + names);

            page.click("#hot-methods .vhead .vcell:nth-child(1) button");
            page.waitForURL(u -> u.contains("sort=name"));
            assertEquals("ascending", page.getAttribute("#hot-methods .vhead .vcell:nth-child(1)", "aria-sort"));
            assertEquals(Boolean.TRUE, page.evaluate("() => { const n = [...document.querySelectorAll('#hot-methods .vbody .vrow')]"
                    + ".map(r => r.dataset.name); return n.every((x, i) => i === 0 || n[i - 1].localeCompare(x) <= 0); }"));

            // a row zooms the graph to the method's heaviest frame; the user's search stays
            Locator first = page.locator("#hot-methods .vbody .vrow").first();
            String method = first.getAttribute("data-name");
            first.click();
            page.waitForURL(u -> u.contains("zoom="));
            assertEquals("TreeMap", param(page.url(), "search"));
            String path = page.getAttribute(".crumbs", "data-path");
            assertTrue(path.equals(method) || path.endsWith(";" + method), path + " ends with " + method);

            // keyboard: the focused row moves with the arrow keys
            first = page.locator("#hot-methods .vbody .vrow").first();
            first.focus();
            page.keyboard().press("ArrowDown");
            assertEquals("3", page.evaluate("() => document.activeElement.getAttribute('aria-rowindex')"));
        }
        assertEquals(List.of(), errors);
    }

    @Test
    void theCallTreeFollowsTheGraphsZoomAndSearchAndItsRowsZoomTheGraph() throws Exception {
        JsonNode flame = get("/api/recordings/" + maps + "/flame?kind=cpu");
        List<String> path = heaviestPath(flame, 3);
        assertEquals(3, path.size(), "the fixture's stacks are at least three frames deep");
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = Browser.watched(context, errors);
            page.navigate("/?page=recording&id=" + maps + "&kind=cpu&side=tree&zoom=" + enc(String.join(";", path)));
            page.waitForSelector("#call-tree .vbody .vrow.selected");
            assertEquals("true", page.getAttribute("#side-tree", "aria-selected"));
            Locator root = page.locator("#call-tree .vrow[aria-rowindex='2']");
            assertEquals("all", root.getAttribute("title"));
            assertEquals("100.00%", root.locator(".vcell").nth(2).textContent());
            Locator selected = page.locator("#call-tree .vbody .vrow.selected");
            assertEquals(path.get(2), selected.getAttribute("title"), "the zoomed frame's row is selected");
            assertEquals("4", selected.getAttribute("aria-level"));
            BoundingBox row = selected.boundingBox(), box = page.locator("#call-tree .vscroll").boundingBox();
            assertTrue(row.y >= box.y && row.y + row.height <= box.y + box.height, "and scrolled into view");

            // a row zooms the graph: the root's heaviest child
            Locator child = page.locator("#call-tree .vrow[aria-rowindex='3']");
            String childName = child.getAttribute("title");
            child.click();
            page.waitForFunction("p => document.querySelector('.crumbs').dataset.path === p", childName);
            assertEquals(childName, param(page.url(), "zoom"));

            // keyboard: right opens a closed row, left closes it again
            Locator closed = page.locator("#call-tree .vbody .vrow[aria-expanded='false']").first();
            String closedIndex = closed.getAttribute("aria-rowindex");
            int before = Integer.parseInt(page.getAttribute("#call-tree", "aria-rowcount"));
            closed.focus();
            page.keyboard().press("ArrowRight");
            page.waitForFunction("i => document.querySelector(`#call-tree .vrow[aria-rowindex='${i}']`).getAttribute('aria-expanded') === 'true'", closedIndex);
            assertTrue(Integer.parseInt(page.getAttribute("#call-tree", "aria-rowcount")) > before);
            page.keyboard().press("ArrowLeft");
            page.waitForFunction("n => +document.querySelector('#call-tree').getAttribute('aria-rowcount') === n", before);

            // the graph's search marks its matches in the tree, opened to show them
            page.fill("#flame-search", "HashMap");
            page.press("#flame-search", "Enter");
            page.waitForSelector("#call-tree .vbody .vrow.match");
            @SuppressWarnings("unchecked")
            List<String> matched = (List<String>) page.locator("#call-tree .vbody .vrow.match").evaluateAll("rs => rs.map(r => r.title)");
            assertTrue(matched.stream().allMatch(n -> n.contains("HashMap")), "marked: " + matched);

            // the filter keeps the stacks through a matching frame: every row is a match, above one or below one
            page.fill("#side-filter", "TreeMap");
            page.waitForURL(u -> u.contains("filter=TreeMap"));
            page.waitForFunction("() => [...document.querySelectorAll('#call-tree .vbody .vrow')].some(r => r.title.includes('TreeMap'))");
            assertEquals(Boolean.TRUE, page.evaluate(STACKS_THROUGH_MATCHES), "filtered rows are on stacks through TreeMap");

            // sortable: by self, largest first among siblings
            page.click("#call-tree .vhead .vcell:nth-child(2) button");
            page.waitForURL(u -> u.contains("sort=self"));
            assertEquals("descending", page.getAttribute("#call-tree .vhead .vcell:nth-child(2)", "aria-sort"));

            // a zoom and a search made while the hot methods are shown: the call tree shows both once opened
            page.navigate("/?page=recording&id=" + maps + "&kind=cpu&zoom=" + enc(String.join(";", path)));
            page.waitForSelector("#hot-methods .vbody .vrow");
            page.fill("#flame-search", "HashMap");
            page.press("#flame-search", "Enter");
            page.waitForSelector("#match-info[data-share]");
            page.click("#side-tree");
            page.waitForSelector("#call-tree .vbody .vrow.match");
            assertEquals(path.get(2), page.getAttribute("#call-tree .vbody .vrow.selected", "title"), "the zoomed frame's row is selected");
            @SuppressWarnings("unchecked")
            List<String> opened = (List<String>) page.locator("#call-tree .vbody .vrow.match").evaluateAll("rs => rs.map(r => r.title)");
            assertTrue(!opened.isEmpty() && opened.stream().allMatch(n -> n.contains("HashMap")), "marked: " + opened);
        }
        assertEquals(List.of(), errors);
    }

    /**
     * Over the rendered rows of the call tree (in order, with their levels): each row's title holds TreeMap, or a
     * row above it on its path does, or it is open (a way to a match below).
     */
    static final String STACKS_THROUGH_MATCHES = """
            () => {
              const rows = [...document.querySelectorAll('#call-tree .vbody .vrow')]
                .sort((a, b) => a.getAttribute('aria-rowindex') - b.getAttribute('aria-rowindex'));
              const under = [];
              return rows.every(r => {
                const level = +r.getAttribute('aria-level');
                under.length = level - 1;
                const match = r.title.includes('TreeMap');
                const ok = match || under.some(Boolean) || r.getAttribute('aria-expanded') === 'true';
                under[level - 1] = match;
                return ok;
              });
            }""";

    @Test
    void wallViewsFilterByThreadStateWithALegendAndAKindOfTwoSamplersShowsTheOnePicked() throws Exception {
        String id = upload(Recordings.asyncProfilerWallBesideJdk(), null);
        JsonNode kinds = get("/api/recordings/" + id).get("kinds");
        JsonNode wallStates = kinds.get("wall").get("states");
        assertTrue(wallStates.has("STATE_RUNNABLE") && wallStates.has("STATE_SLEEPING"), wallStates.toString());
        long runnable = get("/api/recordings/" + id + "/flame?kind=wall&states=STATE_RUNNABLE").get("total").asLong();
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = Browser.watched(context, errors);
            page.navigate("/?page=recording&id=" + id + "&kind=wall");
            page.waitForSelector(".flame-canvas[data-drawn]");
            page.waitForSelector("#states:not([hidden]) .state");
            @SuppressWarnings("unchecked")
            List<String> shown = (List<String>) page.locator("#states .state").evaluateAll("ls => ls.map(l => l.dataset.state)");
            Set<String> recorded = new HashSet<>();
            wallStates.fieldNames().forEachRemaining(recorded::add);
            assertEquals(recorded, Set.copyOf(shown), "a legend entry per recorded state");
            long all = 0;
            for (JsonNode n : wallStates) {
                all += n.asLong();
            }
            String share = String.format(java.util.Locale.ROOT, "%.1f%%", 100.0 * wallStates.get("STATE_SLEEPING").asLong() / all);
            assertEquals(share, page.textContent(".state[data-state=STATE_SLEEPING] small"), "with its share of the samples");
            assertEquals("Sleeping", page.textContent(".state[data-state=STATE_SLEEPING] span:not(.swatch)"));

            // a frame's tooltip, once the pointer rests on it, divides its samples among the states as the server does
            Locator canvas = page.locator(".flame-canvas");
            BoundingBox box = canvas.boundingBox();
            canvas.hover(new Locator.HoverOptions().setPosition(box.width * 0.5, box.height - 18 * 1.5));
            page.waitForSelector(".flame-tooltip:not([hidden]) .tip-state");
            String frame = page.textContent(".flame-tooltip .tip-name");
            JsonNode split = get("/api/recordings/" + id + "/frame-states?kind=wall&path="
                    + enc(org.jfrworkbench.importer.CollapsedFormat.escapeFrame(frame)));
            List<String> expected = new ArrayList<>();
            for (JsonNode st : split.get("states")) {
                expected.add(st.get("state").asText());
            }
            @SuppressWarnings("unchecked")
            List<String> lines = (List<String>) page.locator(".flame-tooltip .tip-state")
                    .evaluateAll("ls => ls.map(l => l.dataset.state)");
            assertEquals(expected, lines, "a line per state of the frame's samples, most first: " + split);
            assertTrue(page.textContent(".flame-tooltip").contains("Thread states"), page.textContent(".flame-tooltip"));

            page.locator(".state[data-state=STATE_SLEEPING] input").uncheck();
            page.waitForURL(u -> "STATE_RUNNABLE".equals(param(u, "states")));
            page.waitForFunction("w => document.querySelector('#flame-status').dataset.weight === w", String.valueOf(runnable));

            page.reload();
            page.waitForSelector(".flame-canvas[data-drawn]");
            assertFalse(page.isChecked(".state[data-state=STATE_SLEEPING] input"), "the permalink restores the states");
            assertTrue(page.isChecked(".state[data-state=STATE_RUNNABLE] input"));
            assertEquals(String.valueOf(runnable), page.getAttribute("#flame-status", "data-weight"));

            // cpu has two samplers: the default one is shown, the other one picked, never their sum
            page.click("#tab-cpu");
            page.waitForURL(u -> "cpu".equals(param(u, "kind")) && param(u, "states") == null);
            page.waitForSelector(".source-picker:not([hidden])");
            JsonNode cpu = kinds.get("cpu");
            assertEquals(cpu.get("source").asText(), page.inputValue("#source"));
            page.waitForFunction("w => document.querySelector('#flame-status').dataset.weight === w", cpu.get("weight").asText());
            assertEquals(2, page.locator("#source option").count());
            page.selectOption("#source", "jdk");
            page.waitForURL(u -> "jdk".equals(param(u, "source")));
            page.waitForFunction("w => document.querySelector('#flame-status').dataset.weight === w",
                    cpu.get("sources").get("jdk").get("weight").asText());
            page.reload();
            page.waitForSelector(".flame-canvas[data-drawn]");
            assertEquals("jdk", page.inputValue("#source"));
        }
        assertEquals(List.of(), errors);
    }

    @Test
    void threadsOverTimeShowALanePerThreadBusiestFirstAndBrushingALaneFiltersByThreadAndTime() throws Exception {
        String id = upload(Recordings.asyncProfilerWallBesideJdk(), null);
        JsonNode lanes = get("/api/recordings/" + id + "/threads?kind=wall&states=STATE_SLEEPING");
        JsonNode busiest = lanes.get("threads").get(0);
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = Browser.watched(context, errors);
            page.navigate("/?page=recording&id=" + id + "&kind=wall&states=STATE_SLEEPING");
            page.waitForSelector(".flame-canvas[data-drawn]");
            page.click("#lanes-toggle");
            page.waitForURL(u -> "1".equals(param(u, "lanes")));
            page.waitForSelector("#thread-lanes .lane");
            @SuppressWarnings("unchecked")
            List<String> names = (List<String>) page.locator("#thread-lanes .lane-name").evaluateAll("ls => ls.map(l => l.textContent)");
            List<String> expected = new ArrayList<>();
            for (JsonNode lane : lanes.get("threads")) {
                if (expected.size() < names.size()) {
                    expected.add(lane.get("name").asText());
                }
            }
            assertEquals(expected, names, "a lane per thread with samples in the state shown, busiest first, by name");
            assertEquals("true", page.getAttribute("#lanes-toggle", "aria-expanded"));

            // drag across the busiest lane from 20 % to 60 % of the recording
            BoundingBox strip = page.locator("#thread-lanes .lane-strip").first().boundingBox();
            double y = strip.y + strip.height / 2;
            page.mouse().move(strip.x + strip.width * 0.2, y);
            page.mouse().down();
            page.mouse().move(strip.x + strip.width * 0.6, y, new com.microsoft.playwright.Mouse.MoveOptions().setSteps(4));
            page.mouse().up();
            page.waitForURL(u -> busiest.get("id").asText().equals(param(u, "threads")) && param(u, "from") != null);
            long from = Long.parseLong(param(page.url(), "from")), to = Long.parseLong(param(page.url(), "to"));
            long span = lanes.get("durationMillis").asLong();
            assertTrue(Math.abs(from - 0.2 * span) <= span * 0.02 && Math.abs(to - 0.6 * span) <= span * 0.02, from + ".." + to + " of " + span);
            long weight = get("/api/recordings/" + id + "/flame?kind=wall&states=STATE_SLEEPING&threads=" + busiest.get("id").asText()
                    + "&from=" + from + "&to=" + to).get("total").asLong();
            page.waitForFunction("w => document.querySelector('#flame-status').dataset.weight === w", String.valueOf(weight));
            assertTrue(page.locator("#thread-lanes .lane").first().getAttribute("class").contains("picked"));

            // a lane's name picks its thread, whatever the range
            Locator second = page.locator("#thread-lanes .lane-name").nth(1);
            second.click();
            String secondId = lanes.get("threads").get(1).get("id").asText();
            page.waitForURL(u -> secondId.equals(param(u, "threads")));
            page.click("#lanes-toggle");
            page.waitForURL(u -> param(u, "lanes") == null);
            assertTrue(page.locator("#lanes-holder").isHidden(), "the lanes fold away");
        }
        assertEquals(List.of(), errors);
    }

    @Test
    void aTimeRangeThatShowsNothingIsExplainedAndCanBeMended() {
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = Browser.watched(context, errors);
            page.navigate("/?page=recording&id=" + maps + "&kind=cpu&from=1000&to=200");
            page.waitForSelector("#view-problem:not([hidden])");
            assertTrue(page.textContent("#view-problem").contains("ends earlier"), page.textContent("#view-problem"));
            assertTrue(page.locator(".flame-panel").isHidden(), "no empty graph");
            assertEquals(0, ((Number) page.evaluate("() => performance.getEntriesByType('resource')"
                    + ".filter(e => e.name.includes('/flame?')).length")).intValue(), "no graph was asked for");
            page.click("#range-swap");
            page.waitForURL(u -> "200".equals(param(u, "from")) && "1000".equals(param(u, "to")));
            page.waitForSelector(".flame-canvas[data-drawn]");
            assertTrue(page.locator("#view-problem").isHidden());

            page.navigate("/?page=recording&id=" + maps + "&kind=cpu&from=abc");
            page.waitForSelector("#view-problem:not([hidden])");
            assertTrue(page.textContent("#view-problem").contains("not two whole numbers"), page.textContent("#view-problem"));
        }
        assertEquals(List.of(), errors);
    }

    @Test
    void everyPageFitsATabletAndAPhoneWithItsMenusReachableAndFollowsDarkMode() {
        List<String> errors = Browser.errors();
        for (int[] size : new int[][] {{768, 1024}, {390, 844}}) {
            for (ColorScheme scheme : size[0] == 768 ? List.of(ColorScheme.LIGHT) : List.of(ColorScheme.DARK)) {
                try (BrowserContext context = browser.chromium.newContext(new com.microsoft.playwright.Browser.NewContextOptions()
                        .setViewportSize(size[0], size[1]).setColorScheme(scheme).setBaseURL(server.baseUrl()))) {
                    Page page = Browser.watched(context, errors);
                    String where = size[0] + " px " + scheme;
                    page.navigate("/");
                    page.waitForSelector("#recordings tbody tr");
                    assertFits(page, "recordings at " + where, size[0]);
                    double luminance = ((Number) page.evaluate(BACKGROUND_LUMINANCE)).doubleValue();
                    assertTrue(scheme == ColorScheme.DARK ? luminance < 0.2 : luminance > 0.8, "page background at " + where + ": " + luminance);

                    page.navigate("/?page=recording&id=" + maps + "&kind=cpu&side=tree");
                    page.waitForSelector(".flame-canvas[data-drawn]");
                    page.waitForSelector("#call-tree .vbody .vrow");
                    page.waitForSelector("#timeline svg .bars");
                    assertFits(page, "recording at " + where, size[0]);
                    // the export menu opens in the window and its items take a click
                    page.click(".flame-panel details.menu > summary");
                    assertInWindow(page, "#export-collapsed", size[0], where);
                    page.locator("#export-collapsed").click(new Locator.ClickOptions().setTrial(true));
                    page.keyboard().press("Escape");
                    page.click("#compare-button");
                    page.waitForSelector("#compare-list li");
                    assertInWindow(page, "#compare-list li .as-target", size[0], where);
                    assertFits(page, "recording with the compare menu open at " + where, size[0]);
                    Browser.screenshot(page, "recording-" + size[0] + ".png");

                    page.navigate("/?page=diff&base=" + sort + "&id=" + maps);
                    page.waitForSelector(".flame-canvas[data-drawn]");
                    assertFits(page, "diff at " + where, size[0]);
                    page.navigate("/?page=heap&id=" + maps);
                    page.waitForSelector("#gc-chart .gc");
                    page.waitForSelector("#live-summary, .message");
                    assertFits(page, "heap at " + where, size[0]);
                }
            }
        }
        assertEquals(List.of(), errors);
    }

    /** The relative luminance of the body's background colour, 0 (black) to 1 (white). */
    static final String BACKGROUND_LUMINANCE = """
            () => {
              const [r, g, b] = getComputedStyle(document.documentElement).backgroundColor.match(/\\d+/g).map(Number);
              return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
            }""";

    private static void assertFits(Page page, String what, int width) {
        Object overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth");
        assertEquals(0, ((Number) overflow).intValue(), what + ": the page scrolls sideways");
    }

    private static void assertInWindow(Page page, String selector, int width, String where) {
        page.waitForSelector(selector);
        BoundingBox box = page.locator(selector).first().boundingBox();
        assertTrue(box.x >= 0 && box.x + box.width <= width, selector + " inside the window at " + where + ": " + box.x + "+" + box.width);
    }
}
