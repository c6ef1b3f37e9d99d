package org.jfrworkbench.cli;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import org.jfrworkbench.importer.ImportLimits;
import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.server.http.RunningServer;
import org.jfrworkbench.server.library.RecordingLibrary;
import org.jfrworkbench.server.library.SampleLoader;
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
        RecordingLibrary library = RecordingLibrary.open(data, new Importer(ImportLimits.DEFAULT), maxUpload);
        if (library.size() == 0 && !noSamples) {
            int n = SampleLoader.load(library);
            System.err.println("workbench: loaded " + n + " sample recording(s)");
        }
        if (token == null && !InetAddress.getByName(host).isLoopbackAddress()) {
            System.err.println("workbench: WARNING: listening on " + host
                    + " without --token: anyone who can reach it can upload and delete recordings");
        }
        RunningServer server = RunningServer.start(library, token, host, port);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.close();
            } catch (RuntimeException e) {
                // exiting anyway; everything acknowledged is committed already
            }
            stopped.countDown();
        }));
        System.err.println("workbench: serving " + library.size() + " recording(s) from " + data.toAbsolutePath()
                + " on http://" + host + ":" + server.port() + "/");
        stopped.await();
        return 0;
    }
}
