package org.jfrworkbench.server.http;

import java.util.BitSet;
import java.util.LinkedHashSet;
import java.util.Set;

import io.javalin.http.Context;
import org.jfrworkbench.analysis.BadQueryException;
import org.jfrworkbench.analysis.FlameGraphQuery;
import org.jfrworkbench.analysis.ProfileData;
import org.jfrworkbench.analysis.SampleFilter;
import org.jfrworkbench.model.FrameNaming;
import org.jfrworkbench.model.Kind;

/** The query parameters of the JSON API, parsed with one meaning each; a bad value is a {@link BadQueryException} (400). */
final class QueryParams {
    private QueryParams() {
    }

    /** {@code format=json} (default) or {@code format=binary}. */
    static boolean binaryFormat(Context ctx) {
        String f = ctx.queryParam("format");
        if (f == null || f.isBlank() || f.equals("json")) {
            return false;
        }
        if (f.equals("binary")) {
            return true;
        }
        throw new BadQueryException("format must be json or binary, got '" + f + "'");
    }

    static FlameGraphQuery flameQuery(Context ctx, ProfileData data) {
        long start = data.profile().startNanos();
        Long from = longParam(ctx, "from");
        Long to = longParam(ctx, "to");
        if (from != null && to != null && from > to) {
            throw new BadQueryException("from (" + from + ") is after to (" + to + ")");
        }
        BitSet threads = null;
        String t = ctx.queryParam("threads");
        if (t != null && !t.isBlank()) {
            threads = new BitSet();
            for (String part : t.split(",")) {
                try {
                    int id = Integer.parseInt(part.trim());
                    if (id < 0 || id >= data.profile().threads().size()) {
                        throw new BadQueryException("thread id " + id + " does not exist in this recording");
                    }
                    threads.set(id);
                } catch (NumberFormatException e) {
                    throw new BadQueryException("threads must be a comma-separated list of thread ids, got '" + t + "'");
                }
            }
        }
        Kind kind = kind(ctx);
        SampleFilter filter = new SampleFilter(from == null ? Long.MIN_VALUE : start + from * 1_000_000,
                to == null ? Long.MAX_VALUE : start + to * 1_000_000 + 999_999, threads, states(ctx), source(ctx));
        SampleFilter.check(data.profile(), kind, filter.states(), filter.source());
        return new FlameGraphQuery(kind, filter, ctx.queryParam("search"), boolParam(ctx, "invert"), naming(ctx), 1.0);
    }

    /** {@code states=STATE_RUNNABLE,STATE_SLEEPING}: thread states as recorded; absent = every state. */
    static Set<String> states(Context ctx) {
        String v = ctx.queryParam("states");
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

    /** {@code source=jdk}: which sampler's samples; absent = the kind's default source. */
    static String source(Context ctx) {
        String v = ctx.queryParam("source");
        return v == null || v.isBlank() ? null : v.trim();
    }

    /** The states and source of a diff, checked against both recordings. */
    static SampleFilter diffFilter(Context ctx, Kind kind, ProfileData base, ProfileData target) {
        SampleFilter filter = SampleFilter.ALL.with(states(ctx), source(ctx));
        SampleFilter.check(base.profile(), kind, filter.states(), filter.source());
        SampleFilter.check(target.profile(), kind, filter.states(), filter.source());
        return filter;
    }

    static Kind kind(Context ctx) {
        String k = ctx.queryParam("kind");
        try {
            return k == null || k.isBlank() ? Kind.CPU : Kind.parse(k);
        } catch (IllegalArgumentException e) {
            throw new BadQueryException(e.getMessage());
        }
    }

    static FrameNaming naming(Context ctx) {
        return new FrameNaming(boolParam(ctx, "signatures"), boolParam(ctx, "lines"));
    }

    static boolean boolParam(Context ctx, String name) {
        String v = ctx.queryParam(name);
        if (v == null || v.isBlank() || v.equals("false") || v.equals("0")) {
            return false;
        }
        if (v.equals("true") || v.equals("1")) {
            return true;
        }
        throw new BadQueryException(name + " must be true or false, got '" + v + "'");
    }

    static Long longParam(Context ctx, String name) {
        String v = ctx.queryParam(name);
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
            throw new BadQueryException(name + " must be milliseconds since the recording's start, got '" + v + "'");
        }
    }

    static int intParam(Context ctx, String name, int dflt, int min, int max) {
        String v = ctx.queryParam(name);
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
        String v = ctx.queryParam(name);
        if (v == null || v.isBlank()) {
            throw new BadQueryException("parameter '" + name + "' is required");
        }
        return v;
    }
}
