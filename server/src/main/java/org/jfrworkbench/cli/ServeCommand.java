package org.jfrworkbench.cli;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import org.jfrworkbench.importer.ImportLimits;
import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.server.catalog.Secrets;
import org.jfrworkbench.server.http.RunningServer;
import org.jfrworkbench.server.http.ServerOptions;
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

    @Option(names = "--token-for-reads", description = "Require the token for every request, reads and the page included"
            + " (browsers ask for it: any user name, the token as password).")
    boolean tokenForReads;

    @Option(names = "--allowed-hosts", split = ",", paramLabel = "NAME",
            description = "Host names the server answers to besides localhost, this machine's name and IP addresses"
                    + " (comma-separated; a name a DNS-rebinding page could use is refused otherwise).")
    List<String> allowedHosts = new ArrayList<>();

    @Option(names = "--max-connections-per-client", defaultValue = "" + ServerOptions.DEFAULT_CONNECTIONS_PER_CLIENT,
            description = "Open connections one client address may hold; more are closed (default: ${DEFAULT-VALUE}).")
    int connectionsPerClient;

    @Option(names = "--idle-timeout", defaultValue = "30", paramLabel = "SECONDS",
            description = "Seconds a connection may stay silent before it is closed (default: ${DEFAULT-VALUE}).")
    int idleTimeoutSeconds;

    @Option(names = "--show-secrets", description = "Show JVM arguments as recorded; by default values of settings named"
            + " like password, token, key or secret are masked in recordings imported or listed.")
    boolean showSecrets;

    @Option(names = "--max-upload", defaultValue = "1g", converter = SizeConverter.class,
            description = "Largest accepted upload, e.g. 500m, 1g (default: ${DEFAULT-VALUE}).")
    long maxUpload;

    @Option(names = "--max-run", defaultValue = "64g", converter = SizeConverter.class,
            description = "Largest run (the parts of one recording that grows, e.g. an agent's chunks) in bytes, its"
                    + " parts together on disk; a part's work is its own import plus the run's model, which the samples"
                    + " a recording may hold bound (default: ${DEFAULT-VALUE}).")
    long maxRun;

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
        if (tokenForReads && token == null) {
            throw new IllegalArgumentException("--token-for-reads needs --token");
        }
        Secrets.enabled(!showSecrets);
        // imports spool decompressed layers in the data dir's tmp/, which is emptied on every start
        ImportLimits limits = ImportLimits.forHeap(Runtime.getRuntime().maxMemory(), data.resolve("tmp"));
        RecordingLibrary library = RecordingLibrary.open(data, new Importer(limits), maxUpload, maxRun);
        if (library.size() == 0 && !noSamples) {
            int n = SampleLoader.load(library);
            System.err.println("workbench: loaded " + n + " sample recording(s)");
        }
        if (token == null && !InetAddress.getByName(host).isLoopbackAddress()) {
            System.err.println("workbench: WARNING: listening on " + host
                    + " without --token: anyone who can reach it can upload and delete recordings");
        }
        RunningServer server = RunningServer.serve(library, new ServerOptions(token, tokenForReads, allowedHosts,
                connectionsPerClient, idleTimeoutSeconds * 1000L), host, port);
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
