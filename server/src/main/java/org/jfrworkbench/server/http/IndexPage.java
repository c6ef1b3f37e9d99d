package org.jfrworkbench.server.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;

import io.javalin.http.Context;
import org.jfrworkbench.model.Kind;

/**
 * The page at {@code /}, answered with its own type and length. Javalin's precompressing static handler served "/"
 * with the length of the plain file, an empty type and the gzip body, so clients that trust Content-Length waited for
 * bytes that never came.
 *
 * <p>Its head names what the linked view's first paint needs, so the browser asks for it while it reads the head
 * instead of after the entry script has arrived and run (and then level by level as each module names the next):
 * every module the view page imports (the router's and the view page's static imports, transitively, as the files
 * have them, made once per view page when the server starts; what a page imports only on use, the side tables, the
 * timeline and D3, is not named), and the data the entry asks for first ({@link #earlyData}, per request), each of
 * whose URLs the server is told before the page is sent, so it may start building that view then (EarlyViews).
 */
final class IndexPage {
    /** Where index.html wants the page's module list. */
    static final String MODULES_PLACE = "<!-- page modules -->";
    /** Where index.html wants the linked view's data. */
    static final String DATA_PLACE = "<!-- view data -->";
    // recording ids are hex hashes; anything else is left to the entry, which encodes it as the browser does
    private static final Pattern PLAIN_ID = Pattern.compile("[A-Za-z0-9_-]{1,200}");
    private static final Pattern DIGITS = Pattern.compile("\\d{1,18}");
    // what a selection's values are (thread ids, thread state and source names, weight, mode); a link with any other
    // value is left to the entry: nothing a link holds is asked for before the page's code has read it
    private static final Pattern PLAIN_VALUE = Pattern.compile("[A-Za-z0-9_.,:-]{1,2000}");
    // js/core/urls.js's lists of a view's parameters, in the order it writes them into the URLs: const NAME = ['a', 'b'];
    private static final Pattern KEY_LIST = Pattern.compile("(?m)^const (SELECTION_KEYS|DIFF_KEYS|RUNS_DIFF_KEYS) = \\[([^\\]\\n]*)\\];$");
    // a recordings search (q, targetQ) is free text: any characters but controls, as long as a link's other values
    private static final Pattern SEARCH_VALUE = Pattern.compile("[^\\p{Cntrl}]{1,2000}");
    private static final Pattern QUOTED = Pattern.compile("'([A-Za-z]+)'");
    // the code's static imports are one line each, with a relative path: import { a } from './x.js'; import './y.js';
    private static final Pattern STATIC_IMPORT = Pattern.compile("(?m)^import\\s[^'\"\\n]*?['\"](\\.{1,2}/[^'\"\\n]+\\.js)['\"]");
    // the router's pages: import('./pages/NAME.js')
    private static final Pattern PAGE_IMPORT = Pattern.compile("import\\('\\./pages/([a-z]+)\\.js'\\)");
    // the modules index.html names itself
    private static final Set<String> IN_HEAD = Set.of("js/core/boot.js", "js/core/urls.js");

    // per view page: the page with its module list, the data's place still open
    private final Map<String, String> pages = new TreeMap<>();
    private final String other;
    private final ViewKeys keys;
    private final BiConsumer<String, String> early;

    /**
     * The parameters a recording's flame graph (selection), a diff (diff) and a diff of runs (runsDiff, after q) are
     * asked for with, in their URLs' order.
     */
    record ViewKeys(List<String> selection, List<String> diff, List<String> runsDiff) {
        /** As js/core/urls.js lists them: one description of the URLs, for the page's code and the page's head. */
        static ViewKeys of(String urlsJs) {
            Map<String, List<String>> lists = new TreeMap<>();
            Matcher list = KEY_LIST.matcher(urlsJs == null ? "" : urlsJs);
            while (list.find()) {
                lists.put(list.group(1), QUOTED.matcher(list.group(2)).results().map(m -> m.group(1)).toList());
            }
            if (urlsJs != null && lists.size() != 3) {
                throw new IllegalStateException("js/core/urls.js has no SELECTION_KEYS, DIFF_KEYS and RUNS_DIFF_KEYS lines to build the page's data URLs from");
            }
            return new ViewKeys(lists.getOrDefault("SELECTION_KEYS", List.of()), lists.getOrDefault("DIFF_KEYS", List.of()),
                    lists.getOrDefault("RUNS_DIFF_KEYS", List.of()));
        }
    }

