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
            assertEquals(List.of("/api/recordings/3f2a", "/api/recordings/3f2a/flame?kind=cpu&amp;from=5&amp;format=binary"),
                    data(s, "/?id=3f2a&kind=cpu&kind=wall&from=5&from=7"), "the first value of each parameter, as the page reads them");
        }
    }

    @Test
    void aDiffsHeadNamesBothRecordingsAndTheDiffBuiltAsTheEntryBuildsItsUrl() throws Exception {
        try (TestServer s = new TestServer(tmp, 1 << 20, null)) {
            assertEquals(List.of("/api/recordings/t2", "/api/recordings/b1", "/api/diff?base=b1&amp;target=t2&amp;kind=cpu&amp;format=binary"),
                    data(s, "/?page=diff&base=b1&id=t2&kind=cpu&zoom=a;b&search=x"));
            assertEquals(data(s, "/?page=diff&base=b1&id=t2&kind=cpu"), data(s, "/?base=b1&id=t2&kind=cpu"), "the page an address shows without page=");
            // every parameter of the diff's view, in the order js/core/urls.js writes them, whatever the link's order
            assertEquals(List.of("/api/diff?base=b1&amp;target=t2&amp;kind=alloc&amp;mode=absolute&amp;weight=samples"
                    + "&amp;states=STATE_RUNNABLE%2CSTATE_SLEEPING&amp;source=jdk&amp;baseFrom=0&amp;baseTo=1200&amp;baseThreads=3"
                    + "&amp;baseStates=STATE_RUNNABLE&amp;baseSource=async-profiler&amp;targetFrom=100&amp;targetTo=900"
                    + "&amp;targetThreads=1%2C2&amp;targetStates=STATE_SLEEPING&amp;targetSource=jdk&amp;format=binary"),
                    data(s, "/?targetSource=jdk&targetStates=STATE_SLEEPING&targetThreads=1,2&targetTo=900&targetFrom=100"
                            + "&baseSource=async-profiler&baseStates=STATE_RUNNABLE&baseThreads=3&baseTo=1200&baseFrom=0&source=jdk"
                            + "&states=STATE_RUNNABLE,STATE_SLEEPING&weight=samples&mode=absolute&kind=alloc&kind=cpu&id=t2&base=b1&page=diff").subList(2, 3));
            assertEquals(List.of("/api/recordings/a", "/api/diff?base=a&amp;target=a&amp;kind=cpu&amp;baseFrom=0&amp;baseTo=10"
                    + "&amp;targetFrom=10&amp;targetTo=20&amp;format=binary"),
                    data(s, "/?page=diff&base=a&id=a&kind=cpu&baseFrom=0&baseTo=10&targetFrom=10&targetTo=20"),
                    "two ranges of one recording: its metadata once");
            assertEquals(List.of("/api/recordings/t2", "/api/recordings/b1"), data(s, "/?page=diff&base=b1&id=t2"),
                    "no kind named: the page picks one both recordings have");
            assertEquals(List.of("/api/recordings/t2"), data(s, "/?page=diff&id=t2&kind=cpu"), "no baseline: the page asks for one");
        }
    }

    @Test
    void aDiffOfRunsHeadNamesTheSearchItsPageReadsTheKindsFromAndTheDiffBuiltAsTheEntryBuildsItsUrls() throws Exception {
        try (TestServer s = new TestServer(tmp, 1 << 20, null)) {
            String list = "/api/recordings?q=label%3A%22service%3Dcheckout%22&amp;limit=1&amp;offset=0";
            assertEquals(List.of(list, "/api/merged/diff?q=label%3A%22service%3Dcheckout%22&amp;targetQ=app%3Acatalog+java%3A25"
                    + "&amp;kind=cpu&amp;mode=absolute&amp;weight=samples&amp;states=STATE_RUNNABLE&amp;source=jdk&amp;baseFrom=1000"
                    + "&amp;baseTo=2000&amp;targetFrom=3000&amp;targetTo=4000&amp;format=binary"),
                    data(s, "/?page=diff&targetTo=4000&targetFrom=3000&baseTo=2000&baseFrom=1000&source=jdk&states=STATE_RUNNABLE"
                            + "&weight=samples&mode=absolute&kind=cpu&kind=wall&targetQ=app:catalog%20java:25&q=label:%22service%3Dcheckout%22"
                            + "&zoom=a;b"), "the order js/core/urls.js writes them in, the first value of each");
            assertEquals(List.of("/api/recordings?limit=1&amp;offset=0", "/api/merged/diff?kind=cpu&amp;baseFrom=1&amp;baseTo=2"
                    + "&amp;targetFrom=3&amp;targetTo=4&amp;format=binary"),
                    data(s, "/?page=diff&kind=cpu&baseFrom=1&baseTo=2&targetFrom=3&targetTo=4"), "no search: every recording's runs");
            assertEquals(List.of(list), data(s, "/?page=diff&q=label:%22service%3Dcheckout%22&baseFrom=1&baseTo=2&targetFrom=3&targetTo=4"),
                    "no kind named: the page picks one from the search's kinds");
            for (String view : new String[] {"kind=bogus", "kind=cpu&baseFrom=2&baseTo=2&targetFrom=3&targetTo=4",
                "kind=cpu&baseFrom=1&targetFrom=3&targetTo=4", "kind=cpu&baseFrom=1&baseTo=2&targetFrom=3&targetTo=4e3",
                "kind=cpu&baseFrom=1&baseTo=2&targetFrom=3&targetTo=4&mode=%3Cimg%20src%3Dx%3E"}) {
                assertEquals(List.of(list), data(s, "/?page=diff&q=label:%22service%3Dcheckout%22&" + view), view + ": the diff left to the entry");
            }
            // a search is free text: written encoded, whatever it holds; one with control characters is left to the entry
            String hostile = "/?page=diff&kind=cpu&baseFrom=1&baseTo=2&targetFrom=3&targetTo=4&q=%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E";
            assertEquals(List.of("/api/recordings?q=%22%3E%3Cscript%3Ealert%281%29%3C%2Fscript%3E&amp;limit=1&amp;offset=0",
                    "/api/merged/diff?q=%22%3E%3Cscript%3Ealert%281%29%3C%2Fscript%3E&amp;kind=cpu&amp;baseFrom=1&amp;baseTo=2"
                    + "&amp;targetFrom=3&amp;targetTo=4&amp;format=binary"), data(s, hostile));
            assertFalse(s.http.send(HttpRequest.newBuilder(URI.create(s.base + hostile)).build(), HttpResponse.BodyHandlers.ofString())
                    .body().contains("<script>alert"));
            assertEquals(List.of(), data(s, "/?page=diff&kind=cpu&baseFrom=1&baseTo=2&targetFrom=3&targetTo=4&q=a%0Ab"));
            assertEquals(List.of(), data(s, "/?page=diff&kind=cpu&q=" + "a".repeat(2001)));
        }
    }

    @Test
    void aLinksInvalidOrHostileValuesAreNotAskedForAndNeverReachThePageUnescaped() throws Exception {
        try (TestServer s = new TestServer(tmp, 1 << 20, null)) {
            List<String> metadata = List.of("/api/recordings/t2", "/api/recordings/b1");
            for (String view : new String[] {"kind=CPU", "kind=bogus", "kind=cpu%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E",
                "kind=cpu&baseFrom=20&baseTo=10", "kind=cpu&targetTo=x", "kind=cpu&baseFrom=-1", "kind=cpu&targetFrom=1e3",
                "kind=cpu&states=%22%3E%3Cscript%3E", "kind=cpu&targetThreads=1%202", "kind=cpu&source=a%26b%3Dc",
                "kind=cpu&mode=%3Cimg%20src%3Dx%3E", "kind=cpu&baseStates=" + "A".repeat(2001)}) {
                assertEquals(metadata, data(s, "/?page=diff&base=b1&id=t2&" + view), view + ": the diff left to the entry");
            }
            for (String view : new String[] {"kind=CPU", "kind=bogus", "kind=cpu%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E",
                "kind=cpu&to=x", "kind=cpu&from=-1", "kind=cpu&from=1e3", "kind=cpu&states=%22%3E%3Cscript%3E",
                "kind=cpu&threads=1%202", "kind=cpu&source=a%26b%3Dc", "kind=cpu&weight=" + "A".repeat(2001)}) {
                assertEquals(List.of("/api/recordings/t2"), data(s, "/?page=recording&id=t2&" + view), view + ": the flame graph left to the entry");
            }
            assertEquals(List.of("/api/recordings/t2"), data(s, "/?page=diff&base=%22%3E%3Cscript%3E&id=t2&kind=cpu"),
                    "a baseline that is no recording's: neither its metadata nor the diff");
            for (String link : new String[] {"/?page=diff&base=b1&id=t2&kind=cpu&states=%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E",
                "/?page=diff&base=%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E&id=t2&kind=cpu",
                "/?page=%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E&base=b1&id=t2&kind=cpu"}) {
                String html = s.http.send(HttpRequest.newBuilder(URI.create(s.base + link)).build(), HttpResponse.BodyHandlers.ofString()).body();
                assertFalse(html.contains("alert(1)"), link + ": " + html);
            }
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
