package org.jfrworkbench.server.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import io.javalin.http.Context;
import org.jfrworkbench.analysis.ProfileData;
import org.jfrworkbench.analysis.QueryLimits;
import org.jfrworkbench.server.library.RecordingLibrary;

/**
 * How every view is answered: each built once (a request for a view being built waits for that build), through the
 * gate and within its memory estimate, stopped when its client leaves, its encoding cached and answered gzipped where
 * the client takes it; and the views a page's head names built as the page is served (startEarly). The handlers
 * (FlameApi, HeapApi, RunsOverTimeApi) only say what a view is: its key, estimate, build and encoding.
 */
final class ViewBuilds {
    private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();
    /**
     * Encoded flame graphs: a tenth of the heap, at most 64 MB (about ten binary 160 000-node views), so with the
     * profile cache's quarter the caches never take more than about a third of a small server's heap.
     */
    private static final long FLAME_CACHE_BYTES = Math.min(64L << 20, Math.max(4L << 20, Runtime.getRuntime().maxMemory() / 10));
    /** Heap a call-tree node costs while a view is built and encoded (builder, layout, columns, JSON or binary). */
    static final long BYTES_PER_NODE = 200;
    private final RecordingLibrary library;
    private final WorkGate gate;
    private final ClientWatch clients = new ClientWatch();
    private final FlameResponseCache flames = new FlameResponseCache(FLAME_CACHE_BYTES);
    private final EarlyViews earlyViews = new EarlyViews();
    /** The views being built now, by key: a request for one of them waits for that build instead of making its own. */
    private final Map<FlameResponseCache.Key, java.util.concurrent.CompletableFuture<Built>> building =
            new java.util.concurrent.ConcurrentHashMap<>();
    /** Requests waiting for another's build of their view (tests wait for one). */
    private static final java.util.concurrent.atomic.AtomicInteger sharedWaits = new java.util.concurrent.atomic.AtomicInteger();
    /** Told each view's key as its build starts, once admitted: tests hold a build there (nothing otherwise). */
    static volatile java.util.function.Consumer<FlameResponseCache.Key> buildStarted = k -> { };

    /** How many requests wait for another request's build of their view now. */
    static int waitingForAnothersBuild() {
        return sharedWaits.get();
    }
    /**
     * The views a page's head may name whose build starts as the page is served, by their path, where a segment
     * {@code {name}} stands for any (startEarly).
     */
    private final Map<String, ViewOf> earlyPaths = new java.util.concurrent.ConcurrentHashMap<>();

    ViewBuilds(RecordingLibrary library, WorkGate gate) {
        this.library = library;
        this.gate = gate;
    }

    /** Whether the encoding of key is cached. */
    boolean cached(FlameResponseCache.Key key) {
        return flames.get(key) != null;
    }

    /** Forgets every view of a recording (deleted, or a run that grew). */
    void removeRecording(String id) {
        flames.removeRecording(id);
    }

    /**
     * Builds a view no request waits for yet (a new recording's default view, a page's early view) and caches it with
     * its gzip form; null when it was cached already or its recording was deleted meanwhile.
     */
    Built buildAhead(View v) throws IOException {
        if (flames.get(v.key()) != null) {
            return null;
        }
        Built built = build(v.key(), v.estimatedBytes(), v.build(), v.encode(), () -> false, () -> false, true);
        return droppedIfDeleted(v.key()) ? null : built;
    }

    /**
     * Whether a recording of the view of key was deleted while a build no request waited for made it (the default
     * view, an early one): then the cache drops what it holds of that recording.
     */
    private boolean droppedIfDeleted(FlameResponseCache.Key key) {
        for (String id : new String[] {key.id(), key.otherId()}) {
            if (id != null && !id.equals("runs") && library.findInfo(id) == null) {
                flames.removeRecording(id);
                return true;
            }
        }
        return false;
    }

    /** Whether a request's client is still there, as the views watch it (for handlers that build in their own way). */
    ClientWatch.Client watch(Context ctx) {
        return clients.watch(ctx);
    }

    /**
     * Heap a view of data may take: its call tree's nodes bound what a view builds (a diff adds both sides', a
     * sandwich twice the tree at most).
     */
    static long treeBytes(ProfileData data) {
        return (data.tree().size() + 1L) * BYTES_PER_NODE;
    }

    /** As treeBytes, twice for a naming other than the default: its names and its tree may be built first. */
    static long treeBytes(ProfileData data, org.jfrworkbench.model.FrameNaming naming) {
        return treeBytes(data) * (naming.equals(org.jfrworkbench.model.FrameNaming.DEFAULT) ? 1 : 2);
    }

    /** What an encoded response is built from: the query's result, then its bytes; timed apart for Server-Timing. */
    interface Build {
        Object run() throws IOException;
    }

    interface Encode {
        FlameResponseCache.Entry encode(Object result) throws IOException;
    }

