package org.jfrworkbench.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The page names its scripts and styles under a path of the server process's own, whose answers the browser may keep
 * for good: a page opened again loads its code from the browser's cache, without a request per module. The page
 * itself is asked for on every load, so a new server names new code; a path of an earlier process is sent on to this
 * one's, for a page loaded before a restart that loads a module later.
 */
class PageAssetsTest {
    @TempDir
    Path tmp;

    @Test
    void thePagesCodeIsKeptByTheBrowserUnderThisProcesssPathAndAnEarlierPathIsSentOn() throws Exception {
        try (TestServer s = new TestServer(tmp, 1 << 20, null)) {
            HttpResponse<String> page = s.http.send(HttpRequest.newBuilder(URI.create(s.base + "/")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals("no-cache", page.headers().firstValue("Cache-Control").orElse(null));
            Matcher boot = Pattern.compile("src=\"(/assets/[a-z0-9]+)/js/core/boot\\.js\"").matcher(page.body());
            assertTrue(boot.find(), page.body());
            String assets = boot.group(1);
            assertTrue(page.body().contains("href=\"" + assets + "/css/app.css\""), page.body());
            assertTrue(!page.body().contains("\"/js/") && !page.body().contains("\"/css/"), page.body());

            for (String file : new String[] {"/js/core/boot.js", "/js/app.js", "/js/pages/recording.js", "/css/app.css"}) {
                HttpResponse<String> r = s.http.send(HttpRequest.newBuilder(URI.create(s.base + assets + file)).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode(), file);
                assertEquals("public, max-age=31536000, immutable", r.headers().firstValue("Cache-Control").orElse(null), file);
                assertEquals(s.get(file).body(), r.body(), file + ": the same file as under its plain path");
            }
            assertEquals(404, s.get(assets + "/js/nothing.js").status());

            HttpResponse<String> earlier = s.http.send(HttpRequest.newBuilder(URI.create(s.base + "/assets/0/js/pages/heap.js"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(302, earlier.statusCode());
            String location = earlier.headers().firstValue("Location").orElse("");
            assertTrue(location.equals(assets + "/js/pages/heap.js") || location.equals(s.base + assets + "/js/pages/heap.js"), location);
            assertEquals(404, s.get("/api/recordings/nothing").status(), "other paths' answers stay");
        }
    }

    @Test
    void thePageNamesInItsHeadEveryModuleItsViewImportsStaticallyAndNoneItLoadsOnUse() throws Exception {
        try (TestServer s = new TestServer(tmp, 1 << 20, null)) {
            List<String> recording = preloads(s, "/?id=abc&kind=cpu");
            for (String m : new String[] {"app.js", "pages/recording.js", "core/dom.js", "core/api.js", "flame/flamegraph.js",
                "flame/flametree.js", "components/samplefilters.js"}) {
                assertTrue(recording.contains("js/" + m), m + " in " + recording);
            }
            // loaded after the first paint (import() in the page), or named by index.html itself
            for (String m : new String[] {"components/timeline.js", "components/hotmethods.js", "flame/linearregex.js", "core/boot.js"}) {
                assertFalse(recording.contains("js/" + m), m + " in " + recording);
            }
            assertEquals(recording, preloads(s, "/?page=recording&id=abc"), "the page an address shows without page=");
            assertTrue(preloads(s, "/?page=diff&base=a&id=b").contains("js/pages/diff.js"));
            assertTrue(preloads(s, "/?page=heap&id=a").contains("js/components/gcview.js"), "the heap page's GC chart is its first paint");
            assertEquals(List.of("js/app.js", "js/core/dom.js", "js/core/state.js", "js/pages/common.js", "js/core/api.js"),
                    preloads(s, "/?page=nothing"), "an unknown page: the router's own, which says so");
            assertTrue(preloads(s, "/").contains("js/pages/recordings.js"));
            String head = s.http.send(HttpRequest.newBuilder(URI.create(s.base + "/?id=abc")).build(), HttpResponse.BodyHandlers.ofString()).body();
            Matcher named = Pattern.compile("rel=\"modulepreload\" href=\"([^\"]+)\"").matcher(head);
            while (named.find()) {
                assertEquals(200, s.get(named.group(1)).status(), named.group(1));
            }
        }
    }

    @Test
    void thePageNamesInItsHeadTheDataItsEntryAsksForFirstBuiltAsTheEntryBuildsItsUrls() throws Exception {
        try (TestServer s = new TestServer(tmp, 1 << 20, null)) {
            assertEquals(List.of("/api/recordings/3f2a", "/api/recordings/3f2a/flame?kind=cpu&amp;from=10&amp;to=20&amp;threads=1%2C2"
                    + "&amp;states=RUNNABLE&amp;weight=ns&amp;invert=true&amp;format=binary"),
                    data(s, "/?page=recording&id=3f2a&kind=cpu&from=10&to=20&threads=1,2&states=RUNNABLE&weight=ns&invert=1&zoom=a;b"));
            assertEquals(List.of("/api/recordings/3f2a/flame?kind=alloc&amp;format=binary"), data(s, "/?id=3f2a&kind=alloc").subList(1, 2),
                    "the page an address shows without page=");
            assertEquals(List.of("/api/recordings/3f2a"), data(s, "/?id=3f2a"), "no kind named: the page picks it from the metadata");
            assertEquals(List.of("/api/recordings/3f2a"), data(s, "/?id=3f2a&kind=cpu&from=20&to=10"), "a range the page does not show");
            assertEquals(List.of("/api/recordings/3f2a"), data(s, "/?id=3f2a&kind=cpu&from=x"));
            assertEquals(List.of("/api/recordings/3f2a"), data(s, "/?page=heap&id=3f2a&kind=cpu"));
            assertEquals(List.of(), data(s, "/?id=%22%3E%3Cscript%3E&kind=cpu"), "an id that is no recording's is left to the entry");
            assertEquals(List.of(), data(s, "/"));
        }
    }

    /** The data the page's head asks for for a link, as written in the page. */
    private static List<String> data(TestServer s, String link) throws Exception {
        return inPage(s, link, "<link rel=\"preload\" as=\"fetch\" crossorigin href=\"([^\"]+)\">");
    }

    /** What the page of a link holds where pattern's first group is, in order. */
    private static List<String> inPage(TestServer s, String link, String pattern) throws Exception {
        String html = s.http.send(HttpRequest.newBuilder(URI.create(s.base + link)).build(), HttpResponse.BodyHandlers.ofString()).body();
        Matcher m = Pattern.compile(pattern).matcher(html);
        List<String> out = new java.util.ArrayList<>();
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /** The modules the page's head names for a link, under the assets path, in order. */
    private static List<String> preloads(TestServer s, String link) throws Exception {
        List<String> out = inPage(s, link, "rel=\"modulepreload\" href=\"/assets/[a-z0-9]+/([^\"]+)\"");
        out.remove("js/core/urls.js"); // index.html's own, the entry's one import
        return out;
    }
}
