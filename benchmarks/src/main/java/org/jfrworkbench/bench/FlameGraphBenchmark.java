package org.jfrworkbench.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Page;
import one.convert.Arguments;
import one.convert.FlameGraph;
import one.convert.JfrToFlame;
import org.jfrworkbench.bench.inputs.BenchInputs;
import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.server.http.RunningServer;
import org.jfrworkbench.server.library.RecordingLibrary;
import org.jfrworkbench.testkit.Browser;
import org.jfrworkbench.testkit.ServiceProfile;
import org.jfrworkbench.testkit.SyntheticProfile;

/**
 * On-demand benchmark (not part of the test suite): the flame graph page in headless Chromium against async-profiler's
 * own HTML flame graph (jfr-converter 4.2) of the same stacks, side by side in one run: each round opens our page and
 * the peer's in turn (paired, alternating), and every figure is printed with the median of the rounds' peer/ours
 * ratios (above 1 = we are faster).
 *
 * <p>Run with {@code benchmarks/run.sh FlameGraphBenchmark [INPUT...]}. An input is {@code service:STACKS} (a
 * generated service-like profile: {@link ServiceProfile}, stacks 20 to 120 deep over thousands of classes),
 * {@code synthetic:STACKS} ({@link SyntheticProfile}), the name of a recorded benchmark input ({@link BenchInputs},
 * such as {@code ap-cpu-5mb}), or a file: a JFR recording (its cpu samples; the peer converts it with
 * {@code JfrToFlame --cpu}) or collapsed stacks. Default: {@code service:10000} and {@code synthetic:16000},
 * each above 300,000 flame graph nodes. Measured, per input:
 * <ul>
 *   <li><b>first paint</b>: navigation start to the graph's first drawing, fetching the tree included, for a view
 *   opened before (the server answers from its cache of encoded trees) and a first open (a query the server has not
 *   seen: the tree is built and encoded as the page, whose head names it, is served). The peer's is its DOMContentLoaded end (its script draws
 *   at load);</li>
 *   <li><b>new time range</b>: from the URL's change (as the timeline's brush makes it) to the new range's graph
 *   drawn, the server's build included; the peer has no time range, so it is compared with the peer's first paint
 *   of its page (which a converter run for the range would have to produce first);</li>
 *   <li><b>zoom</b>, a click on a mid-sized frame, and <b>search</b>, a search typed and entered (the peer: its
 *   {@code search(regex)}): until the next task, so the page's reactions to the URL's change are included;</li>
 *   <li><b>hover</b>: one pointer move to another frame (tooltip or highlight, then a forced layout), the mean of 20.</li>
 * </ul>
 * Every page load uses a fresh browser context (empty cache). The machine's load average is printed before and
 * after: on a shared machine only the ratios of one run mean something.
 *
 * <p>{@code -Dbench.ui=LABEL=DIR,LABEL=DIR} opens our pages with the UI of each folder in turn (a copy of a build's
 * {@code web/src/main/resources/public}, its {@code /js/} and {@code /css/} files served through the browser's request
 * routing, for both alike): two builds' pages side by side in one run, against the same server and peer. An entry
 * {@code LABEL=http://HOST:PORT} opens the pages of another server instead (a build of other code, started with
 * {@code workbench serve}; the inputs are uploaded to it too, the same bytes being the same ids), and {@code LABEL=this}
 * this process's server with its own UI: two builds' servers and pages side by side, such as a change to the page's
 * head. With two, it prints the median of the rounds' ratios of the first's times to the second's, per measure. A
 * server given by its address is best fresh: one that holds this run's first-open views from an earlier run answers
 * them from its cache.
 */
public final class FlameGraphBenchmark {
    private static final int WARMUP = 2;
    // -Dbench.runs=N timed rounds (on a busy machine, more of them steady the medians)
    private static final int RUNS = Integer.getInteger("bench.runs", 5);
    private static final int SERVER_WARMUP = 20;
    private static final String[] MEASURES = {"first paint, view opened before", "first paint, first open",
        "new time range (peer: first paint)", "zoom", "search", "hover"};

