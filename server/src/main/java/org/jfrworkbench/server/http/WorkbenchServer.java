package org.jfrworkbench.server.http;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;

import io.javalin.Javalin;
import io.javalin.http.HandlerType;
import io.javalin.http.staticfiles.Location;
import org.jfrworkbench.analysis.BadQueryException;
import org.jfrworkbench.importer.InvalidRecordingException;
import org.jfrworkbench.server.catalog.RecordingNotFoundException;
import org.jfrworkbench.server.store.RecordingStore;
import org.jfrworkbench.server.store.UploadTooLargeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The Javalin app: static UI, D3 webjar, the JSON API, bearer-token check and the one exception-to-status map. */
public final class WorkbenchServer {
    private static final Logger LOG = LoggerFactory.getLogger(WorkbenchServer.class);

    private WorkbenchServer() {
    }

    /** Creates (does not start) the app; token may be null for an open server. */
    public static Javalin create(RecordingStore store, String token) {
        RecordingApi api = new RecordingApi(store);
        long maxUpload = store.maxUpload();
        Javalin app = Javalin.create(config -> {
            config.showJavalinBanner = false;
            // flame graphs are megabytes of JSON: the default gzip level 6 costs more time than it saves on a LAN
            config.http.gzipOnlyCompression(1);
            config.staticFiles.add(sf -> {
                sf.hostedPath = "/";
                sf.directory = "/public";
                sf.location = Location.CLASSPATH;
                // the UI is a dozen small modules per page load: compress each once, not on every request
                sf.precompress = true;
            });
            config.staticFiles.enableWebjars();
            // Jetty reuses header values seen earlier on a connection and by default matches them ignoring case, so
            // "Bearer TOKEN" in capitals passed as the cached right token on a kept-alive connection (HostileRequestsIT)
            config.jetty.modifyHttpConfiguration(http -> http.setHeaderCacheCaseSensitive(true));
            config.jetty.multipartConfig.cacheDirectory(store.tmpDir().toString());
            config.jetty.multipartConfig.maxFileSize(maxUpload, io.javalin.config.SizeUnit.BYTES);
            config.jetty.multipartConfig.maxInMemoryFileSize(1, io.javalin.config.SizeUnit.MB);
            config.jetty.multipartConfig.maxTotalRequestSize(maxUpload + (1 << 20), io.javalin.config.SizeUnit.BYTES);
        });
        app.before("/api/*", ctx -> {
            if (token != null && (ctx.method() == HandlerType.POST || ctx.method() == HandlerType.DELETE)
                    && !tokenMatches(ctx.header("Authorization"), token)) {
                throw new UnauthorizedException();
            }
        });
        app.get("/api/recordings", api::list);
        app.post("/api/recordings", api::upload);
        app.get("/api/recordings/{id}", api::get);
        app.delete("/api/recordings/{id}", api::delete);
        app.get("/api/recordings/{id}/flame", api::flame);
        app.get("/api/recordings/{id}/collapsed", api::collapsed);
        app.get("/api/recordings/{id}/original", api::original);
        app.get("/api/recordings/{id}/heap", api::heap);
        app.get("/api/recordings/{id}/live", api::live);
        app.get("/api/recordings/{id}/threads", new ThreadsApi(store)::threads);
        app.get("/api/diff", api::diff);
        app.get("/api/search", api::search);

        app.exception(InvalidRecordingException.class, (e, ctx) -> error(ctx, 400, e.getMessage()));
        app.exception(BadQueryException.class, (e, ctx) -> error(ctx, 400, e.getMessage()));
        app.exception(RecordingNotFoundException.class, (e, ctx) -> error(ctx, 404, e.getMessage()));
        app.exception(UploadTooLargeException.class, (e, ctx) -> error(ctx, 413, e.getMessage()));
        app.exception(UnauthorizedException.class, (e, ctx) -> {
            ctx.header("WWW-Authenticate", "Bearer");
            error(ctx, 401, e.getMessage());
        });
        app.exception(IllegalStateException.class, (e, ctx) -> {
            // Jetty's multipart parser reports its size limits and malformed parts this way
            if (String.valueOf(e.getMessage()).contains("exceeds")) {
                error(ctx, 413, "upload exceeds the limit of " + maxUpload + " bytes");
            } else if (e.getCause() instanceof org.eclipse.jetty.http.BadMessageException bad) {
                error(ctx, 400, "malformed multipart body: " + bad.getReason());
            } else {
                internal(ctx, e);
            }
        });
        app.exception(Exception.class, (e, ctx) -> internal(ctx, e));
        app.error(404, ctx -> {
            String type = ctx.res().getContentType();
            if (ctx.path().startsWith("/api/") && (type == null || !type.contains("json"))) {
                ctx.json(Map.of("error", "no such API route: " + ctx.method() + " " + ctx.path()));
            }
        });
        return app;
    }

    private static void internal(io.javalin.http.Context ctx, Exception e) {
        LOG.error("{} {} failed", ctx.method(), ctx.path(), e);
        error(ctx, 500, "internal error: " + e);
    }

    private static void error(io.javalin.http.Context ctx, int status, String message) {
        ctx.status(status).json(Map.of("error", message == null ? "error" : message));
    }

    private static boolean tokenMatches(String header, String token) {
        // the scheme is case-insensitive (RFC 7235); Jetty's header cache may also re-case it on a kept-alive connection
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return false;
        }
        return MessageDigest.isEqual(header.substring(7).trim().getBytes(StandardCharsets.UTF_8),
                token.getBytes(StandardCharsets.UTF_8));
    }
}
