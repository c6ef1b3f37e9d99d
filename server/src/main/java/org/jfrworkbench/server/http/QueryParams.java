package org.jfrworkbench.server.http;

import java.util.BitSet;
import java.util.LinkedHashSet;
import java.util.Set;

import io.javalin.http.Context;
import org.jfrworkbench.analysis.BadQueryException;
import org.jfrworkbench.analysis.DiffMode;
import org.jfrworkbench.analysis.DiffQuery;
import org.jfrworkbench.analysis.FlameGraphQuery;
import org.jfrworkbench.analysis.ProfileData;
import org.jfrworkbench.analysis.SearchPattern;
import org.jfrworkbench.analysis.Selection;
import org.jfrworkbench.model.FrameNaming;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.server.library.RecordingLibrary;
import org.jfrworkbench.server.library.Runs;

/** The query parameters of the JSON API, parsed with one meaning each; a bad value is a {@link BadQueryException} (400). */
final class QueryParams {
    private QueryParams() {
    }

    /** Where parameters are read from: a request (Context::queryParam), or a URL the server built itself (EarlyViews). */
    interface Query {
        /** The parameter's first value, or null. */
        String param(String name);
    }

    /** {@code format=json} (default) or {@code format=binary}. */
    static boolean binaryFormat(Context ctx) {
        return binaryFormat(ctx::queryParam);
    }

    static boolean binaryFormat(Query ctx) {
        String f = ctx.param("format");
        if (f == null || f.isBlank() || f.equals("json")) {
            return false;
        }
        if (f.equals("binary")) {
            return true;
        }
        throw new BadQueryException("format must be json or binary, got '" + f + "'");
    }

    /**
     * The samples a query counts: {@code kind}, {@code from}/{@code to} (ms since the recording's start, [from, to)),
     * {@code threads}, {@code states}, {@code source} and {@code weight}; prefix names the parameters of one side of a
     * diff ("base", "target"; "" for the plain ones, which are also each side's default). States and source are
     * checked against the recording (400 naming what it has).
     */
    static Selection selection(Context ctx, ProfileData data, String prefix) {
        return selection(ctx::queryParam, data, prefix);
    }

    static Selection selection(Query ctx, ProfileData data, String prefix) {
        Kind kind = kind(param(ctx, prefix, "kind"), name(prefix, "kind"));
        Long from = longParam(param(ctx, prefix, "from"), name(prefix, "from"));
        Long to = longParam(param(ctx, prefix, "to"), name(prefix, "to"));
        if (from != null && to != null && from > to) {
            throw new BadQueryException(name(prefix, "from") + " (" + from + ") is after " + name(prefix, "to") + " (" + to + ")");
        }
        BitSet threads = threads(param(ctx, prefix, "threads"), name(prefix, "threads"), data);
        Selection s = Selection.millis(kind, from, to, threads, countSamples(ctx, kind))
                .with(states(param(ctx, prefix, "states")), param(ctx, prefix, "source"));
        s.check(data);
        return s;
    }

    /** {@code states=STATE_RUNNABLE,STATE_SLEEPING}: thread states as recorded; absent = every state. */
    static Set<String> states(String v) {
        if (v == null || v.isBlank()) {
            return null;
        }
        Set<String> out = new LinkedHashSet<>();
        for (String part : v.split(",")) {
            if (!part.isBlank()) {
                out.add(part.trim());
            }
        }
        return out;
    }

    static Selection selection(Context ctx, ProfileData data) {
        return selection(ctx, data, "");
    }

    /** A side's own parameter (baseFrom) when given, else the shared one (from). */
    private static String param(Query ctx, String prefix, String name) {
        if (!prefix.isEmpty()) {
            String own = ctx.param(name(prefix, name));
            if (own != null && !own.isBlank()) {
                return own;
            }
        }
        return ctx.param(name);
    }

    private static String name(String prefix, String name) {
        return prefix.isEmpty() ? name : prefix + Character.toUpperCase(name.charAt(0)) + name.substring(1);
    }

    private static BitSet threads(String t, String name, ProfileData data) {
        if (t == null || t.isBlank()) {
            return null;
        }
        BitSet threads = new BitSet();
        for (String part : t.split(",")) {
            try {
                int id = Integer.parseInt(part.trim());
                if (id < 0 || id >= data.profile().threads().size()) {
                    throw new BadQueryException(name + ": thread id " + id + " does not exist in recording " + data.id());
                }
                threads.set(id);
            } catch (NumberFormatException e) {
                throw new BadQueryException(name + " must be a comma-separated list of thread ids, got '" + t + "'");
            }
        }
        return threads;
    }

    /** {@code weight=samples} counts samples; absent (or the kind's own unit) weighs them in the kind's unit. */
    static boolean countSamples(Context ctx, Kind kind) {
        return countSamples(ctx::queryParam, kind);
    }

    static boolean countSamples(Query ctx, Kind kind) {
        String w = ctx.param("weight");
        if (w == null || w.isBlank() || w.equals(kind.unit())) {
            return false;
        }
        if (w.equals("samples")) {
            return true;
        }
        throw new BadQueryException("weight must be samples or " + kind.unit() + " for kind " + kind.id() + ", got '" + w + "'");
    }

    static FlameGraphQuery flameQuery(Query ctx, ProfileData data) {
        return new FlameGraphQuery(selection(ctx, data, ""), search(ctx), boolParam(ctx, "invert"), naming(ctx), 1.0,
                maxNodes(ctx));
    }

    /** {@code maxNodes}: the most nodes an answer holds, the lightest left out into "[other]" frames. */
    static int maxNodes(Context ctx) {
        return maxNodes(ctx::queryParam);
    }

