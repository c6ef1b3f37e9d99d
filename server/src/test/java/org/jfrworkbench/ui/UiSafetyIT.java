package org.jfrworkbench.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Download;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import org.jfrworkbench.testkit.Browser;
import org.jfrworkbench.testkit.TestRecordings;
import org.junit.jupiter.api.Test;

/** Frame names, labels and file names from uploads are shown as text: markup in them never runs. */
class UiSafetyIT extends BrowserTest {
    static final String IMG = "<img src=x onerror=window.__pwned=1>";
    static final String SCRIPT = "<script>window.__pwned=2</script>";
    static final String FILE_NAME = "<svg onload=window.__pwned=3>.txt";
    static final String THREAD_NAME = "<img src=x onerror=window.__pwned=4>\"'&amp;";
    static final String JFR_NAME = "<iframe src=javascript:window.__pwned=5>.jfr";


    private static Path export(Page page, String item) {
        if (!page.isVisible(item)) {
            page.click(".flame-panel summary");
        }
        Download download = page.waitForDownload(() -> page.click(item));
        return download.path();
    }

    @Test
    void markupInFrameNamesLabelsAndFileNamesIsShownAsTextOnScreenAndInExports() throws Exception {
        Path file = temp.resolve(FILE_NAME);
        Files.writeString(file, String.join("\n",
                "java.lang.Thread.run;" + IMG + ";" + SCRIPT + " 700",
                "java.lang.Thread.run;" + IMG + ";com.acme.Safe.work 200",
                "java.lang.Thread.run;com.acme.Other.\"quoted\"&amp; 100", ""), StandardCharsets.UTF_8);
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = Browser.watched(context, errors);
            page.navigate("/");
            page.fill("#upload-labels", "team=" + SCRIPT.replace("=", ":"));
            page.setInputFiles("#file-input", file);
            page.waitForSelector("#uploads li.done");
            page.waitForSelector("#recordings tbody tr");
            assertTrue(page.locator("#recordings .chip").first().textContent().contains("<script>"), "label shown as text");

            assertEquals(FILE_NAME, page.textContent("#recordings a.title-link"));
            page.click("#recordings a.title-link");
            assertEquals(FILE_NAME, page.textContent("h1.title"));
            page.waitForSelector(".flame-canvas[data-drawn]");
            page.waitForSelector("#hot-methods .vbody .vcell.method"); // built after the graph has painted
            Locator hot = page.locator("#hot-methods .vbody .vcell.method");
            assertTrue(hot.allTextContents().contains(IMG), "frame name shown as text: " + hot.allTextContents());
            assertTrue(hot.allTextContents().contains(SCRIPT));
            assertTrue(page.getByText(IMG, new Page.GetByTextOptions().setExact(true)).first().isVisible());

            page.getByText(IMG, new Page.GetByTextOptions().setExact(true)).first().click();
            page.waitForURL(u -> u.contains("zoom="));
            assertTrue(page.getAttribute(".crumbs", "data-path").contains(IMG));
            assertTrue(page.locator(".crumbs button").allTextContents().contains(IMG));
            page.locator(".flame-canvas").hover(new Locator.HoverOptions().setPosition(30, 9));
            page.waitForSelector(".flame-tooltip:not([hidden])");
            assertTrue(page.textContent(".flame-tooltip").contains("<"), "tooltip text: " + page.textContent(".flame-tooltip"));
            Browser.screenshot(page, "safety.png");

            String collapsed = Files.readString(export(page, "#export-collapsed"));
            assertTrue(collapsed.contains("java.lang.Thread.run;" + IMG + ";" + SCRIPT + " 700"), collapsed);
            String svg = Files.readString(export(page, "#export-svg"));
            assertTrue(svg.startsWith("<svg") && svg.contains("&lt;img src=x onerror=window.__pwned=1&gt;"), "names escaped in SVG");
            assertTrue(!svg.contains("<img") && !svg.contains("<script"), "no markup from names in the SVG");
            byte[] png = Files.readAllBytes(export(page, "#export-png"));
            assertEquals((byte) 0x89, png[0]);
            assertEquals('P', png[1]);

            assertEquals(0, page.locator("#app img, #app script").count(), "no element was created from a name");
            assertEquals(true, page.evaluate("() => window.__pwned === undefined"));
        }
        assertEquals(List.of(), errors);
    }

    @Test
    void markupInThreadNamesAndRecordingFileNamesIsShownAsText() throws Exception {
        Path jfr = TestRecordings.record(temp.resolve(JFR_NAME), false, 800, false, THREAD_NAME);
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = Browser.watched(context, errors);
            page.onDialog(d -> {
                errors.add("dialog: " + d.message());
                d.dismiss();
            });
            page.navigate("/");
            page.setInputFiles("#file-input", jfr);
            page.waitForSelector("#uploads li.done");
            Locator link = page.locator("#recordings a.title-link", new Page.LocatorOptions().setHasText("iframe"));
            assertEquals(JFR_NAME, link.textContent());
            link.click();
            assertEquals(JFR_NAME, page.textContent("h1.title"));
            page.waitForSelector(".flame-canvas[data-drawn]");
            page.click("#threads-button");
            Locator names = page.locator("#threads .thread-name");
            assertTrue(names.allTextContents().contains(THREAD_NAME), "thread name shown as text: " + names.allTextContents());
            page.fill(".thread-filter", "<img");
            assertTrue(page.getByText(THREAD_NAME, new Page.GetByTextOptions().setExact(true)).first().isVisible());
            Browser.screenshot(page, "safety-threads.png");
            assertEquals(0, page.locator("#app img, #app script, #app iframe, #app svg[onload]").count(), "no element from a name");
            assertEquals(true, page.evaluate("() => window.__pwned === undefined"));
        }
        assertEquals(List.of(), errors);
    }

    @Test
    void aSharedLinksBacktrackingSearchIsMatchedInLinearTimeAndAnInvalidOneIsNamed() throws Exception {
        // names long enough that a backtracking engine takes seconds per name: the server's and the page's must not
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 200; i++) {
            text.append("java.lang.Thread.run;com.acme.generated.").append("a".repeat(40)).append(i).append(".call 1\n");
        }
        var http = java.net.http.HttpClient.newHttpClient();
        var reply = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(server.baseUrl()
                        + "/api/recordings?name=long-names.txt")).POST(java.net.http.HttpRequest.BodyPublishers.ofString(text.toString()))
                .build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(201, reply.statusCode(), reply.body());
        String id = reply.body().replaceAll("(?s).*?\"id\"\\s*:\\s*\"([0-9a-f]+)\".*", "$1");
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            Page page = Browser.watched(context, errors);
            String evil = java.net.URLEncoder.encode("((?:[\\w.$]+)+)+!", StandardCharsets.UTF_8);
            page.navigate("/?id=" + id + "&kind=cpu&search=" + evil);
            page.waitForSelector(".flame-canvas[data-drawn]");
            page.waitForFunction("() => document.querySelector('#match-info').textContent.includes('No frame matches')");
            assertEquals(2, ((Number) page.evaluate("() => 1 + 1")).intValue(), "the page still runs scripts");
            page.fill("#flame-search", "(a)\\1");
            page.press("#flame-search", "Enter");
            page.waitForFunction("() => document.querySelector('#match-info').textContent.includes('Invalid regex')");
            assertTrue(page.textContent("#match-info").contains("back-references"), page.textContent("#match-info"));
        }
        assertEquals(List.of(), errors);
    }
}
