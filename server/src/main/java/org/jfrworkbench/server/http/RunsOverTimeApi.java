package org.jfrworkbench.server.http;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.http.Context;
import org.jfrworkbench.analysis.BadQueryException;
import org.jfrworkbench.analysis.DiffMode;
import org.jfrworkbench.analysis.MergedDiffQuery;
import org.jfrworkbench.analysis.MergedFlameQuery;
import org.jfrworkbench.analysis.ProfileData;
import org.jfrworkbench.analysis.QueryLimits;
import org.jfrworkbench.analysis.RunSelection;
import org.jfrworkbench.analysis.RunTimeline;
import org.jfrworkbench.analysis.Selection;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.server.catalog.RecordingInfo;
import org.jfrworkbench.server.library.RecordingLibrary;

/**
 * The runs of a service over time (docs/http-api.md, "Runs over time"): the recordings a query finds, each one run,
 * on one absolute time axis ({@code GET /api/timeline}); one flame graph of all their samples in a time range
 * ({@code GET /api/merged/flame}); and a diff of two ranges across runs ({@code GET /api/merged/diff}). Times are
 * epoch milliseconds; a recording's samples are placed on that axis as its own {@code from}/{@code to} place them.
 */
final class RunsOverTimeApi {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Runs a timeline shows (those that start last), the rest counted as omitted. */
    static final int MAX_TIMELINE_RUNS = 200;
    /** Runs merged into one flame graph or one side of a diff (each is loaded and weighed). */
    static final int MAX_MERGED_RUNS = 100;
    /** Recordings of a query considered at all (their metadata only, from the index): its newest uploads. */
    static final int MAX_CANDIDATES = 10_000;
    static final int MAX_BUCKETS = 2000;
    /** The profiles one merged view may hold while it is built: the profile cache's share of the heap. */
    static final long MAX_HELD_BYTES = Math.max(32L << 20, Runtime.getRuntime().maxMemory() / 4);

    private final RecordingLibrary library;
    private final Profiles profiles;
    private final ViewBuilds views;

    RunsOverTimeApi(RecordingLibrary library, Profiles profiles, ViewBuilds views) {
        this.library = library;
        this.profiles = profiles;
        this.views = views;
    }

    /** The runs of a query in start order, and how many matching runs were left out. */
    private record Runs(List<RecordingInfo> infos, long omitted) {
    }

    /**
     * The recordings of q that overlap [from, to) (null: any time), at most limit of them: those that start last,
     * so a range's own runs come before the runs that began earlier and still ran.
     */
    private Runs runs(String q, Long from, Long to, int limit) throws IOException {
        var page = library.list(q, 0, MAX_CANDIDATES);
        List<RecordingInfo> infos = new ArrayList<>();
        for (RecordingInfo info : page.recordings()) {
            if ((to == null || info.startMillis() < to) && (from == null || endMillis(info) > from)) {
                infos.add(info);
            }
        }
        long omitted = Math.max(0, page.total() - page.recordings().size());
        infos.sort(Comparator.comparingLong(RecordingInfo::startMillis).thenComparing(RecordingInfo::id));
        if (infos.size() > limit) {
            omitted += infos.size() - limit;
            infos = new ArrayList<>(infos.subList(infos.size() - limit, infos.size()));
        }
        return new Runs(infos, omitted);
    }

    private static long endMillis(RecordingInfo info) {
        return info.startMillis() + info.durationMillis() + 1; // exclusive: the last sample's millisecond counts
    }

