package org.jfrworkbench.server.http;

import static org.jfrworkbench.server.http.QueryParams.binaryFormat;
import static org.jfrworkbench.server.http.QueryParams.flameQuery;
import static org.jfrworkbench.server.http.QueryParams.intParam;
import static org.jfrworkbench.server.http.QueryParams.kind;
import static org.jfrworkbench.server.http.QueryParams.naming;
import static org.jfrworkbench.server.http.QueryParams.required;

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
import org.jfrworkbench.analysis.DiffQuery;
import org.jfrworkbench.analysis.DiffResult;
import org.jfrworkbench.analysis.FlameGraph;
import org.jfrworkbench.analysis.FlameGraphQuery;
import org.jfrworkbench.analysis.LiveHeapQuery;
import org.jfrworkbench.analysis.ProfileData;
import org.jfrworkbench.analysis.RecordingOverview;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.server.catalog.RecordingInfo;
import org.jfrworkbench.server.index.RecordingIndex;
import org.jfrworkbench.server.store.RecordingStore;
import org.jfrworkbench.server.store.UploadTooLargeException;

/** The handlers of the JSON API; each parses its parameters, runs one query and answers its result. */
final class RecordingApi {
    private static final ObjectMapper JSON = new ObjectMapper();
    /**
     * Encoded flame graphs: a tenth of the heap, at most 64 MB (about ten binary 160 000-node views), so with the
     * profile cache's quarter the caches never take more than about a third of a small server's heap.
     */
    private static final long FLAME_CACHE_BYTES = Math.min(64L << 20, Math.max(4L << 20, Runtime.getRuntime().maxMemory() / 10));
    private final RecordingStore store;
    private final FlameResponseCache flames = new FlameResponseCache(FLAME_CACHE_BYTES);
    private final DefaultViewWarmer warmer = new DefaultViewWarmer(this::prepare);

    RecordingApi(RecordingStore store) {
        this.store = store;
    }

    /** Builds a binary view ahead of its request and caches it with its gzip form (see DefaultViewWarmer). */
    private void prepare(FlameResponseCache.Key key) throws IOException {
        if (flames.get(key) != null) {
            return;
        }
        FlameResponseCache.Entry entry = encode(((FlameGraphQuery) key.query()).run(store.load(key.id())), true);
        entry.gzip();
        flames.put(key, entry);
        if (store.findInfo(key.id()) == null) {
            flames.removeRecording(key.id()); // deleted while the view was built
        }
    }

    private static FlameResponseCache.Entry encode(FlameGraph graph, boolean binary) throws IOException {
        return binary ? new FlameResponseCache.Entry(FlameGraphBinary.encode(graph, JSON), FlameGraphBinary.CONTENT_TYPE)
                : new FlameResponseCache.Entry(JSON.writeValueAsBytes(graph), "application/json");
    }

    void list(Context ctx) throws IOException {
        int limit = intParam(ctx, "limit", 50, 0, 10_000);
        int offset = intParam(ctx, "offset", 0, 0, Integer.MAX_VALUE - 10_000);
        RecordingIndex.RecordingPage page = store.index().list(ctx.queryParam("q"), offset, limit);
        ctx.json(page);
    }

    void upload(Context ctx) throws IOException {
        long length = ctx.req().getContentLengthLong();
        if (length > store.maxUpload() + (1 << 20)) {
            throw new UploadTooLargeException(store.maxUpload());
        }
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
        RecordingStore.Staged staged;
        try (InputStream in = multipart ? file.content() : ctx.req().getInputStream()) {
            staged = store.stage(in);
        } catch (java.io.EOFException e) {
            // Jetty's EofException: the client sent less than its Content-Length promised, or hung up
            throw new BadQueryException("the upload ended early: fewer bytes arrived than its Content-Length announced");
        }
        RecordingStore.Imported result = store.commit(staged, name, parsedLabels, collapsedKind);
        if (result.created()) {
            warmer.warm(result.info());
        }
        ctx.status(result.created() ? 201 : 200).json(result.info());
    }

    void get(Context ctx) throws IOException {
        RecordingInfo info = store.info(ctx.pathParam("id"));
        ProfileData data = store.load(info.id());
        Map<String, Object> out = JSON.convertValue(info, new TypeReference<LinkedHashMap<String, Object>>() { });
        out.putAll(RecordingOverview.of(data));
        ctx.json(out);
    }

    void delete(Context ctx) throws IOException {
        String id = store.info(ctx.pathParam("id")).id();
        store.delete(id);
        flames.removeRecording(id);
        ctx.status(204);
    }

    void flame(Context ctx) throws IOException {
        String id = store.info(ctx.pathParam("id")).id();
        boolean binary = binaryFormat(ctx);
        ProfileData data = store.load(id);
        FlameGraphQuery query = flameQuery(ctx, data);
        FlameResponseCache.Key key = new FlameResponseCache.Key(id, query, binary ? "binary" : "json");
        warmer.awaitPrepared(key);
        send(ctx, key, () -> query.run(data), graph -> encode((FlameGraph) graph, binary));
    }

