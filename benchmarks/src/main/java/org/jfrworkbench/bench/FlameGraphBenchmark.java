package org.jfrworkbench.bench;

import java.io.PrintStream;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Page;
import one.convert.Arguments;
import one.convert.FlameGraph;
import org.jfrworkbench.testkit.Browser;
import org.jfrworkbench.testkit.SyntheticProfile;

/**
 * On-demand benchmark (not part of the test suite): first paint and zoom time of our canvas flame graph for a
 * profile with more than 100 000 nodes, against async-profiler's own HTML flame graph (jfr-converter 4.2,
 * {@code one.convert.FlameGraph}) of the same collapsed stacks, both in headless Chromium, side by side in one run.
 *
 * <p>Run with {@code benchmarks/run.sh FlameGraphBenchmark [stacks]}. First paint = navigation start to the first
 * complete drawing of the graph (every frame at least 0.35 px wide), including fetching the tree; it is measured for a
 * view opened before (the server answers from its cache of encoded trees) and for a first open (a query the server
 * has not seen, so the tree is built and encoded for the request). The peer's first paint is its DOMContentLoaded end (its
 * script draws synchronously at load). Zoom = the synchronous work of one click on a frame. Every page load uses a
 * fresh browser context (empty cache).
 */
public final class FlameGraphBenchmark {
    private static final int WARMUP = 2;
    private static final int RUNS = 5;
    private static final int SERVER_WARMUP = 20;

    public static void main(String[] args) throws Exception {
        int stacks = args.length > 0 ? Integer.parseInt(args[0]) : 8_000;
        Path temp = Files.createTempDirectory("flame-bench");
        String collapsed = SyntheticProfile.collapsed(stacks, 7);
        Path input = temp.resolve("bench.collapsed.txt");
        Files.writeString(input, collapsed);
        Path peerHtml = temp.resolve("async-profiler.html");
        FlameGraph peer = new FlameGraph(new Arguments("--title", "bench"));
        peer.parseCollapsed(new StringReader(collapsed));
        try (PrintStream out = new PrintStream(Files.newOutputStream(peerHtml), false, StandardCharsets.UTF_8)) {
            peer.dump(out);
        }

        try (BenchServer server = BenchServer.start(temp.resolve("data")); Browser browser = new Browser()) {
            String id = upload(server.baseUrl(), input);
            int nodes = nodeCount(server.baseUrl(), id);
            // a long-running server has its tree build compiled: warm it with views nobody opens afterwards
            for (int i = 0; i < SERVER_WARMUP; i++) {
                get(server.baseUrl() + "/api/recordings/" + id + "/flame?kind=cpu&format=binary&from=0&to=" + (2_000_000_000L + i));
            }
            Timings cold = new Timings(), cached = new Timings();
            double[] ourZoom = new double[RUNS], peerPaint = new double[RUNS], peerZoom = new double[RUNS];
            // untimed warm-up rounds for both (JIT of the server and of Chromium's code paths), then timed rounds
            for (int round = -WARMUP; round < RUNS; round++) {
                int run = Math.max(0, round);
                // a time range past the recording's end selects every sample but is a query the server has not
                // seen: the tree is built and encoded for this request
                String view = "/?page=recording&id=" + id + "&kind=cpu";
                ourPaint(browser, server.baseUrl(), view + "&from=0&to=" + (1_000_000_000L + round), cold, run);
                // the same view again: the server answers from its cache of encoded trees
                ourZoom[run] = ourPaint(browser, server.baseUrl(), view, cached, run);
                try (BrowserContext context = browser.newContext(server.baseUrl())) {
                    Page page = context.newPage();
                    page.navigate(peerHtml.toUri().toString());
                    page.waitForFunction("() => typeof levels !== 'undefined' && levels[0].length > 0");
                    peerPaint[run] = ((Number) page.evaluate(
                            "() => performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd")).doubleValue();
                    peerZoom[run] = ((Number) page.evaluate(PEER_ZOOM)).doubleValue();
                }
            }
            System.out.printf("profile: %d stacks, %d flame graph nodes (ours), Chromium headless, median of %d runs%n",
                    stacks, nodes, RUNS);
            if (Boolean.getBoolean("bench.diff")) {
                diffPaint(browser, server.baseUrl(), id, temp, stacks);
            }
            report("first paint, view opened before (cached tree)", median(cached.paint), median(peerPaint));
            report("first paint, first open (tree built)", median(cold.paint), median(peerPaint));
            report("zoom", median(ourZoom), median(peerZoom));
            for (Timings t : new Timings[] {cached, cold}) {
                System.out.printf("our first paint (%s) = %.1f ms to the /flame request (page HTML in at %.1f ms) + %.1f ms server"
                                + " (tree build %.1f ms, encoding %.1f ms, gzip %.1f ms) + %.1f ms transfer + %.1f ms in the page after it arrived"
                                + " (%d bytes on the wire)%n",
                        t == cached ? "cached" : "first open", median(t.beforeRequest), median(t.html), median(t.server),
                        median(t.build), median(t.encode), median(t.gzip), median(t.transfer), median(t.page), t.wireBytes);
                StringBuilder marks = new StringBuilder(String.format("  page milestones (ms since navigation): fetch() called %.1f", median(t.fetchStart)));
                t.marks.entrySet().stream().sorted(Map.Entry.comparingByValue(java.util.Comparator.comparingDouble(FlameGraphBenchmark::median)))
                        .forEach(e -> marks.append(String.format(", %s %.1f", e.getKey(), median(e.getValue()))));
                System.out.println(marks);
            }
        }
    }