    void timeline(Context ctx) throws IOException {
        String q = ctx.queryParam("q");
        String k = ctx.queryParam("kind");
        Kind only = k == null || k.isBlank() ? null : QueryParams.kind(ctx);
        Long from = epochMillis(ctx::queryParam, "from");
        Long to = epochMillis(ctx::queryParam, "to");
        int buckets = QueryParams.intParam(ctx, "buckets", 300, 1, MAX_BUCKETS);
        Runs runs = runs(q, from, to, MAX_TIMELINE_RUNS);
        long lo = from != null ? from : runs.infos().stream().mapToLong(RecordingInfo::startMillis).min().orElse(0);
        long last = to != null ? to : runs.infos().stream().mapToLong(RunsOverTimeApi::endMillis).max().orElse(lo + 1);
        if (last <= lo && from != null && to != null) {
            throw new BadQueryException("from (" + from + ") must be before to (" + to + ")");
        }
        long hi = Math.max(last, lo + 1);
        long bucketMillis = Math.max(1, (hi - lo + buckets - 1) / buckets);
        int n = (int) ((hi - lo + bucketMillis - 1) / bucketMillis);
        Map<String, long[]> totals = new LinkedHashMap<>();
        List<Map<String, Object>> lanes = new ArrayList<>();
        try (ClientWatch.Client client = views.watch(ctx)) {
            count(client, runs, only, lo, hi, bucketMillis, n, totals, lanes);
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("from", lo);
        out.put("to", lo + n * bucketMillis);
        out.put("bucketMillis", bucketMillis);
        out.put("buckets", n);
        out.put("runs", lanes);
        out.put("omitted", runs.omitted());
        out.put("totals", totals);
        ctx.json(out);
    }

    /** Each run's lane (its counts per kind) and the totals, on the axis of n buckets from lo. */
    private void count(ClientWatch.Client client, Runs runs, Kind only, long lo, long hi, long bucketMillis, int n,
                       Map<String, long[]> totals, List<Map<String, Object>> lanes) throws Exception {
        for (RecordingInfo info : runs.infos()) {
            Map<String, Object> lane = describe(info);
            Map<String, Object> kinds = new LinkedHashMap<>();
            if (info.startMillis() < hi && endMillis(info) > lo) { // else: outside the axis, not loaded
                ProfileData data = profiles.load(info.id());
                // a pass over the run's samples, which a client that hangs up stops (loading is admitted on its own)
                Map<String, long[]> counted = QueryLimits.run(client::gone, Long.MAX_VALUE,
                        () -> RunTimeline.counts(data.profile(), only, lo, bucketMillis, n));
                for (Map.Entry<String, long[]> e : counted.entrySet()) {
                    long[] counts = e.getValue();
                    long[] total = totals.computeIfAbsent(e.getKey(), x -> new long[n]);
                    long sum = 0;
                    for (int b = 0; b < n; b++) {
                        total[b] += counts[b];
                        sum += counts[b];
                    }
                    kinds.put(e.getKey(), FlameGraphBinary.ordered("samples", sum, "counts", counts));
                }
            }
            lane.put("kinds", kinds);
            lanes.add(lane);
        }
    }

    private static Map<String, Object> describe(RecordingInfo info) {
        Map<String, Object> lane = new LinkedHashMap<>();
        lane.put("id", info.id());
        lane.put("name", info.name());
        lane.put("labels", info.labels());
        lane.put("startMillis", info.startMillis());
        lane.put("endMillis", info.startMillis() + info.durationMillis());
        return lane;
    }

    /** The runs that have samples of the kind. */
    private static List<RecordingInfo> withKind(Runs runs, Kind kind) {
        return runs.infos().stream().filter(info -> info.kinds().containsKey(kind.id())).toList();
    }

    /**
     * Each run loaded, with its selection of [from, to) on its own axis. held: the bytes of the profiles this view
     * holds so far (both sides of a diff add to it); the view holds them all while it is built, outside the profile
     * cache, so together they may take no more than the cache's share of the heap.
     */
    private List<RunSelection> load(List<RecordingInfo> infos, Selection shape, long from, long to, long[] held) {
        List<RunSelection> out = new ArrayList<>();
        for (RecordingInfo info : infos) {
            long start = info.startMillis();
            Selection s = new Selection(shape.kind(), (from - start) * 1_000_000, (to - start) * 1_000_000, null,
                    shape.states(), shape.source(), shape.countSamples());
            ProfileData data;
            try {
                data = profiles.load(info.id());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            held[0] += data.approximateBytes();
            if (held[0] > MAX_HELD_BYTES) {
                throw new QueryLimits.ViewTooLargeException("the runs of this range hold more than "
                        + (MAX_HELD_BYTES >> 20) + " MB of profiles (" + infos.size() + " runs), more than one view may hold in"
                        + " this server's heap; narrow the range or the query, or give the server more memory");
            }
            out.add(new RunSelection(data, s));
        }
        return out;
    }

    /** The samples of a kind, states, source and weight that every run's part selects, its range aside. */
    private static Selection shape(Context ctx) {
        return shape(ctx::queryParam);
    }

    private static Selection shape(QueryParams.Query ctx) {
        Kind kind = QueryParams.kind(ctx);
        return new Selection(kind, Long.MIN_VALUE, Long.MAX_VALUE, null, QueryParams.states(ctx.param("states")),
                ctx.param("source"), QueryParams.countSamples(ctx, kind));
    }

    /** A range's two ends, both required, from before to. */
    private static long[] range(Context ctx, String fromName, String toName) {
        return range((QueryParams.Query) ctx::queryParam, fromName, toName);
    }

    private static long[] range(QueryParams.Query ctx, String fromName, String toName) {
        Long from = epochMillis(ctx, fromName);
        Long to = epochMillis(ctx, toName);
        if (from == null || to == null) {
            throw new BadQueryException("parameter '" + (from == null ? fromName : toName)
                    + "' is required (epoch milliseconds)");
        }
        if (from >= to) {
            throw new BadQueryException(fromName + " (" + from + ") must be before " + toName + " (" + to + ")");
        }
        return new long[] {from, to};
    }

    /** Parts' heap: each run's call tree bounds what its weighing and its share of the merged tree take. */
    private static long treeBytes(List<RunSelection> runs) {
        long sum = 0;
        for (RunSelection r : runs) {
            sum += ViewBuilds.treeBytes(r.data());
        }
        return sum;
    }

    /** Each run by its id and version: a run that grew since (a part arrived) makes another key. */
    private static List<String> versions(List<RecordingInfo> runs) {
        return runs.stream().map(info -> info.id() + "@" + info.updatedMillis()).toList();
    }

    /** The cache key's query part: every run merged (with its version), the range and the query. */
    private record MergedView(List<String> runs, long from, long to, Object query) {
    }

    private record DiffView(List<String> baseRuns, List<String> targetRuns, long baseFrom, long baseTo, long targetFrom,
                            long targetTo, MergedDiffQuery query) {
    }

    void flame(Context ctx) throws IOException {
        boolean binary = QueryParams.binaryFormat(ctx);
        Selection shape = shape(ctx);
        long[] range = range(ctx, "from", "to");
        MergedFlameQuery query = new MergedFlameQuery(shape, QueryParams.search(ctx), QueryParams.boolParam(ctx, "invert"),
                QueryParams.maxNodes(ctx));
        Runs runs = runs(ctx.queryParam("q"), range[0], range[1], MAX_MERGED_RUNS);
        List<RecordingInfo> infos = withKind(runs, shape.kind());
        FlameResponseCache.Key key = new FlameResponseCache.Key("runs", null,
                new MergedView(versions(infos), range[0], range[1], query), binary ? "binary" : "json", 0, 0);
        // the runs are loaded on a cache miss only, when the view's memory is estimated: each load is admitted on its
        // own, before the view's reservation, never inside it
        List<List<RunSelection>> parts = new ArrayList<>(List.of(List.of()));
        views.send(ctx, key, () -> {
            parts.set(0, load(infos, shape, range[0], range[1], new long[1]));
            return treeBytes(parts.get(0));
        }, () -> query.run(parts.get(0)), result -> {
            MergedFlameQuery.Result r = (MergedFlameQuery.Result) result;
            Map<String, Object> extra = new LinkedHashMap<>();
            extra.put("from", range[0]);
            extra.put("to", range[1]);
            extra.put("runs", contributions(r.contributions()));
            extra.put("omitted", runs.omitted());
            if (binary) {
                return new FlameResponseCache.Entry(FlameGraphBinary.encode(r.graph(), JSON, extra),
                        FlameGraphBinary.CONTENT_TYPE);
            }
            return new FlameResponseCache.Entry(withFields(JSON.writeValueAsBytes(r.graph()), extra), "application/json");
        });
    }

    void diff(Context ctx) throws IOException {
        views.sendView(ctx, this::diffView);
    }

    /** A diff of runs as its parameters name it (the runs found, each side's range); its runs are loaded on a cache miss. */
    ViewBuilds.View diffView(QueryParams.Query ctx) throws IOException {
        boolean binary = QueryParams.binaryFormat(ctx);
        Selection shape = shape(ctx);
        long[] base = range(ctx, "baseFrom", "baseTo");
        long[] target = range(ctx, "targetFrom", "targetTo");
        MergedDiffQuery query = new MergedDiffQuery(shape, shape, DiffMode.parse(ctx.param("mode")),
                QueryParams.maxNodes(ctx));
        String q = ctx.param("q");
        String targetQ = ctx.param("targetQ");
        Runs baseRuns = runs(q, base[0], base[1], MAX_MERGED_RUNS);
        Runs targetRuns = runs(targetQ == null || targetQ.isBlank() ? q : targetQ, target[0], target[1], MAX_MERGED_RUNS);
        List<RecordingInfo> a = withKind(baseRuns, shape.kind());
        List<RecordingInfo> b = withKind(targetRuns, shape.kind());
        FlameResponseCache.Key key = new FlameResponseCache.Key("runs", null,
                new DiffView(versions(a), versions(b), base[0], base[1], target[0], target[1], query), binary ? "binary" : "json", 0, 0);
        // loaded on a cache miss only, as for the merged flame graph
        List<List<RunSelection>> parts = new ArrayList<>(List.of(List.of(), List.of()));
        return new ViewBuilds.View(key, () -> {
            long[] held = new long[1];
            parts.set(0, load(a, shape, base[0], base[1], held));
            parts.set(1, load(b, shape, target[0], target[1], held));
            return treeBytes(parts.get(0)) + treeBytes(parts.get(1));
        }, () -> query.run(parts.get(0), parts.get(1)), result -> {
            MergedDiffQuery.Result r = (MergedDiffQuery.Result) result;
            Map<String, Object> extra = new LinkedHashMap<>();
            extra.put("baseFrom", base[0]);
            extra.put("baseTo", base[1]);
            extra.put("targetFrom", target[0]);
            extra.put("targetTo", target[1]);
            extra.put("baseRuns", contributions(r.base()));
            extra.put("targetRuns", contributions(r.target()));
            extra.put("omitted", baseRuns.omitted() + targetRuns.omitted());
            if (binary) {
                return new FlameResponseCache.Entry(DiffBinary.encode(r.diff(), JSON, extra), FlameGraphBinary.CONTENT_TYPE);
            }
            return new FlameResponseCache.Entry(withFields(JSON.writeValueAsBytes(r.diff()), extra), "application/json");
        });
    }

    /** A JSON object's bytes with more fields at its end (not a copy of the graph's columns as maps and lists). */
    private static byte[] withFields(byte[] object, Map<String, Object> extra) throws IOException {
        byte[] more = JSON.writeValueAsBytes(extra);
        byte[] out = java.util.Arrays.copyOf(object, object.length - 1 + more.length);
        out[object.length - 1] = ',';
        System.arraycopy(more, 1, out, object.length, more.length - 1);
        return out;
    }

    /** Each contributing run with its name and start, for the page to list. */
    private List<Map<String, Object>> contributions(List<RunSelection.Contribution> list) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (RunSelection.Contribution c : list) {
            RecordingInfo info = library.findInfo(c.id());
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", c.id());
            m.put("name", info == null ? c.id() : info.name());
            m.put("startMillis", info == null ? 0 : info.startMillis());
            m.put("samples", c.samples());
            m.put("weight", c.weight());
            out.add(m);
        }
        return out;
    }

    /** An epoch-milliseconds parameter, null when absent. */
    private static Long epochMillis(QueryParams.Query ctx, String name) {
        return QueryParams.millisParam(ctx.param(name), name, "epoch milliseconds");
    }
}
