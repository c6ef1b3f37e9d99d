package org.jfrworkbench.server.http;

import static org.jfrworkbench.server.http.QueryParams.binaryFormat;
import static org.jfrworkbench.server.http.QueryParams.diffQuery;
import static org.jfrworkbench.server.http.QueryParams.flameQuery;
import static org.jfrworkbench.server.http.QueryParams.intParam;
import static org.jfrworkbench.server.http.QueryParams.kind;
import static org.jfrworkbench.server.http.QueryParams.naming;
import static org.jfrworkbench.server.http.QueryParams.required;
import static org.jfrworkbench.server.http.QueryParams.selection;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.http.Context;
import io.javalin.http.UploadedFile;
import org.jfrworkbench.analysis.BadQueryException;
import org.jfrworkbench.analysis.Collapse;
import org.jfrworkbench.analysis.DiffCollapse;
import org.jfrworkbench.analysis.DiffMode;
import org.jfrworkbench.analysis.DiffQuery;
import org.jfrworkbench.analysis.DiffResult;
import org.jfrworkbench.analysis.FlameGraph;
import org.jfrworkbench.analysis.FlameGraphQuery;
import org.jfrworkbench.analysis.FrameStatesQuery;
import org.jfrworkbench.analysis.HeapDiffQuery;
import org.jfrworkbench.analysis.HeapGrowthQuery;
import org.jfrworkbench.analysis.LiveHeapQuery;
import org.jfrworkbench.analysis.ProfileData;
import org.jfrworkbench.analysis.QueryLimits;
import org.jfrworkbench.analysis.RecordingOverview;
import org.jfrworkbench.analysis.Sandwich;
import org.jfrworkbench.analysis.SandwichQuery;
import org.jfrworkbench.analysis.Selection;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.server.catalog.RecordingInfo;
import org.jfrworkbench.server.index.RecordingIndex;
import org.jfrworkbench.server.library.RecordingLibrary;
import org.jfrworkbench.server.library.Runs;
import org.jfrworkbench.server.library.StagedUpload;
import org.jfrworkbench.server.library.UploadTooLargeException;

/** The handlers of the JSON API; each parses its parameters, runs one query and answers its result. */
final class RecordingApi {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();
    /**
     * Encoded flame graphs: a tenth of the heap, at most 64 MB (about ten binary 160 000-node views), so with the
     * profile cache's quarter the caches never take more than about a third of a small server's heap.
     */
    private static final long FLAME_CACHE_BYTES = Math.min(64L << 20, Math.max(4L << 20, Runtime.getRuntime().maxMemory() / 10));
    /** Uploads being received at once, in all and per client; more are answered 503 before their body is read. */
    static final int UPLOAD_SLOTS = 16;
    /** Originals being sent at once (each holds a thread while a slow reader takes its bytes). */
    static final int DOWNLOAD_SLOTS = 16;
    static final int SLOTS_PER_CLIENT = 4;
    /** Heap a call-tree node costs while a view is built and encoded (builder, layout, columns, JSON or binary). */
    static final long BYTES_PER_NODE = 200;
    private final RecordingLibrary library;
    private final WorkGate gate;
    private final Slots uploads = new Slots("uploads being received", UPLOAD_SLOTS, SLOTS_PER_CLIENT);
    private final Slots downloads = new Slots("originals being sent", DOWNLOAD_SLOTS, SLOTS_PER_CLIENT);
    private final ClientWatch clients = new ClientWatch();
    private final FlameResponseCache flames = new FlameResponseCache(FLAME_CACHE_BYTES);
    private final DefaultViewWarmer warmer = new DefaultViewWarmer(this::prepare);
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

    RecordingApi(RecordingLibrary library, WorkGate gate) {
        this.library = library;
        this.gate = gate;
        // a new recording's index entry waits for its first view, which its uploader asks for next
        library.beforeIndexing(warmer::awaitWarmed);
        buildsEarly("/api/diff", this::diffView);
        buildsEarly("/api/recordings/{id}/flame", this::flameView);
    }

