package org.jfrworkbench.testkit.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code java -jar workbench.jar serve} as a child process ({@link ChildJvm} of this JVM's JDK), on a free port or a
 * given one; its output is kept in {@link #log}. Used by the integration tests and the torture suite.
 */
public final class ServerProcess implements AutoCloseable {
    private static final Pattern LISTENING = Pattern.compile("on http://[^:]+:(\\d+)/");
    public final Process process;
    public final String base;
    public final StringBuffer log = new StringBuffer();

    public ServerProcess(Path data, String... extra) throws Exception {
        this(data, List.of("-Xmx1g"), extra);
    }

    /** jvmOptions replace the default -Xmx1g (e.g. a tighter heap, a GC log, a crash-point property). */
    public ServerProcess(Path data, List<String> jvmOptions, String... extra) throws Exception {
        this(0, data, jvmOptions, extra);
    }

    /** A server on the given port (one that clients, e.g. an agent, already use), with the default -Xmx1g. */
    public static ServerProcess onPort(int port, Path data, String... extra) throws Exception {
        return new ServerProcess(port, data, List.of("-Xmx1g"), extra);
    }

    private ServerProcess(int listen, Path data, List<String> jvmOptions, String... extra) throws Exception {
        String jar = System.getProperty("workbench.jar", "target/workbench.jar");
        List<String> args = new ArrayList<>(jvmOptions);
        args.addAll(List.of("-jar", jar, "serve", "--port", Integer.toString(listen), "--data", data.toString()));
        args.addAll(List.of(extra));
        process = ChildJvm.current().launch(args, null);
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
        base = "http://127.0.0.1:" + port.get(60, TimeUnit.SECONDS);
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
