package org.jfrworkbench.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.jfrworkbench.ui.UiServer.param;

import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.util.List;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Mouse;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.BoundingBox;
import org.jfrworkbench.testkit.jfr.CountedLeakRecording;
import org.jfrworkbench.testkit.jfr.LeakingRecording;
import org.jfrworkbench.testkit.jfr.OlderObjectsRecording;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The heap page's growth, GC pauses and heap diff in Chromium, on generated recordings whose leak is known
 * ({@link LeakingRecording}: com.acme.Leak grows 1 MiB/s from Cache.put; GCs every 2 s, the last at 58 s).
 */
class UiHeapIT extends BrowserTest {
    static String leaking;
    static String steady;

    @BeforeAll
    static void start() throws Exception {
        leaking = upload("leaking.jfr", LeakingRecording.write(1L << 20, 0.25, 7));
        steady = upload("steady.jfr", LeakingRecording.write(1L << 16, 0.25, 8));
    }

    static String upload(String name, byte[] bytes) throws Exception {
        return UiServer.upload(server, name, null, HttpRequest.BodyPublishers.ofByteArray(bytes));
    }

    @Test
    void growingNamesTheLeakFirstAndOpensTheStackThatAllocatesIt() {
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = context.newPage();
            Locator first = firstSuspect(page, leaking, LeakingRecording.LEAK);
            assertTrue(first.locator("svg.sparkline polyline").count() == 1, "a sparkline per class");
            assertTrue(!page.locator("#growth-stack-0").isVisible(), "the stack is closed until asked for");
            openStack(page, first);
            List<String> frames = page.locator("#growth-stack-0 .stack-frames li").allTextContents();
            assertEquals(List.of("com.acme.Service.handle", "com.acme.Cache.put", LeakingRecording.LEAK), frames);
            String findings = page.locator("#heap-findings").textContent();
            assertTrue(findings.contains("Live set grows") && findings.contains("Suspect " + LeakingRecording.LEAK)
                    && findings.contains("longest pause 10.0 ms"), findings);
            assertTrue(page.locator("#finding-alloc-stacks li").first().textContent().startsWith("com.acme.Json.render (java.lang.String)"),
                    page.locator("#finding-alloc-stacks").textContent());
            int rows = page.locator("#growth-table tbody tr.growth-row").count();
            assertEquals(1 + Math.min(5, rows), page.locator("#live-set-legend .swatch").count(),
                    "the live set and a line per class (at most five)");
            assertTrue(page.locator("#live-set-chart path.line-0").count() == 1, "the first suspect's line");
            // a series per allocation site
            page.selectOption("#growth-by", "stack");
            page.waitForFunction("() => new URLSearchParams(location.search).get('by') === 'stack'");
            page.waitForSelector("#growth-table tbody tr.growth-row small.site");
            assertEquals(" at com.acme.Cache.put", page.locator("#growth-table tbody tr.growth-row").first()
                    .locator("small.site").textContent());
        }
    }

    @Test
    void theGcViewDrawsPausesAndABrushSelectsTheObjectsAllocatedInItsRange() {
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = context.newPage();
            page.navigate("/?page=heap&id=" + leaking);
            page.waitForSelector("#live-classes tbody tr");
            assertEquals(29, page.locator("#gc-pauses rect.pause").count());
            assertTrue(page.locator("#live-classes tbody tr").count() >= 3, "every class at the last GC");
            // each class with its sampling error, 1/sqrt(samples)
            long samples = Long.parseLong(page.locator("#live-classes tbody tr").first().locator("td").nth(3).textContent()
                    .replace(",", ""));
            assertEquals("\u00b1" + Math.round(100 / Math.sqrt(samples)) + "%",
                    page.locator("#live-classes tbody tr").first().locator("td.error").textContent());
            // drag from between the bars of the GCs at 30 s and 32 s to between those at 54 s and 56 s
            Locator bars = page.locator("#gc-pauses rect.pause");
            double from = between(bars.nth(14).boundingBox(), bars.nth(15).boundingBox());
            double to = between(bars.nth(26).boundingBox(), bars.nth(27).boundingBox());
            BoundingBox chart = page.locator("#gc-pauses svg").boundingBox();
            double y = chart.y + chart.height / 2;
            page.mouse().move(from, y);
            page.mouse().down();
            page.mouse().move(to, y, new Mouse.MoveOptions().setSteps(8));
            page.mouse().up();
            page.waitForFunction("() => new URLSearchParams(location.search).has('to')");
            long fromMs = Long.parseLong(param(page.url(), "from"));
            long toMs = Long.parseLong(param(page.url(), "to"));
            assertTrue(fromMs > 30_000 && fromMs < 32_000 && toMs > 54_000 && toMs < 56_000, page.url());
            page.waitForSelector("#live-summary:has-text('in the selected range')");
            // the flat classes were allocated in the first half second: only the leak is left
            assertEquals(List.of(LeakingRecording.LEAK), page.locator("#live-classes tbody td.method").evaluateAll(
                    "cells => cells.map(c => c.title)"));
            // the range is in the address: a reload shows the same
            page.reload();
            page.waitForSelector("#live-summary:has-text('in the selected range')");
            assertTrue(page.locator("#heap-range").textContent().startsWith("Objects allocated"));
            assertEquals(1, page.locator("#live-classes tbody tr").count());
            // the same range's allocations on the recording page
            page.click("#heap-range-alloc");
            page.waitForFunction("() => new URLSearchParams(location.search).get('page') === 'recording'");
            assertEquals("alloc", param(page.url(), "kind"));
            assertEquals(String.valueOf(fromMs), param(page.url(), "from"));
            assertEquals(String.valueOf(toMs), param(page.url(), "to"));
            page.goBack();
            page.waitForSelector("#live-summary:has-text('in the selected range')");
            page.click("#heap-range-clear");
            page.waitForFunction("() => !new URLSearchParams(location.search).has('from')");
            page.waitForFunction("() => document.querySelectorAll('#live-classes tbody tr').length >= 3");
        }
    }

    @Test
    void theGcViewDrawsEachMemoryPoolWhereTheRecordingHasThem() throws Exception {
        String g1 = upload("retaining-cache.jfr", java.nio.file.Files.readAllBytes(Path.of("../sample-recordings/retaining-cache.jfr")));
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = context.newPage();
            page.navigate("/?page=heap&id=" + g1);
            // eden after a young GC is empty: its line lies flat on the axis, drawn but of no height
            page.waitForSelector("#gc-pools path.pool-line", new Page.WaitForSelectorOptions()
                    .setState(com.microsoft.playwright.options.WaitForSelectorState.ATTACHED));
            assertEquals(List.of("G1 Eden", "G1 Old", "G1 Survivor", "Metaspace"),
                    page.locator("#gc-pools path.pool-line title").allTextContents());
            assertTrue(page.locator("#gc-pools-legend").textContent().contains("Metaspace"));
            page.waitForSelector("#gc-pauses rect.pause");
            // with every part drawn (findings, pools, growth), a phone's width holds the page; wide tables scroll
            page.waitForSelector("#growth-table tbody tr");
            page.setViewportSize(390, 844);
            page.waitForFunction("() => document.documentElement.scrollWidth - window.innerWidth === 0");
            // the generated recordings state no pool: no empty chart
            page.navigate("/?page=heap&id=" + leaking);
            page.waitForSelector("#gc-pauses rect.pause");
            assertEquals(0, page.locator("#gc-pools").count());
        }
    }

    /** The heap page of recording id, its Growing table's first row once shown, which must name cls. */
    private static Locator firstSuspect(Page page, String id, String cls) {
        page.navigate("/?page=heap&id=" + id);
        page.waitForSelector("#growth-table tbody tr.growth-row");
        Locator first = page.locator("#growth-table tbody tr.growth-row").first();
        assertEquals(cls, first.locator("td.method").getAttribute("title"));
        return first;
    }

    /** Opens a Growing row's stack and waits until it shows. */
    private static void openStack(Page page, Locator row) {
        row.locator(".growth-open").click();
        page.waitForSelector("#growth-stack-0", new Page.WaitForSelectorOptions()
                .setState(com.microsoft.playwright.options.WaitForSelectorState.VISIBLE));
    }

    private static double between(BoundingBox a, BoundingBox b) {
        return (a.x + a.width + b.x) / 2;
    }

    @Test
    void aGcTheJvmCountedShowsItsClassesAsExactAndALaterGcTheCountedOlderObjects() throws Exception {
        String counted = upload("older-counted.jfr", OlderObjectsRecording.write(true, false));
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = context.newPage();
            page.navigate("/?page=heap&id=" + counted + "&gc=1");
            page.waitForSelector("#live-summary:has-text('the JVM counted its classes at this GC exactly')");
            assertEquals(List.of("exact", "exact", "exact"), page.locator("#live-classes tbody td.error").evaluateAll(
                    "cells => cells.map(c => c.textContent)"));
            // the next chunk has no sample of Entry: its counted bytes are kept, and say so
            page.navigate("/?page=heap&id=" + counted + "&gc=3");
            page.waitForSelector("#live-summary:has-text('older objects of the classes the JVM counted at an earlier GC')");
            String entry = "#live-classes tbody tr:has(td.method[title='" + OlderObjectsRecording.ENTRY + "']) td.error";
            assertTrue(page.locator(entry).getAttribute("title").contains("as counted at an earlier GC"),
                    page.locator(entry).getAttribute("title"));
        }
    }

    @Test
    void aLeakOnlyTheJvmsCountsShowIsGrowingWithItsCountsAndNoStack() throws Exception {
        String counted = upload("leak-counted.jfr", CountedLeakRecording.write(true));
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = context.newPage();
            Locator first = firstSuspect(page, counted, CountedLeakRecording.LEAK);
            assertEquals("0 \u00b7 3 counted", first.locator("td.samples-counted").textContent());
            openStack(page, first);
            assertEquals(List.of("[no stack]", CountedLeakRecording.LEAK),
                    page.locator("#growth-stack-0 .stack-frames li").allTextContents());
            assertTrue(page.locator("#growth-stack-0 p.hint").textContent().contains("the JVM\u2019s counts"),
                    page.locator("#growth-stack-0 p.hint").textContent());
        }
    }

    @Test
    void theHeapDiffAgainstAnEarlierGcAndAnotherRecordingShowsTheLeakAsSignificant() {
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = context.newPage();
            page.navigate("/?page=heap&id=" + leaking);
            page.waitForSelector("#live-classes tbody tr");
            page.selectOption("#compare-gc", "4");
            page.waitForSelector("#heapdiff-classes tbody tr");
            assertEquals("heapdiff", param(page.url(), "page"));
            assertEquals("4", param(page.url(), "baseGc"));
            assertEquals("28", param(page.url(), "gc"));
            assertSignificantLeak(page);
            page.reload();
            page.waitForSelector("#heapdiff-classes tbody tr");
            assertSignificantLeak(page);
            assertEquals(1, page.locator("#heapdiff-classes tr.sig-grew, #heapdiff-classes tr.sig-shrank").count(),
                    "in bytes only the leak changed");
            // in shares the flat classes shrink as the leak takes the heap
            page.click("#mode-relative");
            page.waitForFunction("() => new URLSearchParams(location.search).get('mode') === 'relative'");
            page.waitForFunction("() => document.querySelectorAll('#heapdiff-classes tr.sig-shrank').length === 2");
            assertEquals("true", page.locator("#mode-relative").getAttribute("aria-checked"));
            page.click("#mode-bytes");
            page.waitForFunction("() => !new URLSearchParams(location.search).has('mode')");
            page.waitForFunction("() => document.querySelectorAll('#heapdiff-classes tr.sig-shrank').length === 0");
            // a GC against itself: nothing significant
            page.selectOption("#baseGc-select", "28");
            page.waitForFunction("() => new URLSearchParams(location.search).get('baseGc') === '28'");
            page.waitForSelector(".heapdiff-body .warning:has-text('both sides are GC 28')");
            assertEquals(0, page.locator("#heapdiff-classes tr.sig-grew, #heapdiff-classes tr.sig-shrank").count());
            assertEquals("28", param(page.locator(".page-head .facts a").first().getAttribute("href"), "gc"),
                    "the baseline's name links to its heap page at the GC shown");

            // another recording as the baseline, from the heap page's picker
            page.navigate("/?page=heap&id=" + leaking);
            page.waitForSelector("#live-classes tbody tr");
            page.click("#compare-button");
            page.locator("#compare-list li[data-id='" + steady + "'] .as-baseline").click();
            page.waitForSelector("#heapdiff-classes tbody tr");
            assertEquals(steady, param(page.url(), "base"));
            assertEquals(leaking, param(page.url(), "id"));
            assertSignificantLeak(page);
        }
    }

    private static void assertSignificantLeak(Page page) {
        Locator first = page.locator("#heapdiff-classes tbody tr").first();
        assertEquals(LeakingRecording.LEAK, first.locator("td.method").getAttribute("title"));
        assertTrue(first.getAttribute("class").contains("sig-grew"), first.getAttribute("class"));
        assertEquals("\u25b2 grew", first.locator("td.sig").textContent());
        Locator site = page.locator("#heapdiff-stacks tbody tr").first();
        assertTrue(site.textContent().contains("com.acme.Cache.put"), site.textContent());
    }
}
