package org.jfrworkbench.cli;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import io.javalin.Javalin;
import org.jfrworkbench.importer.ImportLimits;
import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.server.http.WorkbenchServer;
import org.jfrworkbench.server.library.SampleLoader;
import org.jfrworkbench.server.store.RecordingStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code workbench serve}: opens the data dir, loads the samples into an empty one, serves UI and API. */
@Command(name = "serve", mixinStandardHelpOptions = true, description = "Serve the web workbench and its HTTP API.")
public final class ServeCommand implements Callable<Integer> {
    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Address to bind (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--port", defaultValue = "8080", description = "Port (0 = any free port; default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--data", defaultValue = "./workbench-data", description = "Data directory (default: ${DEFAULT-VALUE}).")
    Path data;

    @Option(names = "--no-samples", description = "Do not load the bundled sample recordings into an empty data dir.")
    boolean noSamples;

    @Option(names = "--token", description = "Require 'Authorization: Bearer TOKEN' for uploads and deletes.")
    String token;

    @Option(names = "--max-upload", defaultValue = "1g", converter = SizeConverter.class,
            description = "Largest accepted upload, e.g. 500m, 1g (default: ${DEFAULT-VALUE}).")
    long maxUpload;

    @Override
    public Integer call() throws Exception {
        try {
            return serve();
        } catch (java.io.IOException | RuntimeException e) {
            System.err.println("workbench serve: " + e.getMessage());
            return 1;
        }
    }

    private int serve() throws Exception {
        RecordingStore store = new RecordingStore(data, new Importer(ImportLimits.DEFAULT), maxUpload);
        if (store.size() == 0 && !noSamples) {
            int n = SampleLoader.load(store);
            System.err.println("workbench: loaded " + n + " sample recording(s)");
        }
        if (token == null && !InetAddress.getByName(host).isLoopbackAddress()) {
            System.err.println("workbench: WARNING: listening on " + host
                    + " without --token: anyone who can reach it can upload and delete recordings");
        }
        Javalin app = WorkbenchServer.create(store, token);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            app.stop();
            try {
                store.close();
            } catch (Exception e) {
                // exiting anyway; everything acknowledged is committed already
            }
            stopped.countDown();
        }));
        app.start(host, port);
        System.err.println("workbench: serving " + store.size() + " recording(s) from " + data.toAbsolutePath()
                + " on http://" + host + ":" + app.port() + "/");
        stopped.await();
        return 0;
    }
}
