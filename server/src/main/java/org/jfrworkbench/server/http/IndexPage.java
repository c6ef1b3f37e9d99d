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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;

import io.javalin.http.Context;

/**
 * The page at {@code /}, answered with its own type and length. Javalin's precompressing static handler served "/"
 * with the length of the plain file, an empty type and the gzip body, so clients that trust Content-Length waited for
 * bytes that never came.
 *
 * <p>Its head names what the linked view's first paint needs, so the browser asks for it while it reads the head
 * instead of after the entry script has arrived and run (and then level by level as each module names the next):
 * every module the view page imports (the router's and the view page's static imports, transitively, as the files
 * have them, made once per view page when the server starts; what a page imports only on use, the side tables, the
 * timeline and D3, is not named), and the data the entry asks for first ({@link #earlyData}, per request).
 */
final class IndexPage {
    /** Where index.html wants the page's module list. */
    static final String MODULES_PLACE = "<!-- page modules -->";
    /** Where index.html wants the linked view's data. */
    static final String DATA_PLACE = "<!-- view data -->";
    // recording ids are hex hashes; anything else is left to the entry, which encodes it as the browser does
    private static final Pattern PLAIN_ID = Pattern.compile("[A-Za-z0-9_-]{1,200}");
    private static final Pattern DIGITS = Pattern.compile("\\d{1,18}");
    // a recording's view selection, in the order js/core/urls.js writes it into the flame graph's URL
    private static final List<String> SELECTION = List.of("kind", "from", "to", "threads", "states", "source", "weight");
    // the code's static imports are one line each, with a relative path: import { a } from './x.js'; import './y.js';
    private static final Pattern STATIC_IMPORT = Pattern.compile("(?m)^import\\s[^'\"\\n]*?['\"](\\.{1,2}/[^'\"\\n]+\\.js)['\"]");
    // the router's pages: import('./pages/NAME.js')
    private static final Pattern PAGE_IMPORT = Pattern.compile("import\\('\\./pages/([a-z]+)\\.js'\\)");
    // the modules index.html names itself
    private static final Set<String> IN_HEAD = Set.of("js/core/boot.js", "js/core/urls.js");

    // per view page: the page with its module list, the data's place still open
    private final Map<String, String> pages = new TreeMap<>();
    private final String other;

    /**
     * assets: the path the page's scripts and styles are named under, one per server process, whose answers the
     * browser keeps without asking again; the page itself is asked for every time, so a new release (a new process)
     * names its own code.
     */
    IndexPage(String assets) {
        String html = resource("index.html");
        html = html == null ? "" : html.replace("\"/js/", "\"" + assets + "/js/").replace("\"/css/", "\"" + assets + "/css/");
        String app = resource("js/app.js");
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
        for (String url : earlyData(page, ctx.queryParamMap())) {
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
     * The URLs js/core/boot.js asks for first for this view, built as js/core/urls.js builds them: a recording's
     * metadata, and its flame graph when the link names a kind and a range that can be shown. The view's other early
     * requests (a diff, the service timeline) are left to the entry alone. A URL built otherwise than the entry's is
     * only a request too many, never a wrong answer: the page uses what its own URL returns.
     */
    static List<String> earlyData(String page, Map<String, List<String>> query) {
        String id = first(query, "id");
        if (id == null || !PLAIN_ID.matcher(id).matches()) {
            return List.of();
        }
        List<String> urls = new ArrayList<>();
        if (page.equals("recording") || page.equals("heap") || page.equals("diff")) {
            urls.add("/api/recordings/" + id);
        }
        String from = first(query, "from"), to = first(query, "to");
        boolean rangeOk = (from == null || DIGITS.matcher(from).matches()) && (to == null || DIGITS.matcher(to).matches())
                && !(from != null && to != null && Long.parseLong(from) > Long.parseLong(to));
        if (page.equals("recording") && first(query, "kind") != null && rangeOk) {
            // the page's view is every parameter of its address, the last of each name (Object.fromEntries)
            StringBuilder q = new StringBuilder();
            for (String key : SELECTION) {
                append(q, key, last(query, key));
            }
            append(q, "invert", "1".equals(last(query, "invert")) ? "true" : null);
            // the page reads the binary form on little-endian machines, which browsers run on
            append(q, "format", "binary");
            urls.add("/api/recordings/" + id + "/flame?" + q);
        }
        return urls;
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

    private static String last(Map<String, List<String>> query, String key) {
        List<String> values = query.get(key);
        return values == null || values.isEmpty() ? null : values.get(values.size() - 1);
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
