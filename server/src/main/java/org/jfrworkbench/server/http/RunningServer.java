package org.jfrworkbench.server.http;

import java.io.IOException;
import java.io.UncheckedIOException;

import io.javalin.Javalin;
import org.jfrworkbench.server.library.RecordingLibrary;

/**
 * A workbench serving: the HTTP app started over a library. {@code workbench serve} runs one, and so do the tests and
 * benchmarks that need the real server in process. Closing it stops the app, then closes the library.
 */
public final class RunningServer implements AutoCloseable {
    private final RecordingLibrary library;
    private final Javalin app;
    private final String host;

    private RunningServer(RecordingLibrary library, Javalin app, String host) {
        this.library = library;
        this.app = app;
        this.host = host;
    }

    /** Serves library on host:port (port 0: any free port); token may be null for an open server. */
    public static RunningServer start(RecordingLibrary library, String token, String host, int port) {
        return serve(library, ServerOptions.of(token), host, port);
    }

    /** Serves library on host:port with the given guards and limits. */
    public static RunningServer serve(RecordingLibrary library, ServerOptions options, String host, int port) {
        Javalin app = WorkbenchServer.create(options, library);
        app.start(host, port);
        return new RunningServer(library, app, host);
    }

    public RecordingLibrary library() {
        return library;
    }

    public int port() {
        return app.port();
    }

    /** {@code http://host:port}, without a trailing slash. */
    public String baseUrl() {
        return "http://" + host + ":" + app.port();
    }

    @Override
    public void close() {
        app.stop();
        try {
            library.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
