package org.jfrworkbench.server.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
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

    IndexPage() {
        try (InputStream in = IndexPage.class.getResourceAsStream("/public/index.html")) {
            plain = in == null ? new byte[0] : in.readAllBytes();
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
        // the page names its scripts without versions: revalidate every load so a new release is picked up
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