    /** Builds a binary view ahead of its request and caches it with its gzip form (see DefaultViewWarmer). */
    private void prepare(FlameResponseCache.Key key) throws Exception {
        if (flames.get(key) != null) {
            return;
        }
        ProfileData data = load(key.id());
        build(key, () -> treeBytes(data), () -> ((FlameGraphQuery) key.query()).run(data),
                graph -> encode((FlameGraph) graph, true), () -> false, () -> false, true);
        droppedIfDeleted(key);
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

    private static FlameResponseCache.Entry encode(FlameGraph graph, boolean binary) throws IOException {
        return binary ? new FlameResponseCache.Entry(FlameGraphBinary.encode(graph, JSON), FlameGraphBinary.CONTENT_TYPE)
                : new FlameResponseCache.Entry(JSON.writeValueAsBytes(graph), "application/json");
    }

    void list(Context ctx) throws IOException {
        int limit = intParam(ctx, "limit", 50, 0, 10_000);
        int offset = intParam(ctx, "offset", 0, 0, Integer.MAX_VALUE - 10_000);
        RecordingIndex.RecordingPage page = library.list(ctx.queryParam("q"), offset, limit);
        ctx.json(page);
    }

    /** An upload's body staged, with its parameters. */
    private record Received(StagedUpload staged, String name, Map<String, String> labels, Kind kind) {
    }

    /** Reads the parameters, checks them, then stages the body (multipart parts are read by the first formParam). */
    private Received receive(Context ctx) throws IOException {
        String contentType = ctx.contentType();
        boolean multipart = contentType != null && contentType.toLowerCase().startsWith("multipart/form-data");
        UploadedFile file = null;
        String name;
        String labels;
        String kind;
        if (multipart) {
            file = ctx.uploadedFile("file");
            if (file == null) {
                throw new BadQueryException("multipart upload needs a file in the form field 'file'");
            }
            name = firstNonBlank(ctx.formParam("name"), ctx.queryParam("name"), file.filename());
            labels = firstNonBlank(ctx.formParam("labels"), ctx.queryParam("labels"));
            kind = firstNonBlank(ctx.formParam("kind"), ctx.queryParam("kind"));
        } else {
            name = firstNonBlank(ctx.queryParam("name"), ctx.header("X-File-Name"));
            labels = ctx.queryParam("labels");
            kind = ctx.queryParam("kind");
        }
        // parameters are checked before any byte is staged
        Map<String, String> parsedLabels = Labels.parse(labels);
        Kind collapsedKind;
        try {
            collapsedKind = kind == null ? Kind.CPU : Kind.parse(kind);
        } catch (IllegalArgumentException e) {
            throw new BadQueryException(e.getMessage());
        }
        StagedUpload staged;
        try (InputStream in = multipart ? file.content() : ctx.req().getInputStream()) {
            staged = library.stage(in);
        } catch (java.io.EOFException e) {
            // Jetty's EofException: the client sent less than its Content-Length promised, or hung up
            throw new BadQueryException("the upload ended early: fewer bytes arrived than its Content-Length announced");
        } catch (IOException e) {
            // Javalin answers a Jetty timeout itself, with an empty 500: named here, it is a 408 with its reason
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof java.util.concurrent.TimeoutException) {
                    throw new StalledUploadException();
                }
            }
            throw e;
        }
        return new Received(staged, name, parsedLabels, collapsedKind);
    }

    void upload(Context ctx) throws IOException {
        long length = ctx.req().getContentLengthLong();
        if (length > library.maxUpload() + (1 << 20)) {
            throw new UploadTooLargeException(library.maxUpload());
        }
        RecordingLibrary.RunPart run = QueryParams.runPart(ctx);
        // a slot per body being received: slow senders cannot take every thread, and the rest get a quick 503
        Received received;
        try (AutoCloseable slot = uploads.take(ctx)) {
            ClientLimits.watchBodyRate(ctx);
            received = receive(ctx);
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        StagedUpload staged = received.staged();
        if (run != null && run.part() == null && staged.size() > 0) {
            library.discard(staged);
            throw new BadQueryException("a body with run= needs chunk= (its part number); only an empty last=true may omit it");
        }
        RecordingLibrary.Imported result;
        try {
            // parsing holds the model of the upload and builds its call tree and index documents: estimated from its
            // size (the importer's own sample limit bounds what compression hides), so large imports run one at a
            // time. Collapsed text of random frame names takes about 8x its size while imported (measured in a heap
            // dump of eight parallel 9 MB uploads of 24,000 stacks, 12 frames deep)
            if (run == null) {
                result = gate.run("an import", staged.size() * 8,
                        () -> library.add(staged, received.name(), received.labels(), received.kind()));
            } else {
                // a part is read alone into the run's model as the previous part left it: the estimate is the part's
                // import plus the run's model (about 100 bytes a sample with its stacks, call tree and kept state)
                RecordingInfo known = library.findInfo(Runs.id(run.runKey()));
                long modelBytes = known == null ? 0
                        : 100 * known.kinds().values().stream().mapToLong(RecordingInfo.KindSummary::samples).sum();
                result = gate.run("an import", staged.size() * 8 + modelBytes,
                        () -> library.addPart(staged, run, received.name(), received.labels()));
                flames.removeRecording(result.info().id()); // the run's older views, no longer asked for
            }
        } catch (OverloadedException e) {
            library.discard(staged);
            throw e;
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        if (result.created()) {
            warmer.warm(result.info());
        }
        ctx.header("Server-Timing", result.timings().serverTiming());
        ctx.status(result.created() ? 201 : 200).json(result.info());
    }

    /** For the other handlers of the API: whether a request's client is still there, as the views watch it. */
    ClientWatch.Client watch(Context ctx) {
        return clients.watch(ctx);
    }

    /** For the other handlers of the API (threads over time, runs): a profile loaded as this class loads them. */
    ProfileData profile(String id) throws IOException {
        return load(id);
    }

    /** The profile, read under the gate when it is not in memory: decoding it allocates about its size a few times. */
    private ProfileData load(String id) throws IOException {
        RecordingInfo info = library.info(id);
        ProfileData cached = library.loaded(info.id());
        if (cached != null) {
            return cached; // nothing to decode: no reason to wait behind heavy work
        }
        try {
            return gate.run("loading a recording", info.sizeBytes() * 4, () -> library.load(info.id()));
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Heap a view of data may take: its call tree's nodes bound what a view builds (a diff adds both sides', a
     * sandwich twice the tree at most).
     */
    static long treeBytes(ProfileData data) {
        return (data.tree().size() + 1L) * BYTES_PER_NODE;
    }

    /** As treeBytes, twice for a naming other than the default: its names and its tree may be built first. */
    private static long treeBytes(ProfileData data, org.jfrworkbench.model.FrameNaming naming) {
        return treeBytes(data) * (naming.equals(org.jfrworkbench.model.FrameNaming.DEFAULT) ? 1 : 2);
    }

    void get(Context ctx) throws IOException {
        RecordingInfo info = library.info(ctx.pathParam("id"));
        ProfileData data = load(info.id());
        Map<String, Object> out = JSON.convertValue(info, new TypeReference<LinkedHashMap<String, Object>>() { });
        out.putAll(RecordingOverview.of(data));
        ctx.json(out);
    }

    void delete(Context ctx) throws IOException {
        String id = library.info(ctx.pathParam("id")).id();
        library.delete(id);
        flames.removeRecording(id);
        ctx.status(204);
    }

    void flame(Context ctx) throws IOException {
        sendView(ctx, this::flameView);
    }

    /** A recording's flame graph as its parameters name it (the recording's id as {@code id}). */
    private View flameView(QueryParams.Query params) throws IOException {
        RecordingInfo info = library.info(params.param("id"));
        String id = info.id();
        boolean binary = binaryFormat(params);
        ProfileData data = load(id);
        FlameGraphQuery query = flameQuery(params, data);
        FlameResponseCache.Key key = new FlameResponseCache.Key(id, query, binary ? "binary" : "json", info.updatedMillis());
        // a new recording's first view, being prepared since its upload: taken from the cache once done, not built twice
        warmer.awaitPrepared(key);
        return new View(key, () -> treeBytes(data, query.naming()), () -> query.run(data), graph -> encode((FlameGraph) graph, binary));
    }

    /** How the samples through one frame of the flame graph (its path, as zoom= names it) divide among thread states. */
    void frameStates(Context ctx) throws IOException {
        RecordingInfo info = library.info(ctx.pathParam("id"));
        String id = info.id();
        ProfileData data = load(id);
        String path = ctx.queryParam("path");
        FrameStatesQuery query = new FrameStatesQuery(selection(ctx, data), naming(ctx), QueryParams.boolParam(ctx, "invert"),
                path == null ? "" : path);
        data.samples(query.selection().kind());
        FlameResponseCache.Key key = new FlameResponseCache.Key(id, query, "json", info.updatedMillis());
        // one pass over the samples with a mark per stack slot; another naming may build its tree first
        long slots = 16L * data.tree().stackSlots();
        send(ctx, key, () -> query.naming().equals(org.jfrworkbench.model.FrameNaming.DEFAULT) ? slots : slots + treeBytes(data),
                () -> query.run(data), result -> new FlameResponseCache.Entry(JSON.writeValueAsBytes(result), "application/json"));
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
    private record Built(FlameResponseCache.Entry entry, String timing) {
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

    void collapsed(Context ctx) throws IOException {
        ProfileData data = load(ctx.pathParam("id"));
        Selection selection = selection(ctx, data);
        data.samples(selection.kind()); // fail with 400 before the response starts
        ctx.contentType("text/plain; charset=utf-8");
        try (Writer w = new BufferedWriter(new OutputStreamWriter(ctx.outputStream(), StandardCharsets.UTF_8), 1 << 16)) {
            Collapse.write(data, selection, naming(ctx), w);
        }
    }

    void sandwich(Context ctx) throws IOException {
        RecordingInfo info = library.info(ctx.pathParam("id"));
        String id = info.id();
        boolean binary = binaryFormat(ctx);
        ProfileData data = load(id);
        SandwichQuery query = new SandwichQuery(selection(ctx, data), required(ctx, "method"), naming(ctx),
                QueryParams.maxNodes(ctx));
        data.samples(query.selection().kind());
        FlameResponseCache.Key key = new FlameResponseCache.Key(id, query, binary ? "binary" : "json", info.updatedMillis());
        send(ctx, key, () -> 2 * treeBytes(data, query.naming()), () -> query.run(data), result -> binary
                ? new FlameResponseCache.Entry(SandwichBinary.encode((Sandwich) result, JSON), FlameGraphBinary.CONTENT_TYPE)
                : new FlameResponseCache.Entry(JSON.writeValueAsBytes(result), "application/json"));
    }

    void original(Context ctx) throws IOException {
        RecordingInfo info = library.info(ctx.pathParam("id"));
        // sent here, not after the handler, so the slot is held exactly while a (possibly slow) reader takes the bytes
        try (AutoCloseable slot = downloads.take(ctx); InputStream in = library.original(info.id())) {
            ctx.disableCompression();
            ctx.contentType("application/octet-stream");
            ctx.header("Content-Disposition", "attachment; filename=\"" + info.name().replaceAll("[^\\w.\\-]", "_") + "\"");
            ctx.header("Content-Length", Long.toString(info.sizeBytes()));
            in.transferTo(ctx.outputStream());
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    void heap(Context ctx) throws IOException {
        ProfileData data = load(ctx.pathParam("id"));
        ctx.json(LiveHeapQuery.timeline(data.profile()));
    }

    void live(Context ctx) throws IOException {
        RecordingInfo info = library.info(ctx.pathParam("id"));
        ProfileData data = load(info.id());
        String gc = ctx.queryParam("gc");
        Integer index = gc == null || gc.isBlank() ? null : intParam(ctx, "gc", 0, 0, Integer.MAX_VALUE);
        boolean binary = binaryFormat(ctx);
        boolean countSamples = QueryParams.countSamples(ctx, Kind.LIVE);
        Long from = QueryParams.longParam(ctx.queryParam("from"), "from");
        Long to = QueryParams.longParam(ctx.queryParam("to"), "to");
        FlameResponseCache.Key key = new FlameResponseCache.Key(data.id(), new LiveView(index, countSamples, from, to),
                binary ? "binary" : "json", info.updatedMillis());
        send(ctx, key, () -> treeBytes(data), () -> LiveHeapQuery.at(data, index, countSamples, from, to), result -> {
            LiveHeapQuery.LiveHeap live = (LiveHeapQuery.LiveHeap) result;
            if (!binary) {
                return new FlameResponseCache.Entry(JSON.writeValueAsBytes(live), "application/json");
            }
            // the flame graph in columns, the rest of the answer (GC, totals, the by-class table) in its header
            Map<String, Object> rest = new LinkedHashMap<>();
            rest.put("gc", live.gc());
            rest.put("usedAfter", live.usedAfter());
            rest.put("liveSamples", live.liveSamples());
            rest.put("sampledWeight", live.sampledWeight());
            rest.put("byClass", live.byClass());
            rest.put("fromMillis", live.fromMillis());
            rest.put("toMillis", live.toMillis());
            rest.put("rangeSamples", live.rangeSamples());
            rest.put("rangeBytes", live.rangeBytes());
            rest.put("carriedBytes", live.carriedBytes());
            rest.put("counted", live.counted());
            return new FlameResponseCache.Entry(FlameGraphBinary.encode(live.flame(), JSON, Map.of("live", rest)),
                    FlameGraphBinary.CONTENT_TYPE);
        });
    }

    void heapGrowth(Context ctx) throws IOException {
        RecordingInfo info = library.info(ctx.pathParam("id"));
        ProfileData data = load(info.id());
        int limit = intParam(ctx, "limit", HeapGrowthQuery.DEFAULT_LIMIT, 1, HeapGrowthQuery.MAX_LIMIT);
        String by = ctx.queryParam("by");
        if (by != null && !by.isBlank() && !by.equals("class") && !by.equals("stack")) {
            throw new BadQueryException("by must be class or stack, got '" + by + "'");
        }
        boolean bySite = "stack".equals(by);
        HeapGrowthQuery query = new HeapGrowthQuery(limit, bySite);
        FlameResponseCache.Key key = new FlameResponseCache.Key(data.id(), new GrowthView(limit, bySite), "json",
                info.updatedMillis());
        send(ctx, key, () -> heapViewBytes(data, limit * (long) HeapGrowthQuery.MAX_POINTS), () -> query.run(data),
                result -> new FlameResponseCache.Entry(JSON.writeValueAsBytes(result), "application/json"));
    }

    /** The cache key's query part of a growth view. */
    private record GrowthView(int limit, boolean bySite) {
    }

    void heapDiff(Context ctx) throws IOException {
        RecordingInfo baseInfo = library.info(required(ctx, "base"));
        RecordingInfo targetInfo = library.info(required(ctx, "target"));
        String base = baseInfo.id();
        String target = targetInfo.id();
        Integer baseGc = optionalGc(ctx, "baseGc");
        Integer targetGc = optionalGc(ctx, "targetGc");
        int limit = intParam(ctx, "limit", HeapDiffQuery.DEFAULT_LIMIT, 1, HeapDiffQuery.MAX_LIMIT);
        ProfileData a = load(base);
        ProfileData b = load(target);
        // bytes unless asked for shares: a heap diff is read in bytes, and a class that kept its bytes has not changed
        String modeParam = ctx.queryParam("mode");
        DiffMode mode = modeParam == null || modeParam.isBlank() ? DiffMode.ABSOLUTE : DiffMode.parse(modeParam);
        HeapDiffQuery query = new HeapDiffQuery(baseGc, targetGc, mode, limit);
        FlameResponseCache.Key key = new FlameResponseCache.Key(base, target, new HeapDiffView(baseGc, targetGc, mode, limit),
                "json", baseInfo.updatedMillis(), targetInfo.updatedMillis());
        send(ctx, key, () -> heapViewBytes(a, 0) + heapViewBytes(b, 0), () -> query.run(a, b),
                result -> new FlameResponseCache.Entry(JSON.writeValueAsBytes(result), "application/json"));
    }

    /** The cache key's query part of a heap diff: each side's GC (null = its default GC), the rows asked for. */
    private record HeapDiffView(Integer baseGc, Integer targetGc, DiffMode mode, int limit) {
    }

    private static Integer optionalGc(Context ctx, String name) {
        String gc = ctx.queryParam(name);
        return gc == null || gc.isBlank() ? null : intParam(ctx, name, 0, 0, Integer.MAX_VALUE);
    }

    /**
     * Heap a live-set view holds while built: its tallies per live sample and per GC, the points of the series it
     * answers, and the findings' two longs per stack; the live samples are few (async-profiler tracks about a thousand
     * at a time), the GCs and stacks may be many.
     */
    private static long heapViewBytes(ProfileData data, long seriesPoints) {
        org.jfrworkbench.model.SampleTable live = data.profile().kinds().get(Kind.LIVE);
        long samples = live == null ? 0 : live.size();
        return (1L << 20) + 160 * samples + 96L * data.profile().heap().gcs().size() + 48 * seriesPoints
                + 16L * data.profile().stacks().size();
    }

    /** The cache key's query part of a live-heap view: the GC index asked for (null = the default GC), the weight. */
    private record LiveView(Integer gc, boolean countSamples, Long from, Long to) {
    }

    void diff(Context ctx) throws IOException {
        sendView(ctx, this::diffView);
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

    private View diffView(QueryParams.Query params) throws IOException {
        RecordingInfo baseInfo = library.info(required(params, "base"));
        RecordingInfo targetInfo = library.info(required(params, "target"));
        String base = baseInfo.id();
        String target = targetInfo.id();
        boolean binary = binaryFormat(params);
        ProfileData a = load(base);
        ProfileData b = load(target);
        DiffQuery query = diffQuery(params, a, b);
        // both kinds checked before anything is cached or built (400 naming the kinds the recording has)
        a.samples(query.base().kind());
        b.samples(query.target().kind());
        FlameResponseCache.Key key = new FlameResponseCache.Key(base, target, query, binary ? "binary" : "json",
                baseInfo.updatedMillis(), targetInfo.updatedMillis());
        return new View(key, () -> treeBytes(a, query.naming()) + treeBytes(b, query.naming()), () -> query.run(a, b), diff -> binary
                ? new FlameResponseCache.Entry(DiffBinary.encode((DiffResult) diff, JSON), FlameGraphBinary.CONTENT_TYPE)
                : new FlameResponseCache.Entry(JSON.writeValueAsBytes(diff), "application/json"));
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
            FlameResponseCache.Key key = v.key();
            if (flames.get(key) != null) {
                return null;
            }
            Built built = build(key, v.estimatedBytes(), v.build(), v.encode(), () -> false, () -> false, true);
            return droppedIfDeleted(key) ? null : new EarlyViews.View(key, built.entry(), built.timing());
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

    /** Both sides' collapsed stacks in one text: {@code stack BASE TARGET} per line. */
    void diffCollapsed(Context ctx) throws IOException {
        ProfileData a = load(required(ctx, "base"));
        ProfileData b = load(required(ctx, "target"));
        DiffQuery bounded = diffQuery(ctx, a, b);
        // every stack of both sides: the export is not a view, so nothing goes into "[other]"
        DiffQuery query = new DiffQuery(bounded.base(), bounded.target(), bounded.naming(), bounded.mode(), Integer.MAX_VALUE);
        a.samples(query.base().kind());
        b.samples(query.target().kind());
        DiffResult diff = query.run(a, b);
        ctx.contentType("text/plain; charset=utf-8");
        try (Writer w = new BufferedWriter(new OutputStreamWriter(ctx.outputStream(), StandardCharsets.UTF_8), 1 << 16)) {
            DiffCollapse.write(diff, w);
        }
    }

    void search(Context ctx) throws IOException {
        int limit = intParam(ctx, "limit", 50, 1, 10_000);
        String kind = ctx.queryParam("kind");
        if (kind != null && !kind.isBlank()) {
            kind(ctx);
        }
        ctx.json(library.searchMethods(ctx.queryParam("q"), kind, limit));
    }

    private static String firstNonBlank(String... values) {
        for (String v : values) {
            if (v != null && !v.isBlank()) {
                return v;
            }
        }
        return null;
    }
}