    /**
     * -Dbench.diff=true: first paint of the diff page against a second profile of the same shape (another seed),
     * the /api/diff request's server and transfer time, and its size on the wire; no peer has this view. Twice: for a
     * diff opened before (the same pair each round) and for a first open (a target no one compared before, uploaded
     * ahead of the round, so the server builds the merged tree for the request).
     */
    private static void diffPaint(Browser browser, String base, String id, Path temp, int stacks) throws Exception {
        String[] targets = new String[WARMUP + RUNS + DIFF_SERVER_WARMUP + 1];
        for (int i = 0; i < targets.length; i++) {
            Path other = temp.resolve("other" + i + ".collapsed.txt");
            Files.writeString(other, SyntheticProfile.collapsed(stacks, 8 + i));
            targets[i] = upload(base, other);
        }
        // the diff's build compiled, as in a long-running server, with pairs no round opens
        for (int i = WARMUP + RUNS + 1; i < targets.length; i++) {
            get(base + "/api/diff?base=" + id + "&target=" + targets[i] + "&kind=cpu&format=binary");
            get(base + "/api/diff?base=" + id + "&target=" + targets[i] + "&kind=cpu");
        }
        DiffTimings before = new DiffTimings(), first = new DiffTimings();
        for (int round = -WARMUP; round < RUNS; round++) {
            int run = Math.max(0, round);
            diffRound(browser, base, id, targets[round + WARMUP + 1], first.at(run));
            // one pair every round: built in the first warm-up round, opened before from then on
            diffRound(browser, base, id, targets[0], before.at(run));
        }
        for (DiffTimings t : new DiffTimings[] {before, first}) {
            System.out.printf("diff page first paint, %s: %.1f ms (/api/diff requested at %.1f ms; %.1f ms server: build %.1f,"
                            + " encode %.1f, gzip %.1f; %.1f ms transfer, %d bytes on the wire; %.1f ms in the page after it arrived)%n",
                    t == before ? "opened before" : "first open", median(t.paint), median(t.requestStart), median(t.server),
                    median(t.build), median(t.encode), median(t.gzip), median(t.transfer), t.wire, median(t.page));
        }
    }

    private static final int DIFF_SERVER_WARMUP = 5;

    /** Per-run figures of the diff page; at(run) selects the run the next round writes. */
    private static final class DiffTimings {
        final double[] paint = new double[RUNS], requestStart = new double[RUNS], server = new double[RUNS];
        final double[] transfer = new double[RUNS], page = new double[RUNS], build = new double[RUNS];
        final double[] encode = new double[RUNS], gzip = new double[RUNS];
        long wire;
        int run;

        DiffTimings at(int r) {
            run = r;
            return this;
        }
    }

