package org.jfrworkbench.server.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;

import io.javalin.http.Context;

/**
 * The page at {@code /}: read once, gzipped once, answered with its own type and length. Javalin's precompressing
 * static handler served "/" with the length of the plain file, an empty type and the gzip body, so clients that
 * trust Content-Length waited for bytes that never came.
 */
final class IndexPage {
    private final byte[] plain;
    private final byte[] gzip;

    /**
     * assets: the path the page's scripts and styles are named under, one per server process, whose answers the
     * browser keeps without asking again; the page itself is asked for every time, so a new release (a new process)
     * names its own code.
     */
    IndexPage(String assets) {
        try (InputStream in = IndexPage.class.getResourceAsStream("/public/index.html")) {
            String html = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
            plain = html.replace("\"/js/", "\"" + assets + "/js/").replace("\"/css/", "\"" + assets + "/css/")
                    .getBytes(StandardCharsets.UTF_8);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
                gz.write(plain);
            }
            gzip = out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the page", e);
        }
    }

    void serve(Context ctx) {
        ctx.disableCompression();
        ctx.contentType("text/html; charset=utf-8");
        // asked for every load: it names the process's assets path, so a new release's code is picked up
        ctx.header("Cache-Control", "no-cache");
        ctx.header("Vary", "Accept-Encoding");
        String accepted = ctx.header("Accept-Encoding");
        if (accepted != null && accepted.contains("gzip")) {
            ctx.header("Content-Encoding", "gzip");
            ctx.result(gzip);
        } else {
            ctx.result(plain);
        }
    }
}