    /**
     * A UI to open our pages with: the server's own (dir and server null), the files of a folder, or the pages and API
     * of another server (a build of other code, running on this machine).
     */
    private record Ui(String label, Path dir, String server) {
        static List<Ui> configured() {
            String spec = System.getProperty("bench.ui");
            if (spec == null || spec.isBlank()) {
                return List.of(new Ui("ours", null, null));
            }
            return Arrays.stream(spec.split(",")).map(part -> {
                int eq = part.indexOf('=');
                String value = part.substring(eq + 1);
                if (eq > 0 && value.equals("this")) {
                    return new Ui(part.substring(0, eq), null, null);
                }
                if (eq > 0 && value.startsWith("http://")) {
                    return new Ui(part.substring(0, eq), null, value.replaceAll("/+$", ""));
                }
                if (eq <= 0 || !Files.isDirectory(Path.of(value, "js"))) {
                    throw new IllegalArgumentException("bench.ui: want LABEL=DIR with DIR/js, LABEL=http://HOST:PORT or LABEL=this, not " + part);
                }
                return new Ui(part.substring(0, eq), Path.of(value), null);
            }).toList();
        }

        /** The servers the UIs talk to: this one (base) and any other named. */
        static List<String> servers(List<Ui> uis, String base) {
            return java.util.stream.Stream.concat(java.util.stream.Stream.of(base), uis.stream().map(Ui::server)
                    .filter(java.util.Objects::nonNull)).distinct().toList();
        }

        /** A fresh context on this UI's server whose /js/ and /css/ requests (under the assets path or not) a folder's UI answers. */
        BrowserContext open(Browser browser, String base) {
            BrowserContext context = browser.newContext(server == null ? base : server);
            if (dir != null) {
                context.route(u -> { String path = plain(URI.create(u).getPath()); return path.startsWith("/js/") || path.startsWith("/css/"); }, route -> {
                    Path file = dir.resolve(plain(URI.create(route.request().url()).getPath()).substring(1));
                    try {
                        route.fulfill(new com.microsoft.playwright.Route.FulfillOptions().setStatus(200)
                                .setContentType(file.toString().endsWith(".css") ? "text/css" : "text/javascript")
                                .setBodyBytes(Files.readAllBytes(file)));
                    } catch (IOException e) {
                        route.fulfill(new com.microsoft.playwright.Route.FulfillOptions().setStatus(404));
                    }
                });
            }
            return context;
        }

        /** The file's path without the server's assets prefix (/assets/ID), as under web/.../public. */
        private static String plain(String path) {
            return path.startsWith("/assets/") && path.indexOf('/', 8) > 0 ? path.substring(path.indexOf('/', 8)) : path;
        }
    }

    public static void main(String[] args) throws Exception {
        List<String> inputs = args.length > 0 ? List.of(args) : List.of("service:10000", "synthetic:16000");
        Path temp = Files.createTempDirectory("flame-bench");
        try (RunningServer server = RunningServer.start(RecordingLibrary.open(temp.resolve("data"), new Importer(), 512L << 20),
                null, "127.0.0.1", 0); Browser browser = new Browser()) {
            for (int k = 0; k < inputs.size(); k++) {
                run(browser, server.baseUrl(), inputs.get(k), temp.resolve("input" + k));
            }
        }
    }