    /** Answers the cached encoding of key, or builds, encodes and caches it; gzip when the client takes it. */
    void send(Context ctx, FlameResponseCache.Key key, java.util.function.LongSupplier estimatedBytes, Build build,
                      Encode encode) throws IOException {
        send(ctx, key, estimatedBytes, build, encode, null);
    }

    /** As send; early: the build of this view started when its page was served, which this request waited for. */
    private void send(Context ctx, FlameResponseCache.Key key, java.util.function.LongSupplier estimatedBytes, Build build,
                      Encode encode, EarlyViews.View early) throws IOException {
        FlameResponseCache.Entry entry = flames.get(key);
        String timing = "cache;desc=hit";
        if (early != null && early.key().equals(key)) {
            // its own answer, also where the cache did not keep it (larger than the cache takes)
            entry = early.entry();
            timing = "early;desc=\"built as the page was served\", " + early.timing();
        }
        if (entry == null) {
            // a client that hangs up while its view waits or is built stops that work (no one would read it)
            try (ClientWatch.Client client = clients.watch(ctx)) {
                Built built = build(key, estimatedBytes, build, encode, client::goneNow, client::gone, false);
                entry = built.entry();
                timing = built.timing();
            }
        }
        // the cache keeps the gzip form too, so Javalin must not compress it again
        ctx.disableCompression();
        ctx.contentType(entry.contentType);
        ctx.header("Vary", "Accept-Encoding");
        String accepted = ctx.header("Accept-Encoding");
        byte[] body = entry.body;
        if (accepted != null && accepted.contains("gzip") && entry.body.length > 1500) {
            long zipping = System.nanoTime();
            body = entry.gzip();
            ctx.header("Content-Encoding", "gzip");
            if (timing.startsWith("build")) {
                timing += String.format(java.util.Locale.ROOT, ", gzip;dur=%.1f", (System.nanoTime() - zipping) / 1e6);
            }
        }
        // visible to the page's resource timing: where a slow first paint spent its server time
        ctx.header("Server-Timing", timing);
        ctx.result(body);
    }

    /** An encoded view and what its build took, as Server-Timing entries. */
    record Built(FlameResponseCache.Entry entry, String timing) {
    }

    /**
     * Builds, encodes and caches the view of key through the gate, stopped when gone says its client left; gzip: its
     * gzip form too, for a view built before anyone asked for it.
     */
    private Built build(FlameResponseCache.Key key, java.util.function.LongSupplier estimatedBytes, Build build, Encode encode,
                        java.util.function.BooleanSupplier goneNow, java.util.function.BooleanSupplier gone, boolean gzip)
            throws IOException {
        java.util.concurrent.CompletableFuture<Built> mine = new java.util.concurrent.CompletableFuture<>();
        while (true) {
            java.util.concurrent.CompletableFuture<Built> other = building.putIfAbsent(key, mine);
            if (other == null) {
                break;
            }
            // the same view is being built for another request (two tabs, a client repeating itself, a page and its
            // early build under another spelling): its answer serves this one too, the work is done once
            Built shared = awaitShared(other, gone);
            if (shared != null) {
                return new Built(shared.entry(), "shared;desc=\"built for another request\", " + shared.timing());
            }
            if (gone.getAsBoolean()) {
                throw new QueryLimits.QueryCancelledException();
            }
            // that build failed or its client left (which stopped it): this request builds the view itself
        }
        try {
            Built built = buildOnce(key, estimatedBytes, build, encode, goneNow, gone, gzip);
            mine.complete(built);
            return built;
        } finally {
            mine.complete(null);
            building.remove(key, mine);
        }
    }

