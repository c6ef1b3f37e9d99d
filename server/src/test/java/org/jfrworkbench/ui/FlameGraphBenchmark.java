package org.jfrworkbench.ui;

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

/**
 * On-demand benchmark (not part of the test suite): first paint and zoom time of our canvas flame graph for a
 * profile with more than 100 000 nodes, against async-profiler's own HTML flame graph (jfr-converter 4.2,
 * {@code one.convert.FlameGraph}) of the same collapsed stacks, both in headless Chromium.
 *
 * <p>Run: {@code mvn -pl server -am test-compile} then
 * {@code mvn -pl server exec:java -Dexec.mainClass=org.jfrworkbench.ui.FlameGraphBenchmark -Dexec.classpathScope=test}
 * (or any java command with the test classpath). First paint = navigation start to the first complete drawing
 * of the graph, including fetching the tree; zoom = the synchronous work of one click on a frame.
 */
public final class FlameGraphBenchmark {
    private static final int WARMUP = 2;
    private static final int RUNS = 5;

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

        try (UiServer server = UiServer.start(temp.resolve("data")); Browser browser = new Browser()) {
            String id = upload(server.baseUrl(), input);
            int nodes = nodeCount(server.baseUrl(), id);
            double[] ourPaint = new double[RUNS], ourZoom = new double[RUNS], peerPaint = new double[RUNS], peerZoom = new double[RUNS];
            double[] ourServer = new double[RUNS], ourClient = new double[RUNS];
            // untimed warm-up rounds for both (JIT of the server and of Chromium's code paths), then timed rounds
            for (int round = -WARMUP; round < RUNS; round++) {
                int run = Math.max(0, round);
                try (BrowserContext context = browser.newContext(server.baseUrl())) {
                    Page page = context.newPage();
                    page.navigate("/?page=recording&id=" + id + "&kind=cpu");
                    page.waitForSelector(".flame-canvas[data-drawn]");
                    ourPaint[run] = ((Number) page.evaluate("() => window.__flameFirstPaint")).doubleValue();
                    ourServer[run] = ((Number) page.evaluate(FLAME_RESPONSE)).doubleValue();
                    ourClient[run] = ourPaint[run] - ((Number) page.evaluate(FLAME_RESPONSE_END)).doubleValue();
                    ourZoom[run] = ((Number) page.evaluate(OUR_ZOOM)).doubleValue();
                    if ("0".equals(page.getAttribute(".flame-canvas", "data-zoom"))) {
                        throw new IllegalStateException("the benchmark click did not zoom");
                    }
                }
                try (BrowserContext context = browser.newContext(server.baseUrl())) {
                    Page page = context.newPage();
                    page.navigate(peerHtml.toUri().toString());
                    page.waitForFunction("() => typeof levels !== 'undefined' && levels[0].length > 0");
                    peerPaint[run] = ((Number) page.evaluate(
                            "() => performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd")).doubleValue();
                    peerZoom[run] = ((Number) page.evaluate(PEER_ZOOM)).doubleValue();
                }
            }
            System.out.printf("profile: %d stacks, %d flame graph nodes (ours), Chromium headless%n", stacks, nodes);
            report("first paint", median(ourPaint), median(peerPaint));
            report("zoom", median(ourZoom), median(peerZoom));
            System.out.printf("our first paint = %.1f ms waiting for /flame (server builds and sends the tree) + %.1f ms in the page after it arrived%n",
                    median(ourServer), median(ourClient));
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

    private static final String FLAME_RESPONSE = "() => { const e = performance.getEntriesByType('resource')"
            + ".find(r => r.name.includes('/flame?')); return e.responseEnd - e.requestStart; }";
    private static final String FLAME_RESPONSE_END = "() => performance.getEntriesByType('resource')"
            + ".find(r => r.name.includes('/flame?')).responseEnd";

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
        System.out.printf("%-12s ours %8.1f ms   async-profiler HTML %8.1f ms   ratio (peer/ours) %.2fx%n", what, ours, peer, peer / ours);
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

    private static int nodeCount(String base, String id) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(base + "/api/recordings/" + id + "/flame?kind=cpu")).build(), HttpResponse.BodyHandlers.ofString());
        Map<?, ?> nodes = (Map<?, ?>) new ObjectMapper().readValue(response.body(), Map.class).get("nodes");
        return ((java.util.List<?>) nodes.get("name")).size();
    }

    private FlameGraphBenchmark() {
    }
}