    private static void diffRound(Browser browser, String base, String id, String target, DiffTimings t) {
        try (BrowserContext context = browser.newContext(base)) {
            Page page = context.newPage();
            page.navigate("/?page=diff&base=" + id + "&id=" + target + "&kind=cpu");
            page.waitForSelector(".flame-canvas[data-drawn]");
            int run = t.run;
            t.paint[run] = ((Number) page.evaluate(FIRST_PAINT)).doubleValue();
            @SuppressWarnings("unchecked")
            Map<String, Number> r = (Map<String, Number>) page.evaluate("() => { const e = performance.getEntriesByType('resource')"
                    + ".find(r => r.name.includes('/api/diff?')); const st = n => (e.serverTiming.find(t => t.name === n) || {}).duration || 0;"
                    + " return { requestStart: e.requestStart, responseStart: e.responseStart, responseEnd: e.responseEnd,"
                    + " encodedBodySize: e.encodedBodySize, build: st('build'), encode: st('encode'), gzip: st('gzip') }; }");
            t.requestStart[run] = r.get("requestStart").doubleValue();
            t.server[run] = r.get("responseStart").doubleValue() - r.get("requestStart").doubleValue();
            t.transfer[run] = r.get("responseEnd").doubleValue() - r.get("responseStart").doubleValue();
            t.page[run] = t.paint[run] - r.get("responseEnd").doubleValue();
            t.build[run] = r.get("build").doubleValue();
            t.encode[run] = r.get("encode").doubleValue();
            t.gzip[run] = r.get("gzip").doubleValue();
            t.wire = r.get("encodedBodySize").longValue();
        }
    }

    /** Where our first paint's time goes, per run. */
    private static final class Timings {
        final double[] paint = new double[RUNS], beforeRequest = new double[RUNS], server = new double[RUNS];
        final double[] transfer = new double[RUNS], page = new double[RUNS], build = new double[RUNS], encode = new double[RUNS];
        final double[] html = new double[RUNS], gzip = new double[RUNS], fetchStart = new double[RUNS];
        final Map<String, double[]> marks = new java.util.TreeMap<>();
        long wireBytes;
    }

    /** Opens a view in a fresh context, records its first paint, then clicks a frame; returns the zoom time. */
    private static double ourPaint(Browser browser, String base, String view, Timings t, int run) {
        try (BrowserContext context = browser.newContext(base)) {
            Page page = context.newPage();
            page.navigate(view);
            page.waitForSelector(".flame-canvas[data-drawn]");
            t.paint[run] = ((Number) page.evaluate(FIRST_PAINT)).doubleValue();
            @SuppressWarnings("unchecked")
            Map<String, Number> r = (Map<String, Number>) page.evaluate(FLAME_RESOURCE);
            t.beforeRequest[run] = r.get("requestStart").doubleValue();
            t.server[run] = r.get("responseStart").doubleValue() - r.get("requestStart").doubleValue();
            t.transfer[run] = r.get("responseEnd").doubleValue() - r.get("responseStart").doubleValue();
            t.page[run] = t.paint[run] - r.get("responseEnd").doubleValue();
            t.wireBytes = r.get("encodedBodySize").longValue();
            t.build[run] = r.get("build").doubleValue();
            t.encode[run] = r.get("encode").doubleValue();
            t.gzip[run] = r.get("gzip").doubleValue();
            t.html[run] = r.get("html").doubleValue();
            t.fetchStart[run] = r.get("fetchStart").doubleValue();
            @SuppressWarnings("unchecked")
            Map<String, Number> marks = (Map<String, Number>) page.evaluate(PAGE_MARKS);
            marks.forEach((name, at) -> t.marks.computeIfAbsent(name, k -> new double[RUNS])[run] = at.doubleValue());
            if (run == RUNS - 1 && Boolean.getBoolean("bench.resources")) {
                // -Dbench.resources=true: every request of the last run, to see what the page waits for
                System.out.println(view.contains("&to=") ? "requests (first open):" : "requests (cached):");
                System.out.println(page.evaluate(RESOURCES));
            }
            if (run == 0 && !view.contains("&to=")) {
                Object drawable = page.evaluate(Browser.DRAWABLE_FRAMES);
                if (!drawable.equals(page.getAttribute(".flame-canvas", "data-drawn"))) {
                    throw new IllegalStateException("drew " + page.getAttribute(".flame-canvas", "data-drawn")
                            + " frames, the tree has " + drawable + " wide enough to see");
                }
            }
            double zoom = ((Number) page.evaluate(OUR_ZOOM)).doubleValue();
            if ("0".equals(page.getAttribute(".flame-canvas", "data-zoom"))) {
                throw new IllegalStateException("the benchmark click did not zoom");
            }
            return zoom;
        }
    }

