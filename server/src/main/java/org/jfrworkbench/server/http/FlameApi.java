package org.jfrworkbench.server.http;

import static org.jfrworkbench.server.http.QueryParams.binaryFormat;
import static org.jfrworkbench.server.http.QueryParams.diffQuery;
import static org.jfrworkbench.server.http.QueryParams.flameQuery;
import static org.jfrworkbench.server.http.QueryParams.naming;
import static org.jfrworkbench.server.http.QueryParams.required;
import static org.jfrworkbench.server.http.QueryParams.selection;
import static org.jfrworkbench.server.http.ViewBuilds.treeBytes;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.http.Context;
import org.jfrworkbench.analysis.Collapse;
import org.jfrworkbench.analysis.DiffCollapse;
import org.jfrworkbench.analysis.DiffQuery;
import org.jfrworkbench.analysis.DiffResult;
import org.jfrworkbench.analysis.FlameGraph;
import org.jfrworkbench.analysis.FlameGraphQuery;
import org.jfrworkbench.analysis.FrameStatesQuery;
import org.jfrworkbench.analysis.ProfileData;
import org.jfrworkbench.analysis.Sandwich;
import org.jfrworkbench.analysis.SandwichQuery;
import org.jfrworkbench.analysis.Selection;
import org.jfrworkbench.server.catalog.RecordingInfo;
import org.jfrworkbench.server.http.ViewBuilds.View;
import org.jfrworkbench.server.library.RecordingLibrary;

/**
 * The call-tree views of a recording and of two: the flame graph (a time range, threads, states, a search, inverted),
 * how one frame's samples divide among thread states, the sandwich of one method, the diff, and the collapsed stacks
 * of a flame graph or a diff. A new recording's default flame graph is built as soon as it is stored
 * (DefaultViewWarmer), since its uploader asks for it next.
 */
final class FlameApi {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final RecordingLibrary library;
    private final Profiles profiles;
    private final ViewBuilds views;
    private final DefaultViewWarmer warmer = new DefaultViewWarmer(this::prepare);

    FlameApi(RecordingLibrary library, Profiles profiles, ViewBuilds views) {
        this.library = library;
        this.profiles = profiles;
        this.views = views;
        // a new recording's index entry waits for its first view, which its uploader asks for next
        library.beforeIndexing(warmer::awaitWarmed);
        views.buildsEarly("/api/diff", this::diffView);
        views.buildsEarly("/api/recordings/{id}/flame", this::flameView);
    }

    /** Starts building the default view of a recording just stored; returns at once. */
    void warm(RecordingInfo info) {
        warmer.warm(info);
    }

    /** Builds a binary view ahead of its request and caches it with its gzip form (see DefaultViewWarmer). */
    private void prepare(FlameResponseCache.Key key) throws Exception {
        if (views.cached(key)) {
            return;
        }
        ProfileData data = profiles.load(key.id());
        views.buildAhead(new View(key, () -> treeBytes(data), () -> ((FlameGraphQuery) key.query()).run(data),
                graph -> encode((FlameGraph) graph, true)));
    }

    private static FlameResponseCache.Entry encode(FlameGraph graph, boolean binary) throws IOException {
        return binary ? new FlameResponseCache.Entry(FlameGraphBinary.encode(graph, JSON), FlameGraphBinary.CONTENT_TYPE)
                : new FlameResponseCache.Entry(JSON.writeValueAsBytes(graph), "application/json");
    }

    void flame(Context ctx) throws IOException {
        views.sendView(ctx, this::flameView);
    }

    /** A recording's flame graph as its parameters name it (the recording's id as {@code id}). */
    private View flameView(QueryParams.Query params) throws IOException {
        RecordingInfo info = library.info(params.param("id"));
        String id = info.id();
        boolean binary = binaryFormat(params);
        ProfileData data = profiles.load(id);
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
        ProfileData data = profiles.load(id);
        String path = ctx.queryParam("path");
        FrameStatesQuery query = new FrameStatesQuery(selection(ctx, data), naming(ctx), QueryParams.boolParam(ctx, "invert"),
                path == null ? "" : path);
        data.samples(query.selection().kind());
        FlameResponseCache.Key key = new FlameResponseCache.Key(id, query, "json", info.updatedMillis());
        // one pass over the samples with a mark per stack slot; another naming may build its tree first
        long slots = 16L * data.tree().stackSlots();
        views.send(ctx, key, () -> query.naming().equals(org.jfrworkbench.model.FrameNaming.DEFAULT) ? slots : slots + treeBytes(data),
                () -> query.run(data), result -> new FlameResponseCache.Entry(JSON.writeValueAsBytes(result), "application/json"));
    }

    void collapsed(Context ctx) throws IOException {
        ProfileData data = profiles.load(ctx.pathParam("id"));
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
        ProfileData data = profiles.load(id);
        SandwichQuery query = new SandwichQuery(selection(ctx, data), required(ctx, "method"), naming(ctx),
                QueryParams.maxNodes(ctx));
        data.samples(query.selection().kind());
        FlameResponseCache.Key key = new FlameResponseCache.Key(id, query, binary ? "binary" : "json", info.updatedMillis());
        views.send(ctx, key, () -> 2 * treeBytes(data, query.naming()), () -> query.run(data), result -> binary
                ? new FlameResponseCache.Entry(SandwichBinary.encode((Sandwich) result, JSON), FlameGraphBinary.CONTENT_TYPE)
                : new FlameResponseCache.Entry(JSON.writeValueAsBytes(result), "application/json"));
    }

    void diff(Context ctx) throws IOException {
        views.sendView(ctx, this::diffView);
    }

    private View diffView(QueryParams.Query params) throws IOException {
        RecordingInfo baseInfo = library.info(required(params, "base"));
        RecordingInfo targetInfo = library.info(required(params, "target"));
        String base = baseInfo.id();
        String target = targetInfo.id();
        boolean binary = binaryFormat(params);
        ProfileData a = profiles.load(base);
        ProfileData b = profiles.load(target);
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


    /** Both sides' collapsed stacks in one text: {@code stack BASE TARGET} per line. */
    void diffCollapsed(Context ctx) throws IOException {
        ProfileData a = profiles.load(required(ctx, "base"));
        ProfileData b = profiles.load(required(ctx, "target"));
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

}