    /** The build of another request for the same view, once done; null when it failed or this request's client left. */
    private static Built awaitShared(java.util.concurrent.CompletableFuture<Built> other, java.util.function.BooleanSupplier gone) {
        sharedWaits.incrementAndGet();
        try {
            while (true) {
                try {
                    return other.get(100, java.util.concurrent.TimeUnit.MILLISECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    if (gone.getAsBoolean()) {
                        return null;
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (java.util.concurrent.ExecutionException e) {
            return null;
        } finally {
            sharedWaits.decrementAndGet();
        }
    }

    private Built buildOnce(FlameResponseCache.Key key, java.util.function.LongSupplier estimatedBytes, Build build, Encode encode,
                            java.util.function.BooleanSupplier goneNow, java.util.function.BooleanSupplier gone, boolean gzip)
            throws IOException {
        long[] nanos = new long[5];
        FlameResponseCache.Entry entry;
        try {
            long reserved = gate.reservation(estimatedBytes.getAsLong());
            // the tree may grow to what the reservation holds: past that it is a 413, not an OutOfMemoryError
            entry = gate.run("a view", reserved, goneNow,
                    () -> QueryLimits.run(gone, reserved / BYTES_PER_NODE, () -> {
                        long cpu = THREADS.getCurrentThreadCpuTime();
                        nanos[0] = System.nanoTime();
                        buildStarted.accept(key);
                        Object result = build.run();
                        nanos[1] = System.nanoTime();
                        FlameResponseCache.Entry e = encode.encode(result);
                        nanos[2] = System.nanoTime();
                        if (gzip) {
                            e.gzip();
                        }
                        nanos[3] = System.nanoTime();
                        nanos[4] = THREADS.getCurrentThreadCpuTime() - cpu;
                        return e;
                    }));
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        // the work's CPU time besides the wall times: what it costs whatever else runs
        String timing = String.format(java.util.Locale.ROOT, "build;dur=%.1f, encode;dur=%.1f, cpu;dur=%.1f",
                (nanos[1] - nanos[0]) / 1e6, (nanos[2] - nanos[1]) / 1e6, nanos[4] / 1e6);
        if (gzip) {
            timing += String.format(java.util.Locale.ROOT, ", gzip;dur=%.1f", (nanos[3] - nanos[2]) / 1e6);
        }
        flames.put(key, entry);
        return new Built(entry, timing);
    }

    /** A view as its parameters name it, checked (404, 400) before anything is built: what send builds on a cache miss. */
    record View(FlameResponseCache.Key key, java.util.function.LongSupplier estimatedBytes, Build build, Encode encode) {
    }

    /** Reads a view from its parameters (a request's, or those of a URL a page's head names). */
    interface ViewOf {
        View of(QueryParams.Query params) throws IOException;
    }

    /**
     * Lets the view at path be built as soon as a page whose head names it is served; its handler answers with sendView.
     * A segment {@code {name}} of path stands for any, read by the view as the parameter name (as Javalin's paths).
     */
    void buildsEarly(String path, ViewOf view) {
        earlyPaths.put(path, view);
    }

    /** Answers a view whose page may have started building it (startEarly): waits for that build rather than building it twice. */
    void sendView(Context ctx, ViewOf view) throws IOException {
        EarlyViews.View early = null;
        String url = ctx.path() + "?" + ctx.queryString();
        if (earlyViews.underWay(url)) {
            try (ClientWatch.Client client = clients.watch(ctx)) {
                early = earlyViews.await(url, client::goneNow);
            }
        }
        Map<String, String> path = ctx.pathParamMap();
        // the path's parameters first: a query cannot name another recording than the path's
        View v = view.of(name -> path.containsKey(name) ? path.get(name) : ctx.queryParam(name));
        send(ctx, v.key(), v.estimatedBytes(), v.build(), v.encode(), early);
    }

    /**
     * Starts building a view a page's head names (IndexPage), as its request would, so that the request finds it under
     * way or done: one of the paths given to buildsEarly (a recording's flame graph, a diff, a diff of runs); other URLs
     * are left to their requests. url: path and query as the browser will ask for it; client: the address of the
     * page's client, who has one early build at a time (EarlyViews).
     */
    void startEarly(String url, String client) {
        int query = url.indexOf('?');
        if (query < 0) {
            return;
        }
        try {
            for (Map.Entry<String, ViewOf> early : earlyPaths.entrySet()) {
                Map<String, String> path = pathParams(early.getKey(), url.substring(0, query));
                if (path != null) {
                    startEarly(url, client, path, firstValues(url.substring(query + 1)), early.getValue());
                    return;
                }
            }
        } catch (IllegalArgumentException e) {
            // a URL that does not decode (a stray %): its request answers what is wrong, the page is served as any
        }
    }

    /** Starts building the view of url, whose path parameters are path and query parameters params, early. */
    private void startEarly(String url, String client, Map<String, String> path, Map<String, String> params, ViewOf view) {
        earlyViews.start(url, client, () -> {
            View v = view.of(name -> path.containsKey(name) ? path.get(name) : params.get(name));
            Built built = buildAhead(v);
            return built == null ? null : new EarlyViews.View(v.key(), built.entry(), built.timing());
        });
    }

    /**
     * The parameters a path has under a template of buildsEarly (the segments {@code {name}} stand for), each segment
     * percent-decoded; null when the path is not one of the template's.
     */
    private static Map<String, String> pathParams(String template, String path) {
        String[] want = template.split("/", -1);
        String[] have = path.split("/", -1);
        if (want.length != have.length) {
            return null;
        }
        Map<String, String> params = new LinkedHashMap<>();
        for (int i = 0; i < want.length; i++) {
            if (want[i].length() > 2 && want[i].startsWith("{") && want[i].endsWith("}") && !have[i].isEmpty()) {
                // a path's "+" is a plus, not a space as in a query
                params.put(want[i].substring(1, want[i].length() - 1),
                        java.net.URLDecoder.decode(have[i].replace("+", "%2B"), StandardCharsets.UTF_8));
            } else if (!want[i].equals(have[i])) {
                return null;
            }
        }
        return params;
    }

    /** A query string's parameters, the first value of each, decoded as the server decodes a request's. */
    private static Map<String, String> firstValues(String query) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            String name = java.net.URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            out.putIfAbsent(name, eq < 0 ? "" : java.net.URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return out;
    }
}
