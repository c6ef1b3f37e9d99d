package org.jfrworkbench.server.http;

import static org.jfrworkbench.server.http.QueryParams.binaryFormat;
import static org.jfrworkbench.server.http.QueryParams.intParam;
import static org.jfrworkbench.server.http.QueryParams.required;
import static org.jfrworkbench.server.http.ViewBuilds.treeBytes;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.http.Context;
import org.jfrworkbench.analysis.BadQueryException;
import org.jfrworkbench.analysis.DiffMode;
import org.jfrworkbench.analysis.HeapDiffQuery;
import org.jfrworkbench.analysis.HeapGrowthQuery;
import org.jfrworkbench.analysis.LiveHeapQuery;
import org.jfrworkbench.analysis.ProfileData;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.server.catalog.RecordingInfo;
import org.jfrworkbench.server.library.RecordingLibrary;

/**
 * The heap's views: the heap over time, what was live at a GC (a flame graph of live samples with its by-class
 * table), what grew across a recording, and two recordings' live sets compared.
 */
final class HeapApi {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final RecordingLibrary library;
    private final Profiles profiles;
    private final ViewBuilds views;

    HeapApi(RecordingLibrary library, Profiles profiles, ViewBuilds views) {
        this.library = library;
        this.profiles = profiles;
        this.views = views;
    }

    void heap(Context ctx) throws IOException {
        ProfileData data = profiles.load(ctx.pathParam("id"));
        ctx.json(LiveHeapQuery.timeline(data.profile()));
    }

    void live(Context ctx) throws IOException {
        RecordingInfo info = library.info(ctx.pathParam("id"));
        ProfileData data = profiles.load(info.id());
        String gc = ctx.queryParam("gc");
        Integer index = gc == null || gc.isBlank() ? null : intParam(ctx, "gc", 0, 0, Integer.MAX_VALUE);
        boolean binary = binaryFormat(ctx);
        boolean countSamples = QueryParams.countSamples(ctx, Kind.LIVE);
        Long from = QueryParams.longParam(ctx.queryParam("from"), "from");
        Long to = QueryParams.longParam(ctx.queryParam("to"), "to");
        FlameResponseCache.Key key = new FlameResponseCache.Key(data.id(), new LiveView(index, countSamples, from, to),
                binary ? "binary" : "json", info.updatedMillis());
        views.send(ctx, key, () -> treeBytes(data), () -> LiveHeapQuery.at(data, index, countSamples, from, to), result -> {
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
        ProfileData data = profiles.load(info.id());
        int limit = intParam(ctx, "limit", HeapGrowthQuery.DEFAULT_LIMIT, 1, HeapGrowthQuery.MAX_LIMIT);
        String by = ctx.queryParam("by");
        if (by != null && !by.isBlank() && !by.equals("class") && !by.equals("stack")) {
            throw new BadQueryException("by must be class or stack, got '" + by + "'");
        }
        boolean bySite = "stack".equals(by);
        HeapGrowthQuery query = new HeapGrowthQuery(limit, bySite);
        FlameResponseCache.Key key = new FlameResponseCache.Key(data.id(), new GrowthView(limit, bySite), "json",
                info.updatedMillis());
        views.send(ctx, key, () -> heapViewBytes(data, limit * (long) HeapGrowthQuery.MAX_POINTS), () -> query.run(data),
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
        ProfileData a = profiles.load(base);
        ProfileData b = profiles.load(target);
        // bytes unless asked for shares: a heap diff is read in bytes, and a class that kept its bytes has not changed
        String modeParam = ctx.queryParam("mode");
        DiffMode mode = modeParam == null || modeParam.isBlank() ? DiffMode.ABSOLUTE : DiffMode.parse(modeParam);
        HeapDiffQuery query = new HeapDiffQuery(baseGc, targetGc, mode, limit);
        FlameResponseCache.Key key = new FlameResponseCache.Key(base, target, new HeapDiffView(baseGc, targetGc, mode, limit),
                "json", baseInfo.updatedMillis(), targetInfo.updatedMillis());
        views.send(ctx, key, () -> heapViewBytes(a, 0) + heapViewBytes(b, 0), () -> query.run(a, b),
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
}
