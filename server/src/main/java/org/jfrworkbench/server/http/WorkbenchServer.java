package org.jfrworkbench.server.http;

import java.util.Map;

import io.javalin.Javalin;
import io.javalin.http.staticfiles.Location;
import org.jfrworkbench.analysis.BadQueryException;
import org.jfrworkbench.analysis.QueryLimits;
import org.jfrworkbench.analysis.UnknownMethodException;
import org.jfrworkbench.importer.InvalidRecordingException;
import org.jfrworkbench.importer.RecordingTooLargeException;
import org.jfrworkbench.server.catalog.RecordingNotFoundException;
import org.jfrworkbench.server.library.RecordingLibrary;
import org.jfrworkbench.server.library.UploadTooLargeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The Javalin app: static UI, D3 webjar, the JSON API, bearer-token check and the one exception-to-status map. */
public final class WorkbenchServer {
    private static final Logger LOG = LoggerFactory.getLogger(WorkbenchServer.class);

    private WorkbenchServer() {
    }

    /** Creates (does not start) the app; token may be null for an open server. */
    public static Javalin create(RecordingLibrary library, String token) {
        return create(ServerOptions.of(token), library);
    }

    /** Creates (does not start) the app with the given guards and limits. */
    public static Javalin create(ServerOptions options, RecordingLibrary library) {
        WorkGate gate = WorkGate.forHeap(Runtime.getRuntime().maxMemory());
        Profiles profiles = new Profiles(library, gate);
        ViewBuilds views = new ViewBuilds(library, gate);
        FlameApi flame = new FlameApi(library, profiles, views);
        HeapApi heap = new HeapApi(library, profiles, views);
        RecordingApi api = new RecordingApi(library, gate, profiles, views, flame::warm);
        HttpGuards guards = new HttpGuards(options);
        // the page names its code under a path of this process's own (IndexPage), answered as immutable: a page opened
        // again takes every module from the browser's cache instead of asking for each again (a round trip each)
        String assets = "/assets/" + Long.toString(System.currentTimeMillis(), 36);
        // a link's flame graph or diff starts building as its page is served, not once the browser has read the page's head
        IndexPage page = new IndexPage(assets, views::startEarly);
        long maxUpload = library.maxUpload();
        Javalin app = Javalin.create(config -> {
            config.showJavalinBanner = false;
            // flame graphs are megabytes of JSON: the default gzip level 6 costs more time than it saves on a LAN
            config.http.gzipOnlyCompression(1);
            // the page's own path first: Javalin asks each folder in turn, and "/" (which holds no assets/ folder)
            // answered every module of a page's head with a miss, three jar lookups that throw (FileNotFoundException),
            // before the hit
            config.staticFiles.add(sf -> {
                sf.hostedPath = assets;
                sf.directory = "/public";
                sf.location = Location.CLASSPATH;
                sf.precompress = true;
                sf.headers = Map.of("Cache-Control", "public, max-age=31536000, immutable");
            });
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
            config.jetty.modifyHttpConfiguration(http -> {
                http.setHeaderCacheCaseSensitive(true);
                ClientLimits.configure(http, options);
            });
            config.jetty.modifyServer(server -> ClientLimits.install(server, options));
            config.jetty.multipartConfig.cacheDirectory(library.scratchDir().toString());
            config.jetty.multipartConfig.maxFileSize(maxUpload, io.javalin.config.SizeUnit.BYTES);
            config.jetty.multipartConfig.maxInMemoryFileSize(1, io.javalin.config.SizeUnit.MB);
            config.jetty.multipartConfig.maxTotalRequestSize(maxUpload + (1 << 20), io.javalin.config.SizeUnit.BYTES);
        });
        app.before(guards::check);
        // the page itself, not the static handler: that one declared the plain length for the gzip body of "/"
        app.get("/", page::serve);
        app.get("/index.html", page::serve);
        // a page loaded from an earlier server process still names that one's assets path when it loads a module
        // later: the same file now (its imports resolve from where it was redirected to)
        // (after the static files found nothing: an endpoint on these paths would come before them)
        app.error(404, ctx -> {
            String path = ctx.path();
            int file = path.indexOf('/', "/assets/".length());
            if (path.startsWith("/assets/") && file > 0 && !path.startsWith(assets + "/")) {
                ctx.redirect(assets + path.substring(file), io.javalin.http.HttpStatus.FOUND);
            }
        });
        app.get("/api/recordings", api::list);
        app.post("/api/recordings", api::upload);
        app.get("/api/recordings/{id}", api::get);
        app.delete("/api/recordings/{id}", api::delete);
        app.get("/api/recordings/{id}/flame", flame::flame);
        app.get("/api/recordings/{id}/collapsed", flame::collapsed);
        app.get("/api/recordings/{id}/original", api::original);
        app.get("/api/recordings/{id}/heap", heap::heap);
        app.get("/api/recordings/{id}/live", heap::live);
        app.get("/api/recordings/{id}/heap/growth", heap::heapGrowth);
        app.get("/api/heap/diff", heap::heapDiff);
        app.get("/api/recordings/{id}/sandwich", flame::sandwich);
        app.get("/api/recordings/{id}/frame-states", flame::frameStates);
        app.get("/api/recordings/{id}/threads", new ThreadsApi(profiles::load)::threads);
        app.get("/api/diff", flame::diff);
        app.get("/api/diff/collapsed", flame::diffCollapsed);
        app.get("/api/search", api::search);
        RunsOverTimeApi runs = new RunsOverTimeApi(library, profiles, views);
        views.buildsEarly("/api/merged/diff", runs::diffView);
        app.get("/api/timeline", runs::timeline);
        app.get("/api/merged/flame", runs::flame);
        app.get("/api/merged/diff", runs::diff);

        app.exception(InvalidRecordingException.class, (e, ctx) -> error(ctx, 400, e.getMessage()));
        app.exception(BadQueryException.class, (e, ctx) -> error(ctx, 400, e.getMessage()));
        app.exception(RecordingNotFoundException.class, (e, ctx) -> error(ctx, 404, e.getMessage()));
        app.exception(UnknownMethodException.class, (e, ctx) -> error(ctx, 404, e.getMessage()));
        app.exception(org.jfrworkbench.server.library.PartConflictException.class, (e, ctx) -> error(ctx, 409, e.getMessage()));
        app.exception(RecordingTooLargeException.class, (e, ctx) -> error(ctx, 413, e.getMessage()));
        app.exception(UploadTooLargeException.class, (e, ctx) -> error(ctx, 413, e.getMessage()));
        app.exception(UnauthorizedException.class, (e, ctx) -> {
            // a browser asks for credentials only on a Basic challenge; scripts and agents read Bearer
            ctx.header("WWW-Authenticate", e.page() ? "Basic realm=\"JFR Workbench\", charset=\"UTF-8\"" : "Bearer");
            error(ctx, 401, e.getMessage());
        });
        app.exception(QueryLimits.QueryCancelledException.class, (e, ctx) -> {
            LOG.info("{} {}: {}", ctx.method(), ctx.path(), e.getMessage());
            error(ctx, 408, e.getMessage()); // nobody reads it: the connection is closed
        });
        app.exception(QueryLimits.ViewTooLargeException.class, (e, ctx) -> error(ctx, 413, e.getMessage()));
        app.exception(StalledUploadException.class, (e, ctx) -> error(ctx, 408, e.getMessage()));
        app.exception(ForbiddenException.class, (e, ctx) -> error(ctx, 403, e.getMessage()));
        app.exception(OverloadedException.class, (e, ctx) -> {
            ctx.header("Retry-After", Integer.toString(e.retryAfterSeconds()));
            error(ctx, 503, e.getMessage());
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
        app.exception(Exception.class, (e, ctx) -> {
            if (!clientFault(ctx, e)) {
                internal(ctx, e);
            }
        });
        app.error(404, ctx -> {
            String type = ctx.res().getContentType();
            if (ctx.path().startsWith("/api/") && (type == null || !type.contains("json"))) {
                ctx.json(Map.of("error", "no such API route: " + ctx.method() + " " + ctx.path()));
            }
        });
        return app;
    }

    private static final java.util.concurrent.atomic.AtomicLong INCIDENTS = new java.util.concurrent.atomic.AtomicLong();

    /** A bug: logged with its stack trace; the answer names the log entry, not the exception (paths, internals). */
    private static void internal(io.javalin.http.Context ctx, Exception e) {
        long incident = INCIDENTS.incrementAndGet();
        LOG.error("incident {}: {} {} failed", incident, ctx.method(), ctx.path(), e);
        error(ctx, 500, "internal error: the server failed on this request (incident " + incident + " in its log)");
    }

    /**
     * Failures of the client's connection, not of the server: a body that stalls (idle timeout), arrives slower than
     * the minimum data rate, or ends before its Content-Length. Answers 408 or 400 and returns true for those.
     */
    private static boolean clientFault(io.javalin.http.Context ctx, Exception e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof org.eclipse.jetty.http.BadMessageException bad) {
                error(ctx, bad.getCode() == 408 ? 408 : 400, bad.getCode() == 408
                        ? "the request body arrived slower than " + ClientLimits.MIN_DATA_RATE + " bytes per second"
                        : "malformed request: " + bad.getReason());
                return true;
            }
            if (t instanceof java.util.concurrent.TimeoutException) {
                error(ctx, 408, "the request body stalled: no bytes arrived within the server's idle timeout");
                return true;
            }
            if (t instanceof org.eclipse.jetty.io.EofException) {
                error(ctx, 400, "the upload ended early: fewer bytes arrived than its Content-Length announced");
                return true;
            }
        }
        return false;
    }

    private static void error(io.javalin.http.Context ctx, int status, String message) {
        ctx.status(status).json(Map.of("error", message == null ? "error" : message));
    }
}