    static int maxNodes(Query ctx) {
        return intParam(ctx, "maxNodes", FlameGraphQuery.DEFAULT_MAX_NODES, 2, 1 << 24);
    }

    /** {@code search} (a regular expression, or plain text with {@code literal=true}), {@code matchCase}; null when absent. */
    static SearchPattern search(Context ctx) {
        return search(ctx::queryParam);
    }

    static SearchPattern search(Query ctx) {
        String s = ctx.param("search");
        if (s == null || s.isEmpty()) {
            return null;
        }
        return SearchPattern.of(s, boolParam(ctx, "matchCase"), boolParam(ctx, "literal"));
    }

    static DiffQuery diffQuery(Context ctx, ProfileData base, ProfileData target) {
        return diffQuery(ctx::queryParam, base, target);
    }

    static DiffQuery diffQuery(Query ctx, ProfileData base, ProfileData target) {
        return new DiffQuery(selection(ctx, base, "base"), selection(ctx, target, "target"), naming(ctx),
                DiffMode.parse(ctx.param("mode")), maxNodes(ctx));
    }

    static Kind kind(Context ctx) {
        return kind(ctx.queryParam("kind"), "kind");
    }

    static Kind kind(Query ctx) {
        return kind(ctx.param("kind"), "kind");
    }

    private static Kind kind(String k, String name) {
        try {
            return k == null || k.isBlank() ? Kind.CPU : Kind.parse(k);
        } catch (IllegalArgumentException e) {
            throw new BadQueryException(name.equals("kind") ? e.getMessage() : name + ": " + e.getMessage());
        }
    }

    static FrameNaming naming(Context ctx) {
        return naming(ctx::queryParam);
    }

    static FrameNaming naming(Query ctx) {
        return new FrameNaming(boolParam(ctx, "signatures"), boolParam(ctx, "lines"));
    }

    static boolean boolParam(Context ctx, String name) {
        return boolParam(ctx::queryParam, name);
    }

    static boolean boolParam(Query ctx, String name) {
        String v = ctx.param(name);
        if (v == null || v.isBlank() || v.equals("false") || v.equals("0")) {
            return false;
        }
        if (v.equals("true") || v.equals("1")) {
            return true;
        }
        throw new BadQueryException(name + " must be true or false, got '" + v + "'");
    }

    static Long longParam(String v, String name) {
        return millisParam(v, name, "milliseconds since the recording's start");
    }

    /** A time in milliseconds (meaning: what they count, for the message), null when absent; in nanoseconds it fits a long. */
    static Long millisParam(String v, String name, String meaning) {
        if (v == null || v.isBlank()) {
            return null;
        }
        try {
            long l = Long.parseLong(v.trim());
            if (l < 0 || l > Long.MAX_VALUE / 2_000_000) {
                throw new BadQueryException(name + " is out of range: " + v);
            }
            return l;
        } catch (NumberFormatException e) {
            throw new BadQueryException(name + " must be " + meaning + ", got '" + v + "'");
        }
    }

    static int intParam(Context ctx, String name, int dflt, int min, int max) {
        return intParam(ctx::queryParam, name, dflt, min, max);
    }

    static int intParam(Query ctx, String name, int dflt, int min, int max) {
        String v = ctx.param(name);
        if (v == null || v.isBlank()) {
            return dflt;
        }
        try {
            int i = Integer.parseInt(v.trim());
            if (i < min || i > max) {
                throw new BadQueryException(name + " must be between " + min + " and " + max + ", got " + i);
            }
            return i;
        } catch (NumberFormatException e) {
            throw new BadQueryException(name + " must be a whole number, got '" + v + "'");
        }
    }

    static String required(Context ctx, String name) {
        return required(ctx::queryParam, name);
    }

    static String required(Query ctx, String name) {
        String v = ctx.param(name);
        if (v == null || v.isBlank()) {
            throw new BadQueryException("parameter '" + name + "' is required");
        }
        return v;
    }

    /**
     * A run's part as the query names it ({@code run=&chunk=&last=&runStart=}), or null for a plain upload; checked
     * before any byte is staged.
     */
    static RecordingLibrary.RunPart runPart(Context ctx) {
        String run = ctx.queryParam("run");
        String chunk = ctx.queryParam("chunk");
        boolean last = boolParam(ctx, "last");
        if (run == null) {
            if (chunk != null || last || ctx.queryParam("runStart") != null) {
                throw new BadQueryException("chunk=, last= and runStart= belong to a run: give run= too");
            }
            return null;
        }
        if (!Runs.KEY.matcher(run).matches()) {
            throw new BadQueryException("run must be 1 to 128 characters of A-Z a-z 0-9 . _ : -");
        }
        Integer part = null;
        if (chunk != null && chunk.isBlank()) {
            throw new BadQueryException("chunk must be the part number, 0 to " + Runs.MAX_PART);
        }
        if (chunk == null) {
            if (!last) {
                throw new BadQueryException("run= needs chunk= (the part number, 0 to "
                        + Runs.MAX_PART + ")");
            }
        } else {
            part = intParam(ctx, "chunk", 0, 0, Runs.MAX_PART);
        }
        long runStart = 0;
        String start = ctx.queryParam("runStart");
        if (start != null && !start.isBlank()) {
            try {
                runStart = Long.parseLong(start.trim());
            } catch (NumberFormatException e) {
                runStart = -1;
            }
            // 2000-01-01 to a day from now: an epoch time in ms, not seconds or nanoseconds
            if (runStart < 946_684_800_000L || runStart > System.currentTimeMillis() + 86_400_000L) {
                throw new BadQueryException("runStart must be the run's start in epoch milliseconds");
            }
        }
        return new RecordingLibrary.RunPart(run, part, last, runStart);
    }
}