    /** What an encoded response is built from: the query's result, then its bytes; timed apart for Server-Timing. */
    private interface Build {
        Object run() throws IOException;
    }

    private interface Encode {
        FlameResponseCache.Entry encode(Object result) throws IOException;
    }

    /** Answers the cached encoding of key, or builds, encodes and caches it; gzip when the client takes it. */
    private void send(Context ctx, FlameResponseCache.Key key, Build build, Encode encode) throws IOException {
        FlameResponseCache.Entry entry = flames.get(key);
        String timing = "cache;desc=hit";
        if (entry == null) {
            long started = System.nanoTime();
            Object result = build.run();
            long built = System.nanoTime();
            entry = encode.encode(result);
            flames.put(key, entry);
            timing = String.format(java.util.Locale.ROOT, "build;dur=%.1f, encode;dur=%.1f",
                    (built - started) / 1e6, (System.nanoTime() - built) / 1e6);
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
            if (!timing.startsWith("cache")) {
                timing += String.format(java.util.Locale.ROOT, ", gzip;dur=%.1f", (System.nanoTime() - zipping) / 1e6);
            }
        }
        // visible to the page's resource timing: where a slow first paint spent its server time
        ctx.header("Server-Timing", timing);
        ctx.result(body);
    }

    void collapsed(Context ctx) throws IOException {
        ProfileData data = store.load(store.info(ctx.pathParam("id")).id());
        FlameGraphQuery query = flameQuery(ctx, data);
        data.samples(query.kind()); // fail with 400 before the response starts
        ctx.contentType("text/plain; charset=utf-8");
        try (Writer w = new OutputStreamWriter(ctx.outputStream(), StandardCharsets.UTF_8)) {
            query.writeCollapsed(data, w);
        }
    }

    void original(Context ctx) throws IOException {
        RecordingInfo info = store.info(ctx.pathParam("id"));
        ctx.contentType("application/octet-stream");
        ctx.header("Content-Disposition", "attachment; filename=\"" + info.name().replaceAll("[^\\w.\\-]", "_") + "\"");
        ctx.result(Files.newInputStream(store.original(info.id())));
    }

    void heap(Context ctx) throws IOException {
        ProfileData data = store.load(store.info(ctx.pathParam("id")).id());
        ctx.json(LiveHeapQuery.timeline(data.profile()));
    }

    void live(Context ctx) throws IOException {
        ProfileData data = store.load(store.info(ctx.pathParam("id")).id());
        String gc = ctx.queryParam("gc");
        Integer index = gc == null || gc.isBlank() ? null : intParam(ctx, "gc", 0, 0, Integer.MAX_VALUE);
        boolean binary = binaryFormat(ctx);
        FlameResponseCache.Key key = new FlameResponseCache.Key(data.id(), new LiveView(index), binary ? "binary" : "json");
        send(ctx, key, () -> LiveHeapQuery.at(data, index), result -> {
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
            return new FlameResponseCache.Entry(FlameGraphBinary.encode(live.flame(), JSON, Map.of("live", rest)),
                    FlameGraphBinary.CONTENT_TYPE);
        });
    }

    /** The cache key's query part of a live-heap view: the GC index asked for (null = the default GC). */
    private record LiveView(Integer gc) {
    }

    void diff(Context ctx) throws IOException {
        String base = store.info(required(ctx, "base")).id();
        String target = store.info(required(ctx, "target")).id();
        boolean binary = binaryFormat(ctx);
        Kind kind = kind(ctx);
        ProfileData a = store.load(base);
        ProfileData b = store.load(target);
        // both kinds checked before anything is cached or built (400 naming the kinds the recording has)
        a.samples(kind);
        b.samples(kind);
        DiffQuery query = new DiffQuery(kind, naming(ctx), QueryParams.diffFilter(ctx, kind, a, b));
        FlameResponseCache.Key key = new FlameResponseCache.Key(base, target, query, binary ? "binary" : "json");
        send(ctx, key, () -> query.run(a, b), diff -> binary
                ? new FlameResponseCache.Entry(DiffBinary.encode((DiffResult) diff, JSON), FlameGraphBinary.CONTENT_TYPE)
                : new FlameResponseCache.Entry(JSON.writeValueAsBytes(diff), "application/json"));
    }

    void search(Context ctx) throws IOException {
        int limit = intParam(ctx, "limit", 50, 1, 10_000);
        String kind = ctx.queryParam("kind");
        if (kind != null && !kind.isBlank()) {
            kind(ctx);
        }
        ctx.json(store.index().searchMethods(ctx.queryParam("q"), kind, limit, store::findInfo));
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