    private static void run(Browser browser, String base, String input, Path dir) throws Exception {
        Files.createDirectories(dir);
        Path upload, peerHtml = dir.resolve("async-profiler.html");
        String search;
        if (input.startsWith("service:") || input.startsWith("synthetic:")) {
            int stacks = Integer.parseInt(input.substring(input.indexOf(':') + 1));
            boolean service = input.startsWith("service:");
            String collapsed = service ? ServiceProfile.collapsed(stacks, 20261126) : SyntheticProfile.collapsed(stacks, 7);
            search = service ? "HashMap" : "jackson";
            upload = dir.resolve("bench.collapsed.txt");
            Files.writeString(upload, collapsed);
            collapsedToHtml(upload, peerHtml);
        } else {
            // a benchmark input's name (BenchInputs: recorded on first use), or a file
            upload = BenchInputs.names().contains(input) ? BenchInputs.get(input) : Path.of(input);
            input = upload.toString();
            search = "HashMap";
            if (input.endsWith(".jfr")) {
                JfrToFlame.convert(input, peerHtml.toString(), new Arguments("--cpu", "--title", "bench"));
            } else {
                collapsedToHtml(upload, peerHtml);
            }
        }
        List<Ui> uis = Ui.configured();
        String id = uploadToAll(Ui.servers(uis, base), upload);
        int[] shape = nodeCount(base, id);
        // a long-running server has its tree build compiled: warm it with views nobody opens afterwards
        for (String server : Ui.servers(uis, base)) {
            for (int i = 0; i < SERVER_WARMUP; i++) {
                get(server + "/api/recordings/" + id + "/flame?kind=cpu&format=binary&from=0&to=" + (2_000_000_000L + i));
            }
        }
        String diff = System.getProperty("bench.diff", "false");
        // -Dbench.diff=only: the diff page alone, for more rounds of it in the same time
        if (!diff.equals("only")) {
            String loadBefore = loadAverage();
            Timings[] colds = new Timings[uis.size()], cacheds = new Timings[uis.size()];
            double[][][] oursByUi = new double[uis.size()][MEASURES.length][RUNS];
            double[][] peer = new double[MEASURES.length][RUNS];
            String view = "/?page=recording&id=" + id + "&kind=cpu";
            // untimed warm-up rounds for both (JIT of the server and of Chromium's code paths), then timed rounds
            for (int round = -WARMUP; round < RUNS; round++) {
                int run = Math.max(0, round);
              for (int k = 0; k < uis.size(); k++) {
                // the UIs take turns going first (a server's or browser's warm state favours the later)
                int u = (round & 1) == 0 ? k : uis.size() - 1 - k;
                Ui ui = uis.get(u);
                Timings cold = colds[u] == null ? colds[u] = new Timings() : colds[u];
                Timings cached = cacheds[u] == null ? cacheds[u] = new Timings() : cacheds[u];
                double[][] ours = oursByUi[u];
                // a time range past the recording's end selects every sample but is a query the server has not seen
                ours[1][run] = ourPaint(browser, base, ui, view + "&from=0&to=" + (1_000_000_000L + round * uis.size() + u), cold, run, null);
                double[] interactions = new double[4];
                long rangeEnd = 1_500_000_000L + round * uis.size() + u;
                ours[0][run] = ourPaint(browser, base, ui, view, cached, run, page -> {
                    interactions[3] = average(page, HOVER, 20);
                    interactions[1] = ((Number) page.evaluate(OUR_ZOOM)).doubleValue();
                    if ("0".equals(page.getAttribute(".flame-canvas", "data-zoom"))) {
                        throw new IllegalStateException("the benchmark click did not zoom");
                    }
                    interactions[2] = ((Number) page.evaluate(OUR_SEARCH, search)).doubleValue();
                    interactions[0] = ((Number) page.evaluate(NEW_RANGE, (double) rangeEnd)).doubleValue();
                });
                ours[2][run] = interactions[0];
                ours[3][run] = interactions[1];
                ours[4][run] = interactions[2];
                ours[5][run] = interactions[3];
              }
                try (BrowserContext context = browser.newContext(base)) {
                    Page page = context.newPage();
                    page.navigate(peerHtml.toUri().toString());
                    page.waitForFunction("() => typeof levels !== 'undefined' && levels[0].length > 0");
                    double paint = ((Number) page.evaluate(
                            "() => performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd")).doubleValue();
                    peer[0][run] = peer[1][run] = peer[2][run] = paint;
                    peer[5][run] = average(page, PEER_HOVER, 20);
                    peer[3][run] = ((Number) page.evaluate(PEER_ZOOM)).doubleValue();
                    peer[4][run] = ((Number) page.evaluate(PEER_SEARCH, quoteRegex(search))).doubleValue();
                }
            }
            System.out.printf("%ninput %s: %,d flame graph nodes (ours), %d levels; Chromium headless 1280x800; medians of %d"
                    + " paired rounds; load average %s before, %s after%n", input, shape[0], shape[1], RUNS, loadBefore, loadAverage());
          for (int u = 0; u < uis.size(); u++) {
            double[][] ours = oursByUi[u];
            Timings cached = cacheds[u], cold = colds[u];
            System.out.printf("%-36s %12s %22s %12s%n", "measure", uis.get(u).label(), "async-profiler HTML", "peer/ours");
            for (int m = 0; m < MEASURES.length; m++) {
                double[] ratios = new double[RUNS];
                for (int r = 0; r < RUNS; r++) {
                    ratios[r] = peer[m][r] / ours[m][r];
                }
                System.out.printf("%-36s %9.1f ms %19.1f ms %11.2fx%n", MEASURES[m], median(ours[m]), median(peer[m]), median(ratios));
            }
            for (Timings t : new Timings[] {cached, cold}) {
                System.out.printf("%s first paint (%s) = %.1f ms to the /flame request (page HTML in at %.1f ms) + %.1f ms server"
                                + " (tree build %.1f ms, encoding %.1f ms, gzip %.1f ms) + %.1f ms transfer + %.1f ms in the page after it arrived"
                                + " (%d bytes on the wire)%n",
                        uis.get(u).label(), t == cached ? "cached" : "first open", median(t.beforeRequest), median(t.html), median(t.server),
                        median(t.build), median(t.encode), median(t.gzip), median(t.transfer), median(t.page), t.wireBytes);
                StringBuilder marks = new StringBuilder(String.format("  page milestones (ms since navigation): fetch() called %.1f", median(t.fetchStart)));
                t.marks.entrySet().stream().sorted(Map.Entry.comparingByValue(java.util.Comparator.comparingDouble(FlameGraphBenchmark::median)))
                        .forEach(e -> marks.append(String.format(", %s %.1f", e.getKey(), median(e.getValue()))));
                System.out.println(marks);
            }
          }
          if (uis.size() == 2) {
              // each round's two pages a few seconds apart: the median of their ratios moves less with the load than
              // the ratio of the medians
              System.out.printf("%-36s %s/%s, median of the rounds' ratios (above 1 = %s is faster)%n", "measure",
                      uis.get(0).label(), uis.get(1).label(), uis.get(1).label());
              for (int m = 0; m < MEASURES.length; m++) {
                  double[] ratios = new double[RUNS];
                  for (int r = 0; r < RUNS; r++) {
                      ratios[r] = oursByUi[0][m][r] / oursByUi[1][m][r];
                  }
                  System.out.printf("%-36s %12.2fx%n", MEASURES[m], median(ratios));
              }
          }
        }
        if ((diff.equals("true") || diff.equals("only")) && (input.startsWith("service:") || input.startsWith("synthetic:"))) {
            diffPaint(browser, base, uis, id, dir, input);
        }
    }

