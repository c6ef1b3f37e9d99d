package org.jfrworkbench.server.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
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
 * The page at {@code /}: made once per view page, gzipped once, answered with its own type and length. Javalin's
 * precompressing static handler served "/" with the length of the plain file, an empty type and the gzip body, so
 * clients that trust Content-Length waited for bytes that never came.
 *
 * <p>Each variant names, in its head, every module the page's first paint imports (the router's and the view page's
 * static imports, transitively, as the files have them): the browser asks for them all while it reads the head,
 * instead of level by level as each module arrives and names the next, or after the entry script has arrived and run.
 * What a page imports only on use ({@code import()}: the side tables, the timeline and D3) is not named.
 */
final class IndexPage {
    /** Where index.html wants the page's module list. */
    static final String MODULES_PLACE = "<!-- page modules -->";
    // the code's static imports are one line each, with a relative path: import { a } from './x.js'; import './y.js';
    private static final Pattern STATIC_IMPORT = Pattern.compile("(?m)^import\\s[^'\"\\n]*?['\"](\\.{1,2}/[^'\"\\n]+\\.js)['\"]");
    // the router's pages: import('./pages/NAME.js')
    private static final Pattern PAGE_IMPORT = Pattern.compile("import\\('\\./pages/([a-z]+)\\.js'\\)");
    // the modules index.html names itself
    private static final Set<String> IN_HEAD = Set.of("js/core/boot.js", "js/core/urls.js");

    private record Variant(byte[] plain, byte[] gzip) {
    }

    private final Map<String, Variant> pages = new TreeMap<>();
    private final Variant other;

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
        Variant v = pages.getOrDefault(pageOf(ctx.queryParam("page"), ctx.queryParam("id"), ctx.queryParam("base")), other);
        String accepted = ctx.header("Accept-Encoding");
        if (accepted != null && accepted.contains("gzip")) {
            ctx.header("Content-Encoding", "gzip");
            ctx.result(v.gzip);
        } else {
            ctx.result(v.plain);
        }
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

    private static Variant variant(String html, String assets, Set<String> modules) {
        StringBuilder links = new StringBuilder();
        for (String module : modules) {
            if (!links.isEmpty()) {
                links.append("\n  ");
            }
            links.append("<link rel=\"modulepreload\" href=\"").append(assets).append('/').append(module).append("\">");
        }
        byte[] plain = html.replace(MODULES_PLACE, links).getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(plain);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot compress the page", e);
        }
        return new Variant(plain, out.toByteArray());
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