    // A click on the second row from the bottom, a tenth into the graph: a mid-sized frame.
    private static final String OUR_ZOOM = """
            () => {
              const c = document.querySelector('.flame-canvas');
              const r = c.getBoundingClientRect();
              const at = { bubbles: true, clientX: r.left + r.width * 0.1, clientY: r.bottom - 18 * 1.5 };
              c.dispatchEvent(new MouseEvent('mousemove', at));
              const t0 = performance.now();
              c.dispatchEvent(new MouseEvent('click', at));
              return performance.now() - t0;
            }""";

    private static final String FLAME_RESOURCE = "() => { const e = performance.getEntriesByType('resource')"
            + ".find(r => r.name.includes('/flame?')); return { requestStart: e.requestStart, responseStart: e.responseStart,"
            + " responseEnd: e.responseEnd, encodedBodySize: e.encodedBodySize, "
            + " build: (e.serverTiming.find(t => t.name === 'build') || {}).duration || 0,"
            + " encode: (e.serverTiming.find(t => t.name === 'encode') || {}).duration || 0,"
            + " gzip: (e.serverTiming.find(t => t.name === 'gzip') || {}).duration || 0,"
            + " html: performance.getEntriesByType('navigation')[0].responseEnd, fetchStart: e.fetchStart }; }";

    private static final String RESOURCES = "() => performance.getEntriesByType('resource').map(e => e.name.replace(location.origin, '')"
            + " + ' start ' + e.startTime.toFixed(1) + ' request ' + e.requestStart.toFixed(1) + ' response ' + e.responseStart.toFixed(1)"
            + " + ' end ' + e.responseEnd.toFixed(1)).join('\\n')";

    // the page marks its first drawn flame graph
    private static final String FIRST_PAINT = "() => performance.getEntriesByName('workbench:drawn', 'mark')[0].startTime";

    // the page's own workbench:* marks, first occurrence of each
    private static final String PAGE_MARKS = "() => Object.fromEntries(performance.getEntriesByType('mark')"
            + ".filter(m => m.name.startsWith('workbench:')).reverse().map(m => [m.name.slice(10), m.startTime]))";

    private static final String PEER_ZOOM = """
            () => {
              const c = document.getElementById('canvas');
              const r = c.getBoundingClientRect();
              const at = { bubbles: true, clientX: r.left + r.width * 0.1, clientY: r.bottom - 16 * 1.5 };
              c.dispatchEvent(new MouseEvent('mousemove', at));
              const t0 = performance.now();
              c.dispatchEvent(new MouseEvent('click', at));
              return performance.now() - t0;
            }""";

    private static void report(String what, double ours, double peer) {
        System.out.printf("%-48s ours %7.1f ms   async-profiler HTML %7.1f ms   ratio (peer/ours) %.2fx%n", what, ours, peer, peer / ours);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static String upload(String base, Path file) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + "/api/recordings?name=bench"))
                .POST(HttpRequest.BodyPublishers.ofFile(file)).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 != 2) {
            throw new IllegalStateException("upload failed: " + response.body());
        }
        return (String) new ObjectMapper().readValue(response.body(), Map.class).get("id");
    }

    private static void get(String url) throws Exception {
        HttpResponse<Void> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.discarding());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(url + " answered " + response.statusCode());
        }
    }

    private static int nodeCount(String base, String id) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(base + "/api/recordings/" + id + "/flame?kind=cpu")).build(), HttpResponse.BodyHandlers.ofString());
        Map<?, ?> nodes = (Map<?, ?>) new ObjectMapper().readValue(response.body(), Map.class).get("nodes");
        return ((java.util.List<?>) nodes.get("name")).size();
    }

    private FlameGraphBenchmark() {
    }
}
