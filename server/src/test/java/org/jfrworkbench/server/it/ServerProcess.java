package org.jfrworkbench.server.it;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code java -jar workbench.jar serve} as a child process on a free port. */
final class ServerProcess implements AutoCloseable {
    private static final Pattern LISTENING = Pattern.compile("on http://[^:]+:(\\d+)/");
    final Process process;
    final String base;
    final StringBuffer log = new StringBuffer();

    ServerProcess(Path data, String... extra) throws Exception {
        String jar = System.getProperty("workbench.jar", "target/workbench.jar");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new java.util.ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "-Xmx1g",
                "-jar", jar, "serve", "--port", "0", "--data", data.toString()));
        cmd.addAll(List.of(extra));
        process = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        CompletableFuture<String> port = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    log.append(line).append('\n');
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

    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        kill();
    }
}
