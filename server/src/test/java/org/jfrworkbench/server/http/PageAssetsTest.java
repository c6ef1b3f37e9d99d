package org.jfrworkbench.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
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
}
