package org.jfrworkbench.bench;

import java.io.IOException;
import java.nio.file.Path;

import io.javalin.Javalin;
import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.server.http.WorkbenchServer;
import org.jfrworkbench.server.store.RecordingStore;

/** The real server, in process, on a random port with its own data directory (as the server's UI tests start it). */
final class BenchServer implements AutoCloseable {
    private final RecordingStore store;
    private final Javalin app;

    private BenchServer(RecordingStore store, Javalin app) {
        this.store = store;
        this.app = app;
    }

    static BenchServer start(Path dataDir) throws IOException {
        RecordingStore store = new RecordingStore(dataDir, new Importer(), 512L << 20);
        Javalin app = WorkbenchServer.create(store, null).start("127.0.0.1", 0);
        return new BenchServer(store, app);
    }

    RecordingStore store() {
        return store;
    }

    String baseUrl() {
        return "http://127.0.0.1:" + app.port();
    }

    @Override
    public void close() {
        app.stop();
        try {
            store.close();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
