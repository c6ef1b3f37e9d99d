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

/** {@code java -jar workbench.jar serve} as a child process on a free port; also used by the torture suite. */
public final class ServerProcess implements AutoCloseable {
    /** A deadline only a stuck server reaches: on a loaded machine a JVM's start alone can take tens of seconds. */
    public static final long STUCK_SECONDS = 300;
    private static final Pattern LISTENING = Pattern.compile("on http://[^:]+:(\\d+)/");
    public final Process process;
    public final String base;
    public final StringBuffer log = new StringBuffer();

    public ServerProcess(Path data, String... extra) throws Exception {
        this(data, List.of("-Xmx1g"), extra);
    }

    /** jvmOptions replace the default -Xmx1g (e.g. a tighter heap, a GC log, a crash-point property). */
    public ServerProcess(Path data, List<String> jvmOptions, String... extra) throws Exception {
        String jar = System.getProperty("workbench.jar", "target/workbench.jar");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED"));
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