    private static void collapsedToHtml(Path collapsed, Path html) throws IOException {
        FlameGraph peer = new FlameGraph(new Arguments("--title", "bench"));
        try (Reader in = Files.newBufferedReader(collapsed)) {
            peer.parseCollapsed(in);
        }
        try (PrintStream out = new PrintStream(Files.newOutputStream(html), false, StandardCharsets.UTF_8)) {
            peer.dump(out);
        }
    }

    /** The mean time of a measurement run n times (each call gets its index). */
    private static double average(Page page, String script, int n) {
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += ((Number) page.evaluate(script, i)).doubleValue();
        }
        return sum / n;
    }

    /** text as a JavaScript regular expression that matches it literally (the peer's search takes a regex). */
    private static String quoteRegex(String text) {
        StringBuilder sb = new StringBuilder();
        for (char c : text.toCharArray()) {
            if (".*+?^${}()|[]\\/".indexOf(c) >= 0) {
                sb.append('\\');
            }
            sb.append(c);
        }
        return sb.toString();
    }

    private static String loadAverage() {
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return parts[0] + "/" + parts[1] + "/" + parts[2];
        } catch (IOException e) {
            return "unknown";
        }
    }

    /**
     * -Dbench.diff=true: first paint of the diff page against a second profile of the same shape (another seed),
     * the /api/diff request's server and transfer time, and its size on the wire; no peer has this view. Twice: for a
     * diff opened before (the same pair each round) and for a first open (a target no one compared before, uploaded
     * ahead of the round, so the server builds the merged tree for the request). After the graph's drawing: the frame
     * that paints it and the changes table's first row, so a table built before that frame shows.
     */
    private static void diffPaint(Browser browser, String base, List<Ui> uis, String id, Path temp, String input) throws Exception {
        int stacks = Integer.parseInt(input.substring(input.indexOf(':') + 1));
        String[] targets = new String[WARMUP + RUNS + DIFF_SERVER_WARMUP + 1];
        for (int i = 0; i < targets.length; i++) {
            Path other = temp.resolve("other" + i + ".collapsed.txt");
            Files.writeString(other, input.startsWith("service:") ? ServiceProfile.collapsed(stacks, 8 + i)
                    : SyntheticProfile.collapsed(stacks, 8 + i));
            targets[i] = uploadToAll(Ui.servers(uis, base), other);
        }
        // the diff's build compiled, as in a long-running server, with pairs no round opens
        for (String server : Ui.servers(uis, base)) {
            for (int i = WARMUP + RUNS + 1; i < targets.length; i++) {
                get(server + "/api/diff?base=" + id + "&target=" + targets[i] + "&kind=cpu&format=binary");
                get(server + "/api/diff?base=" + id + "&target=" + targets[i] + "&kind=cpu");
            }
        }
        DiffTimings[] befores = new DiffTimings[uis.size()], firsts = new DiffTimings[uis.size()];
        for (int u = 0; u < uis.size(); u++) {
            befores[u] = new DiffTimings();
            befores[u].opened = true;
            firsts[u] = new DiffTimings();
        }
        String loadBefore = loadAverage();
        for (int round = -WARMUP; round < RUNS; round++) {
            int run = Math.max(0, round);
            for (int k = 0; k < uis.size(); k++) {
                int u = (round & 1) == 0 ? k : uis.size() - 1 - k;
                // a first open is a pair the server has not built: the rounds' first opens take turns over the UIs
                String fresh = targets[round + WARMUP + 1];
                String firstBase = u == 0 ? id : targets[targets.length - u];
                diffRound(browser, base, uis.get(u), firstBase, fresh, firsts[u].at(run));
                // one pair every round: built in the first warm-up round, opened before from then on
                diffRound(browser, base, uis.get(u), id, targets[0], befores[u].at(run));
            }
        }
        System.out.printf("%ndiff page, input %s: medians of %d rounds; load average %s before, %s after%n", input, RUNS, loadBefore, loadAverage());
        for (int u = 0; u < uis.size(); u++) {
          for (DiffTimings t : new DiffTimings[] {befores[u], firsts[u]}) {
            System.out.printf("%s diff page first paint, %s: %.1f ms (/api/diff requested at %.1f ms; %.1f ms server: build %.1f,"
                            + " encode %.1f, gzip %.1f; %.1f ms transfer, %d bytes on the wire; %.1f ms in the page after it arrived);"
                            + " after the drawing, its frame +%.1f ms, the changes table +%.1f ms%n",
                    uis.get(u).label(), t == befores[u] ? "opened before" : "first open", median(t.paint), median(t.requestStart), median(t.server),
                    median(t.build), median(t.encode), median(t.gzip), median(t.transfer), t.wire, median(t.page), median(t.frame),
                    median(t.table));
            StringBuilder marks = new StringBuilder(String.format("  page milestones (ms since navigation): /api/diff fetch started %.1f", median(t.fetchStart)));
            t.marks.entrySet().stream().sorted(Map.Entry.comparingByValue(java.util.Comparator.comparingDouble(FlameGraphBenchmark::median)))
                    .forEach(e -> marks.append(String.format(", %s %.1f", e.getKey(), median(e.getValue()))));
            System.out.println(marks);
          }
        }
    }

    private static final int DIFF_SERVER_WARMUP = 5;

    /** Per-run figures of the diff page; at(run) selects the run the next round writes. */
    private static final class DiffTimings {
        final double[] paint = new double[RUNS], requestStart = new double[RUNS], server = new double[RUNS];
        final double[] transfer = new double[RUNS], page = new double[RUNS], build = new double[RUNS];
        final double[] encode = new double[RUNS], gzip = new double[RUNS], frame = new double[RUNS], table = new double[RUNS];
        final double[] fetchStart = new double[RUNS];
        final Map<String, double[]> marks = new java.util.TreeMap<>();
        long wire;
        int run;
        // the pair every round opens (opened before), not a first open
        boolean opened;

        DiffTimings at(int r) {
            run = r;
            return this;
        }
    }

    private static void diffRound(Browser browser, String base, Ui ui, String id, String target, DiffTimings t) {
        try (BrowserContext context = ui.open(browser, base)) {
            context.addInitScript(WATCH_DIFF);
            Page page = context.newPage();
            int run = t.run;
            String trace = System.getProperty("bench.trace");
            boolean last = run == RUNS - 1, tracing = trace != null && last;
            String name = "diff-" + (t.opened ? "cached" : "first-open");
            if (tracing) {
                browser.chromium.startTracing(page, new com.microsoft.playwright.Browser.StartTracingOptions()
                        .setPath(Path.of(trace, (ui.dir() == null && ui.server() == null ? "" : ui.label() + "-") + name + ".json")));
            }
            page.navigate("/?page=diff&base=" + id + "&id=" + target + "&kind=cpu");
            page.waitForSelector(".flame-canvas[data-drawn]");
            page.waitForFunction("() => window.benchDiff.frame !== undefined && window.benchDiff.table !== undefined");
            if (tracing) {
                browser.chromium.stopTracing();
            }
            if (last && Boolean.getBoolean("bench.resources")) {
                System.out.println("requests (" + name + "):");
                System.out.println(page.evaluate(RESOURCES));
                System.out.println("  page milestones (ms since navigation): " + page.evaluate(PAGE_MARKS));
            }
            t.paint[run] = ((Number) page.evaluate(FIRST_PAINT)).doubleValue();
            // each run's gap after its drawing, so the median is of gaps, not a gap between two medians
            t.frame[run] = ((Number) page.evaluate("() => window.benchDiff.frame")).doubleValue() - t.paint[run];
            t.table[run] = ((Number) page.evaluate("() => window.benchDiff.table")).doubleValue() - t.paint[run];
            @SuppressWarnings("unchecked")
            Map<String, Number> r = (Map<String, Number>) page.evaluate("() => { const e = performance.getEntriesByType('resource')"
                    + ".find(r => r.name.includes('/api/diff?')); const st = n => (e.serverTiming.find(t => t.name === n) || {}).duration || 0;"
                    + " return { requestStart: e.requestStart, responseStart: e.responseStart, responseEnd: e.responseEnd,"
                    + " encodedBodySize: e.encodedBodySize, fetchStart: e.fetchStart, build: st('build'), encode: st('encode'), gzip: st('gzip') }; }");
            t.requestStart[run] = r.get("requestStart").doubleValue();
            t.server[run] = r.get("responseStart").doubleValue() - r.get("requestStart").doubleValue();
            t.transfer[run] = r.get("responseEnd").doubleValue() - r.get("responseStart").doubleValue();
            t.page[run] = t.paint[run] - r.get("responseEnd").doubleValue();
            t.build[run] = r.get("build").doubleValue();
            t.encode[run] = r.get("encode").doubleValue();
            t.gzip[run] = r.get("gzip").doubleValue();
            t.wire = r.get("encodedBodySize").longValue();
            @SuppressWarnings("unchecked")
            Map<String, Number> marks = (Map<String, Number>) page.evaluate(PAGE_MARKS);
            marks.forEach((mark, at) -> t.marks.computeIfAbsent(mark, k -> new double[RUNS])[run] = at.doubleValue());
            t.fetchStart[run] = r.get("fetchStart").doubleValue();
        }
    }

    /**
     * The diff page's first frame after its graph's first drawing (a frame requested in the drawing's task, so the
     * one that paints it: after anything else that task does) and when the changes table's first row is in, the same
     * for any build's page: its own marks say when it drew, not what held the frame back.
     */
    private static final String WATCH_DIFF = """
            window.benchDiff = {};
            const mark = performance.mark.bind(performance);
            performance.mark = (name, ...rest) => {
              if (name === 'workbench:drawn' && !('drawn' in window.benchDiff)) {
                window.benchDiff.drawn = true;
                requestAnimationFrame(() => { window.benchDiff.frame = performance.now(); });
              }
              return mark(name, ...rest);
            };
            new MutationObserver((records, observer) => {
              if (document.querySelector('#changes tbody tr')) {
                window.benchDiff.table = performance.now();
                observer.disconnect();
              }
            }).observe(document, { subtree: true, childList: true });""";

    /** Where our first paint's time goes, per run. */
    private static final class Timings {
        final double[] paint = new double[RUNS], beforeRequest = new double[RUNS], server = new double[RUNS];
        final double[] transfer = new double[RUNS], page = new double[RUNS], build = new double[RUNS], encode = new double[RUNS];
        final double[] html = new double[RUNS], gzip = new double[RUNS], fetchStart = new double[RUNS];
        final Map<String, double[]> marks = new java.util.TreeMap<>();
        long wireBytes;
    }

    /** Opens a view in a fresh context, records its first paint and where it went, then runs more on the page. */
    private static double ourPaint(Browser browser, String base, Ui ui, String view, Timings t, int run, Consumer<Page> then) {
        try (BrowserContext context = ui.open(browser, base)) {
            Page page = context.newPage();
            String trace = System.getProperty("bench.trace");
            boolean tracing = trace != null && run == RUNS - 1;
            if (tracing) {
                // -Dbench.trace=DIR: a Chromium trace of the last run's first paint (open it in DevTools' Performance panel)
                browser.chromium.startTracing(page, new com.microsoft.playwright.Browser.StartTracingOptions()
                        .setPath(Path.of(trace, (ui.dir() == null && ui.server() == null ? "" : ui.label() + "-") + (view.contains("&to=") ? "first-open" : "cached") + ".json")));
            }
            page.navigate(view);
            page.waitForSelector(".flame-canvas[data-drawn]");
            if (tracing) {
                browser.chromium.stopTracing();
            }
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
            if (then != null) {
                // the page's extras (timeline, hot methods) are in place, as when a user starts to work
                page.waitForSelector("#hot-methods .vbody .vrow");
                then.accept(page);
            }
            return t.paint[run];
        }
    }

    // Until the next task: what a change of the URL sets off in promise callbacks (the page's update) is included.
    private static final String NEXT_TASK = "new Promise(done => { const c = new MessageChannel(); c.port1.onmessage = done;"
            + " c.port2.postMessage(0); })";

    // A click on the second row from the bottom, a tenth into the graph: a mid-sized frame.
    private static final String OUR_ZOOM = """
            async () => {
              const c = document.querySelector('.flame-canvas');
              const r = c.getBoundingClientRect();
              const at = { bubbles: true, clientX: r.left + r.width * 0.1, clientY: r.bottom - 18 * 1.5 };
              c.dispatchEvent(new MouseEvent('mousemove', at));
              const t0 = performance.now();
              c.dispatchEvent(new MouseEvent('click', at));
              await NEXT_TASK;
              return performance.now() - t0;
            }""".replace("NEXT_TASK", NEXT_TASK);

    // The search box: text typed, then Enter.
    private static final String OUR_SEARCH = """
            async text => {
              const box = document.querySelector('#flame-search');
              box.value = text;
              const t0 = performance.now();
              box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
              await NEXT_TASK;
              const ms = performance.now() - t0;
              if (!document.querySelector('#match-info').dataset.share) throw new Error('the search did not apply');
              return ms;
            }""".replace("NEXT_TASK", NEXT_TASK);

    // A new time range as the timeline's brush sets it (a new URL), until the new graph is drawn.
    private static final String NEW_RANGE = """
            async to => {
              const drawn = () => performance.getEntriesByName('workbench:drawn', 'mark');
              const before = drawn().length;
              const url = new URL(location.href);
              url.searchParams.set('from', '0');
              url.searchParams.set('to', String(to));
              const t0 = performance.now();
              history.pushState(null, '', url);
              window.dispatchEvent(new PopStateEvent('popstate'));
              while (drawn().length === before) await new Promise(done => setTimeout(done, 1));
              return drawn()[before].startTime - t0;
            }""";

    // One pointer move onto a frame of the third row from the bottom, at a different place each time, then a layout.
    private static final String HOVER = """
            i => {
              const c = document.querySelector('.flame-canvas');
              const r = c.getBoundingClientRect();
              const at = { bubbles: true, clientX: r.left + r.width * (0.03 + 0.047 * i), clientY: r.bottom - 18 * 2.5 };
              const t0 = performance.now();
              c.dispatchEvent(new MouseEvent('mousemove', at));
              document.body.getBoundingClientRect();
              return performance.now() - t0;
            }""";

    private static final String PEER_HOVER = """
            i => {
              const c = document.getElementById('canvas');
              const r = c.getBoundingClientRect();
              const at = { bubbles: true, clientX: r.left + r.width * (0.03 + 0.047 * i), clientY: r.bottom - 16 * 2.5 };
              const t0 = performance.now();
              c.dispatchEvent(new MouseEvent('mousemove', at));
              document.body.getBoundingClientRect();
              return performance.now() - t0;
            }""";

    private static final String PEER_SEARCH = """
            pattern => {
              const t0 = performance.now();
              search(pattern);
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
            + " + ' start ' + e.startTime.toFixed(1) + (e.connectEnd > e.connectStart ? ' connect ' + e.connectStart.toFixed(1) + '-' + e.connectEnd.toFixed(1) : '')"
            + " + ' request ' + e.requestStart.toFixed(1) + ' response ' + e.responseStart.toFixed(1)"
            + " + ' end ' + e.responseEnd.toFixed(1)).join('\\n')";

    // the page marks its first drawn flame graph
    private static final String FIRST_PAINT = "() => performance.getEntriesByName('workbench:drawn', 'mark')[0].startTime";

    // the page's own workbench:* marks, first occurrence of each
    /**
     * The page's workbench:* marks, and when its HTML was parsed (domInteractive): the time from the HTML's arrival to
     * then is the browser committing the navigation to a renderer, before any of the page's code can run.
     */
    private static final String PAGE_MARKS = "() => Object.fromEntries([...performance.getEntriesByType('mark')"
            + ".filter(m => m.name.startsWith('workbench:')).reverse().map(m => [m.name.slice(10), m.startTime]),"
            + " ['page arrived', performance.getEntriesByType('navigation')[0].responseStart],"
            + " ['html parsed', performance.getEntriesByType('navigation')[0].domInteractive]])";

    private static final String PEER_ZOOM = """
            async () => {
              const c = document.getElementById('canvas');
              const r = c.getBoundingClientRect();
              const at = { bubbles: true, clientX: r.left + r.width * 0.1, clientY: r.bottom - 16 * 1.5 };
              c.dispatchEvent(new MouseEvent('mousemove', at));
              const t0 = performance.now();
              c.dispatchEvent(new MouseEvent('click', at));
              await NEXT_TASK;
              return performance.now() - t0;
            }""".replace("NEXT_TASK", NEXT_TASK);

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    /** Uploads a file to every server; the same bytes are the same recording id on each. */
    private static String uploadToAll(List<String> servers, Path file) throws Exception {
        String id = null;
        for (String server : servers) {
            String got = upload(server, file);
            if (id != null && !id.equals(got)) {
                throw new IllegalStateException(server + " named " + file + " " + got + ", not " + id);
            }
            id = got;
        }
        return id;
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

    /** The view's node count and its number of levels (the deepest stack plus the root). */
    private static int[] nodeCount(String base, String id) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(base + "/api/recordings/" + id + "/flame?kind=cpu")).build(), HttpResponse.BodyHandlers.ofString());
        Map<?, ?> nodes = (Map<?, ?>) new ObjectMapper().readValue(response.body(), Map.class).get("nodes");
        List<?> count = (List<?>) nodes.get("count");
        // pre-order: a node's depth is the number of open subtrees around it
        int[] ends = new int[count.size() + 1];
        int top = 0, levels = 0;
        for (int i = 0; i < count.size(); i++) {
            while (top > 0 && ends[top - 1] <= i) {
                top--;
            }
            ends[top++] = i + Math.max(1, ((Number) count.get(i)).intValue());
            levels = Math.max(levels, top);
        }
        return new int[] {count.size(), levels};
    }

    private FlameGraphBenchmark() {
    }
}