    /**
     * assets: the path the page's scripts and styles are named under, one per server process, whose answers the
     * browser keeps without asking again; the page itself is asked for every time, so a new release (a new process)
     * names its own code. early: told each data URL the page's head names and the address of the page's client, before
     * the page is sent, so that the server may start building that view (EarlyViews).
     */
    IndexPage(String assets, BiConsumer<String, String> early) {
        this.early = early;
        String html = resource("index.html");
        html = html == null ? "" : html.replace("\"/js/", "\"" + assets + "/js/").replace("\"/css/", "\"" + assets + "/css/");
        String app = resource("js/app.js");
        keys = ViewKeys.of(resource("js/core/urls.js"));
        other = variant(html, assets, modules(List.of("js/app.js")));
        if (app != null) {
            Matcher page = PAGE_IMPORT.matcher(app);
            while (page.find()) {
                pages.put(page.group(1), variant(html, assets, modules(List.of("js/app.js", "js/pages/" + page.group(1) + ".js"))));
            }
        }
    }

    void serve(Context ctx) {
        ctx.disableCompression();
        ctx.contentType("text/html; charset=utf-8");
        // asked for every load: it names the process's assets path, so a new release's code is picked up
        ctx.header("Cache-Control", "no-cache");
        ctx.header("Vary", "Accept-Encoding");
        String page = pageOf(ctx.queryParam("page"), ctx.queryParam("id"), ctx.queryParam("base"));
        StringBuilder links = new StringBuilder();
        for (String url : earlyData(page, ctx.queryParamMap(), keys)) {
            early.accept(url, ctx.req().getRemoteAddr());
            // as the entry's fetch() asks (same origin, cors mode), so that request takes this one's answer
            links.append(links.isEmpty() ? "" : "\n  ").append("<link rel=\"preload\" as=\"fetch\" crossorigin href=\"")
                    .append(url.replace("&", "&amp;")).append("\">");
        }
        byte[] plain = pages.getOrDefault(page, other).replace(DATA_PLACE, links).getBytes(StandardCharsets.UTF_8);
        String accepted = ctx.header("Accept-Encoding");
        if (accepted != null && accepted.contains("gzip")) {
            ctx.header("Content-Encoding", "gzip");
            ctx.result(gzip(plain));
        } else {
            ctx.result(plain);
        }
    }

    /**
     * The URLs js/core/boot.js asks for first for this view, built as js/core/urls.js builds them from the view as the
     * page reads it (the first value of each parameter, state.js): a recording's metadata; its flame graph when the link
     * names a kind and a range that can be shown; a diff's other recording's metadata and, when the link names a kind
     * and ranges that can be shown, the diff; a diff of runs' search and diff ({@link #runsDiffData}). The service
     * timeline is left to the entry alone, as is a link with a value
     * no recording's view has ({@link #PLAIN_VALUE}, a kind of none of {@link Kind}'s). A URL built otherwise than the
     * entry's is only a request too many, never a wrong answer: the page uses what its own URL returns.
     */
    static List<String> earlyData(String page, Map<String, List<String>> query, ViewKeys keys) {
        String id = first(query, "id");
        if (page.equals("diff") && id == null && first(query, "base") == null) {
            return runsDiffData(query, keys);
        }
        if (id == null || !PLAIN_ID.matcher(id).matches()) {
            return List.of();
        }
        List<String> urls = new ArrayList<>();
        if (page.equals("recording") || page.equals("heap") || page.equals("diff")) {
            urls.add("/api/recordings/" + id);
        }
        if (page.equals("recording") && viewable(query, keys.selection()) && rangeOk(query, "from", "to")) {
            StringBuilder q = new StringBuilder();
            appendAll(q, keys.selection(), query);
            append(q, "invert", "1".equals(first(query, "invert")) ? "true" : null);
            // the page reads the binary form on little-endian machines, which browsers run on
            append(q, "format", "binary");
            urls.add("/api/recordings/" + id + "/flame?" + q);
        }
        String base = first(query, "base");
        if (page.equals("diff") && base != null && PLAIN_ID.matcher(base).matches()) {
            if (!base.equals(id)) {
                urls.add("/api/recordings/" + base);
            }
            if (viewable(query, keys.diff()) && rangeOk(query, "baseFrom", "baseTo") && rangeOk(query, "targetFrom", "targetTo")) {
                StringBuilder q = new StringBuilder();
                append(q, "base", base);
                append(q, "target", id);
                appendAll(q, keys.diff(), query);
                append(q, "format", "binary");
                urls.add("/api/diff?" + q);
            }
        }
        return urls;
    }

