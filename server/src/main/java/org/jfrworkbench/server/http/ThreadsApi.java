package org.jfrworkbench.server.http;

import java.io.IOException;

import io.javalin.http.Context;
import org.jfrworkbench.analysis.ProfileData;
import org.jfrworkbench.analysis.Selection;
import org.jfrworkbench.analysis.ThreadTimelines;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.SampleTable;

/**
 * {@code GET /api/recordings/{id}/threads?kind=&states=&source=&limit=}: a lane per thread, the samples of the kind
 * (of the states and source asked for) per bucket of the recording's timeline, busiest threads first.
 */
final class ThreadsApi {
    /** Loads a recording's profile as the other views do: under the work gate when it is not in memory. */
    interface Loader {
        ProfileData load(String id) throws IOException;
    }

    private final Loader loader;

    ThreadsApi(Loader loader) {
        this.loader = loader;
    }

    void threads(Context ctx) throws IOException {
        ProfileData data = loader.load(ctx.pathParam("id"));
        Kind kind = QueryParams.kind(ctx);
        SampleTable table = data.samples(kind);
        // the lanes span the whole recording and every thread: only the states and the source select
        Selection selection = Selection.of(kind).with(QueryParams.states(ctx.queryParam("states")), ctx.queryParam("source"));
        selection.check(data);
        int limit = QueryParams.intParam(ctx, "limit", 100, 1, 100_000);
        ctx.json(ThreadTimelines.of(data.profile(), kind, selection.on(table, data.profile().startNanos()), limit));
    }
}
