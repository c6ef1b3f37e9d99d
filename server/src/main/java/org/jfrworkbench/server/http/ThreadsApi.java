package org.jfrworkbench.server.http;

import java.io.IOException;
import java.util.Set;

import io.javalin.http.Context;
import org.jfrworkbench.analysis.ProfileData;
import org.jfrworkbench.analysis.SampleFilter;
import org.jfrworkbench.analysis.ThreadTimelines;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.SampleTable;
import org.jfrworkbench.server.store.RecordingStore;

/**
 * {@code GET /api/recordings/{id}/threads?kind=&states=&source=&limit=}: a lane per thread, the samples of the kind
 * (of the states and source asked for) per bucket of the recording's timeline, busiest threads first.
 */
final class ThreadsApi {
    private final RecordingStore store;

    ThreadsApi(RecordingStore store) {
        this.store = store;
    }

    void threads(Context ctx) throws IOException {
        ProfileData data = store.load(store.info(ctx.pathParam("id")).id());
        Kind kind = QueryParams.kind(ctx);
        SampleTable table = data.samples(kind);
        Set<String> states = QueryParams.states(ctx);
        String source = QueryParams.source(ctx);
        SampleFilter.check(data.profile(), kind, states, source);
        int limit = QueryParams.intParam(ctx, "limit", 100, 1, 100_000);
        ctx.json(ThreadTimelines.of(data.profile(), kind, SampleFilter.ALL.with(states, source).on(table), limit));
    }
}