    /**
     * A diff of runs (no recording named): the recordings search the page reads the kinds from (the search's first
     * match and its facets), and, when the link names a kind and two whole ranges, the diff, as js/core/urls.js builds
     * them (api.list, urls.mergedDiff).
     */
    private static List<String> runsDiffData(Map<String, List<String>> query, ViewKeys keys) {
        String q = first(query, "q"), targetQ = first(query, "targetQ");
        if (q != null && !SEARCH_VALUE.matcher(q).matches() || targetQ != null && !SEARCH_VALUE.matcher(targetQ).matches()) {
            return List.of();
        }
        List<String> urls = new ArrayList<>();
        StringBuilder list = new StringBuilder();
        append(list, "q", q);
        append(list, "limit", "1");
        append(list, "offset", "0");
        urls.add("/api/recordings?" + list);
        List<String> plain = keys.runsDiff().stream().filter(k -> !k.equals("targetQ")).toList();
        if (viewable(query, plain) && wholeRange(query, "baseFrom", "baseTo") && wholeRange(query, "targetFrom", "targetTo")) {
            StringBuilder q2 = new StringBuilder();
            append(q2, "q", q);
            appendAll(q2, keys.runsDiff(), query);
            append(q2, "format", "binary");
            urls.add("/api/merged/diff?" + q2);
        }
        return urls;
    }

    /** Appends each of keys with the link's first value for it, in that order (as urls.js's pick). */
    private static void appendAll(StringBuilder q, List<String> keys, Map<String, List<String>> query) {
        for (String key : keys) {
            append(q, key, first(query, key));
        }
    }

    /** Whether a diff of runs' side names both ends, whole numbers, the first before the second, as its page checks. */
    private static boolean wholeRange(Map<String, List<String>> query, String fromKey, String toKey) {
        String from = first(query, fromKey), to = first(query, toKey);
        return from != null && to != null && DIGITS.matcher(from).matches() && DIGITS.matcher(to).matches()
                && Long.parseLong(from) < Long.parseLong(to);
    }

    /** Whether the link names a kind there is and its other view parameters are plain values (or absent). */
    private static boolean viewable(Map<String, List<String>> query, List<String> keys) {
        String kind = first(query, "kind");
        // as the page names it: another spelling is no kind of the recording's to the page, which shows its first
        if (kind == null || keys.isEmpty() || Arrays.stream(Kind.values()).noneMatch(k -> k.id().equals(kind))) {
            return false;
        }
        for (String key : keys) {
            String value = first(query, key);
            if (value != null && !PLAIN_VALUE.matcher(value).matches()) {
                return false;
            }
        }
        return true;
    }

    /** Whether a range's ends are whole numbers (or absent) and it does not end before it starts, as the entry checks. */
    private static boolean rangeOk(Map<String, List<String>> query, String fromKey, String toKey) {
        String from = first(query, fromKey), to = first(query, toKey);
        return (from == null || DIGITS.matcher(from).matches()) && (to == null || DIGITS.matcher(to).matches())
                && !(from != null && to != null && Long.parseLong(from) > Long.parseLong(to));
    }

    private static void append(StringBuilder q, String key, String value) {
        if (value != null && !value.isEmpty()) {
            q.append(q.isEmpty() ? "" : "&").append(key).append('=').append(URLEncoder.encode(value, StandardCharsets.UTF_8));
        }
    }

    /** The first non-empty value of a parameter (URLSearchParams.get, empty taken as absent), or null. */
    private static String first(Map<String, List<String>> query, String key) {
        List<String> values = query.get(key);
        return values == null || values.isEmpty() || values.get(0).isEmpty() ? null : values.get(0);
    }

    /** The view page an address shows, as the page's own code picks it (defaultPage in js/core/urls.js). */
    static String pageOf(String page, String id, String base) {
        if (page != null && !page.isEmpty()) {
            return page;
        }
        boolean hasId = id != null && !id.isEmpty();
        return hasId ? (base != null && !base.isEmpty() ? "diff" : "recording") : "recordings";
    }

    /** The entries' static imports, transitively, shallowest first, under public/ (js/core/dom.js, …). */
    static Set<String> modules(List<String> entries) {
        Set<String> seen = new LinkedHashSet<>(entries);
        ArrayDeque<String> todo = new ArrayDeque<>(entries);
        while (!todo.isEmpty()) {
            String module = todo.poll();
            String source = resource(module);
            if (source == null) {
                continue;
            }
            Matcher m = STATIC_IMPORT.matcher(source);
            while (m.find()) {
                String imported = URI.create("/" + module).resolve(m.group(1)).getPath().substring(1);
                if (seen.add(imported)) {
                    todo.add(imported);
                }
            }
        }
        seen.removeAll(IN_HEAD);
        return seen;
    }

    private static String variant(String html, String assets, Set<String> modules) {
        StringBuilder links = new StringBuilder();
        for (String module : modules) {
            if (!links.isEmpty()) {
                links.append("\n  ");
            }
            links.append("<link rel=\"modulepreload\" href=\"").append(assets).append('/').append(module).append("\">");
        }
        return html.replace(MODULES_PLACE, links);
    }

    private static byte[] gzip(byte[] plain) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(plain.length / 2);
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(plain);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot compress the page", e);
        }
        return out.toByteArray();
    }

    /** A file of the page's code (under public/), or null when there is none. */
    private static String resource(String path) {
        try (InputStream in = IndexPage.class.getResourceAsStream("/public/" + path)) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the page's " + path, e);
        }
    }
}
