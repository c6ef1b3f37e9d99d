package org.jfrworkbench.testkit.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code java -jar workbench.jar serve} as a child process on a free port; also used by the torture suite. */
public final class ServerProcess implements AutoCloseable {
    /** A deadline only a stuck server reaches: on a loaded machine a JVM's start alone can take tens of seconds. */
    public static final long STUCK_SECONDS = 300;
    private static final Pattern LISTENING = Pattern.compile("on http://[^:]+:(\\d+)/");
    public final Process process;
    public final String base;
    public final StringBuffer log = new StringBuffer();
    private static List<String> archiveOptions;

    public ServerProcess(Path data, String... extra) throws Exception {
        this(data, List.of("-Xmx1g"), extra);
    }

    /** jvmOptions replace the default -Xmx1g (e.g. a tighter heap, a GC log, a crash-point property). */
    public ServerProcess(Path data, List<String> jvmOptions, String... extra) throws Exception {
        String jar = System.getProperty("workbench.jar", "target/workbench.jar");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED"));
        cmd.addAll(classDataArchive(java, jar));
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-jar", jar, "serve", "--port", "0", "--data", data.toString()));
        cmd.addAll(List.of(extra));
        process = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        CompletableFuture<String> port = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    synchronized (log) {
                        log.append(line).append('\n');
                        log.notifyAll();
                    }
                    Matcher m = LISTENING.matcher(line);
                    if (m.find()) {
                        port.complete(m.group(1));
                    }
                }
            } catch (IOException e) {
                // the process was killed
            }
            port.completeExceptionally(new IllegalStateException("server exited:\n" + log));
        });
        reader.setDaemon(true);
        reader.start();
        base = "http://127.0.0.1:" + port.get(STUCK_SECONDS, TimeUnit.SECONDS);
    }

    /**
     * The JVM options that map a class-data archive of the server's classes (dynamic CDS, JDK 19+): a server started
     * with it skips loading and verifying most of its classes, which takes about 40 % off each start, and these tests
     * start two dozen. The archive is made once per build by a server that handles a request and exits normally (the
     * tests kill theirs, and a killed JVM writes no archive); where it cannot be made, servers start without it.
     */
    private static synchronized List<String> classDataArchive(String java, String jar) throws Exception {
        if (archiveOptions != null) {
            return archiveOptions;
        }
        archiveOptions = List.of(); // one attempt per test JVM, whatever comes of it
        Path archive = Path.of(jar).toAbsolutePath().resolveSibling("workbench-server.jsa");
        // an archive of an older jar would not map (the JVM checks the jar): make a new one
        if (!Files.exists(archive)
                || Files.getLastModifiedTime(archive).compareTo(Files.getLastModifiedTime(Path.of(jar))) < 0) {
            Path made = archive.resolveSibling(archive.getFileName() + ".part");
            trainArchive(java, jar, made);
            if (Files.exists(made)) {
                Files.move(made, archive, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            }
        }
        // -Xlog:cds=off: the JDK's base archive was made without --enable-native-access, which each start would report
        archiveOptions = Files.exists(archive)
                ? List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds=off") : List.of();
        return archiveOptions;
    }

    /** Runs a server that writes the classes it loaded to {@code archive} as it exits: a start, an upload, a list. */
    private static void trainArchive(String java, String jar, Path archive) throws Exception {
        Path data = archive.resolveSibling("workbench-server-cds-data");
        Path log = archive.resolveSibling("workbench-server-cds.log");
        // the output goes to a file: the JVM writes the archive as it exits, after this test has stopped reading
        Process p = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED",
                "-XX:ArchiveClassesAtExit=" + archive, "-jar", jar, "serve", "--port", "0", "--data", data.toString(),
                "--no-samples")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            long stuck = System.nanoTime() + TimeUnit.SECONDS.toNanos(STUCK_SECONDS);
            while (p.isAlive() && System.nanoTime() < stuck) {
                Matcher m = LISTENING.matcher(Files.readString(log));
                if (m.find()) {
                    HttpClient http = HttpClient.newHttpClient();
                    URI base = URI.create("http://127.0.0.1:" + m.group(1));
                    http.send(HttpRequest.newBuilder(base.resolve("/api/recordings?name=cds"))
                            .POST(HttpRequest.BodyPublishers.ofString("a.A.a;b.B.b 1\n")).build(),
                            HttpResponse.BodyHandlers.discarding());
                    http.send(HttpRequest.newBuilder(base.resolve("/api/recordings")).build(),
                            HttpResponse.BodyHandlers.discarding());
                    break;
                }
                Thread.sleep(50);
            }
            p.destroy(); // SIGTERM: the JVM exits normally and writes the archive
        } finally {
            if (!p.waitFor(STUCK_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }

    /** Waits until the server printed a line containing text (e.g. a crash point's announcement). */
    public void awaitOutput(String text, long millis) throws InterruptedException, TimeoutException {
        long end = System.currentTimeMillis() + millis;
        synchronized (log) {
            while (log.indexOf(text) < 0) {
                long left = end - System.currentTimeMillis();
                if (left <= 0 || !process.isAlive()) {
                    throw new TimeoutException("server did not print '" + text + "':\n" + log);
                }
                log.wait(Math.min(left, 200));
            }
        }
    }

    /** SIGKILL: no shutdown hook, no flush, exactly like a power cut for the process. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        kill();
    }
}
