package org.jfrworkbench.server.http;

import static org.jfrworkbench.server.http.QueryParams.intParam;
import static org.jfrworkbench.server.http.QueryParams.kind;

import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.http.Context;
import io.javalin.http.UploadedFile;
import org.jfrworkbench.analysis.BadQueryException;
import org.jfrworkbench.analysis.ProfileData;
import org.jfrworkbench.analysis.RecordingOverview;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.server.catalog.RecordingInfo;
import org.jfrworkbench.server.index.RecordingIndex;
import org.jfrworkbench.server.library.RecordingLibrary;
import org.jfrworkbench.server.library.Runs;
import org.jfrworkbench.server.library.StagedUpload;
import org.jfrworkbench.server.library.UploadTooLargeException;

/**
 * The recordings themselves: the list (a Lucene query), an upload (a recording, or a part of a run), one recording's
 * facts, its original bytes, its deletion, and the search of methods across recordings. Their views are FlameApi's,
 * HeapApi's and RunsOverTimeApi's.
 */
final class RecordingApi {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Uploads being received at once, in all and per client; more are answered 503 before their body is read. */
    static final int UPLOAD_SLOTS = 16;
    /** Originals being sent at once (each holds a thread while a slow reader takes its bytes). */
    static final int DOWNLOAD_SLOTS = 16;
    static final int SLOTS_PER_CLIENT = 4;
    private final RecordingLibrary library;
    private final WorkGate gate;
    private final Profiles profiles;
    private final ViewBuilds views;
    /** Told each recording an upload created, once it is stored (its default view is built next). */
    private final Consumer<RecordingInfo> created;
    private final Slots uploads = new Slots("uploads being received", UPLOAD_SLOTS, SLOTS_PER_CLIENT);
    private final Slots downloads = new Slots("originals being sent", DOWNLOAD_SLOTS, SLOTS_PER_CLIENT);

    RecordingApi(RecordingLibrary library, WorkGate gate, Profiles profiles, ViewBuilds views, Consumer<RecordingInfo> created) {
        this.library = library;
        this.gate = gate;
        this.profiles = profiles;
        this.views = views;
        this.created = created;
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
                views.removeRecording(result.info().id()); // the run's older views, no longer asked for
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
            created.accept(result.info());
        }
        ctx.header("Server-Timing", result.timings().serverTiming());
        ctx.status(result.created() ? 201 : 200).json(result.info());
    }

    void get(Context ctx) throws IOException {
        RecordingInfo info = library.info(ctx.pathParam("id"));
        ProfileData data = profiles.load(info.id());
        Map<String, Object> out = JSON.convertValue(info, new TypeReference<LinkedHashMap<String, Object>>() { });
        out.putAll(RecordingOverview.of(data));
        out.put("index", library.indexStatus(info.id()));
        ctx.json(out);
    }

    void delete(Context ctx) throws IOException {
        String id = library.info(ctx.pathParam("id")).id();
        library.delete(id);
        views.removeRecording(id);
        ctx.status(204);
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
