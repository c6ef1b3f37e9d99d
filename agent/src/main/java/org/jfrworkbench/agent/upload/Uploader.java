package org.jfrworkbench.agent.upload;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jfrworkbench.agent.Log;

/**
 * Posts closed chunks from the spool to the workbench server ({@code POST /api/recordings?name=..&labels=..&run=..
 * &chunk=..&runStart=..[&last=true]}, raw body) on one daemon thread, oldest first, deleting each once the server
 * answered 200 or 201: every chunk of a process is a part of one run, one recording ({@link RunParts}). Failures back
 * off exponentially (1 s doubling to 60 s); chunks wait on disk meanwhile. A part the server holds with other bytes
 * (409) can never be taken: it is dropped with a log line.
 */
public final class Uploader implements Runnable {
    private static final long MIN_BACKOFF_MS = 1000;
    private static final long MAX_BACKOFF_MS = 60_000;

    private final Spool spool;
    private final URI server;
    private final String token;
    private final String labels;
    private final Object wake = new Object();
    private volatile boolean running = true;
    private volatile Thread thread;
    private long delivered;
    /**
     * Per run key, the continuation its parts go to now: the server bounds a run's size (413), and a run that outgrew
     * it goes on as {@code KEY.2}, {@code KEY.3}, … (the same parts' numbers and start). Only this thread uses it.
     */
    private final Map<String, Integer> continuations = new HashMap<>();

    public Uploader(Spool spool, URI server, String token, Map<String, String> labels) {
        this.spool = spool;
        this.server = server;
        this.token = token;
        this.labels = labels.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(","));
    }

    public void start() {
        Thread t = new Thread(this, "workbench-agent-upload");
        t.setDaemon(true);
        t.setPriority(Thread.MIN_PRIORITY);
        thread = t;
        t.start();
    }

    /** Tells the thread that a chunk was closed. */
    public void chunkClosed() {
        synchronized (wake) {
            wake.notifyAll();
        }
    }

    /** At shutdown: give pending uploads up to {@code millis} and stop; whatever is left stays spooled for the next start. */
    public void drainAndStop(long millis) {
        long deadline = System.currentTimeMillis() + millis;
        chunkClosed();
        while (System.currentTimeMillis() < deadline && !spool.files().isEmpty()) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        running = false;
        chunkClosed();
    }

    @Override
    public void run() {
        long backoff = MIN_BACKOFF_MS;
        while (running) {
            try {
                List<Path> files = spool.files();
                if (files.isEmpty()) {
                    waitFor(MAX_BACKOFF_MS);
                    continue;
                }
                Path file = files.get(0);
                if (post(file)) {
                    Files.deleteIfExists(file);
                    delivered++;
                    backoff = MIN_BACKOFF_MS;
                } else {
                    waitFor(backoff);
                    backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
                }
            } catch (Throwable t) {
                Log.failureOnce("upload-loop", "upload thread error", t);
                waitFor(backoff);
                backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
            }
        }
    }

    private void waitFor(long millis) {
        synchronized (wake) {
            try {
                if (running) {
                    wake.wait(millis);
                }
            } catch (InterruptedException e) {
                running = false;
            }
        }
    }

    /** True when the server took the chunk (or the chunk vanished, dropped by the spool bound). */
    boolean post(Path file) {
        String name = file.getFileName().toString();
        RunParts.Part part = RunParts.parse(name);
        HttpURLConnection conn = null;
        try {
            long size = Files.size(file);
            String query = "name=" + URLEncoder.encode(part == null ? name : part.stem() + Spool.SUFFIX, StandardCharsets.UTF_8)
                    + (labels.isEmpty() ? "" : "&labels=" + URLEncoder.encode(labels, StandardCharsets.UTF_8));
            int continuation = part == null ? 1 : continuations.getOrDefault(part.runKey(), 1);
            if (part != null) {
                String run = continuation == 1 ? part.runKey() : part.runKey() + "." + continuation;
                query += "&run=" + URLEncoder.encode(run, StandardCharsets.UTF_8)
                        + (part.endOnly() ? "" : "&chunk=" + part.part()) + "&runStart=" + part.runStartMillis()
                        + (part.last() ? "&last=true" : "");
            }
            conn = (HttpURLConnection) server.resolve("/api/recordings?" + query).toURL().openConnection();
            conn.setRequestMethod("POST");
            conn.setDoOutput(true);
            conn.setConnectTimeout(5000);
            conn.setReadTimeout(60_000);
            conn.setFixedLengthStreamingMode(size);
            conn.setRequestProperty("Content-Type", "application/octet-stream");
            if (token != null) {
                conn.setRequestProperty("Authorization", "Bearer " + token);
            }
            try (OutputStream out = conn.getOutputStream(); InputStream in = Files.newInputStream(file)) {
                in.transferTo(out);
            }
            int status = conn.getResponseCode();
            String answer = drain(conn);
            if (status == 200 || status == 201) {
                return true;
            }
            if (status == 404 && part != null && part.endOnly()) {
                return true; // the run's end, but the server holds none of its parts: nothing to mark
            }
            if (status == 413 && part != null) {
                if (!answer.contains("would hold")) {
                    // not the run but the chunk itself is larger than the server takes: sending it again cannot help
                    Log.failureOnce("upload-too-large", "server refuses " + name + " as too large (" + answer + "); dropped", null);
                    return true;
                }
                // the run is as large as the server takes: the next parts start its continuation
                continuations.put(part.runKey(), continuation + 1);
                Log.info("run " + part.runKey() + " reached the server's size limit; its next parts go to run "
                        + part.runKey() + "." + (continuation + 1));
                return false;
            }
            if (status == 409) {
                Log.failureOnce("upload-conflict", "server holds part " + (part == null ? "?" : part.part()) + " of run "
                        + (part == null ? "?" : part.runKey()) + " with other bytes; " + name + " dropped", null);
                return true;
            }
            Log.failureOnce("upload-status-" + status, "server answered " + status + " to an upload of " + name + "; will retry", null);
            return false;
        } catch (NoSuchFileException e) {
            return true;
        } catch (IOException e) {
            Log.failureOnce("upload-io", "cannot reach " + server + " (chunks stay spooled in " + spool.dir() + ")", e);
            return false;
        } finally {
            if (conn != null) {
                conn.disconnect();
            }
        }
    }

    /** Reads the answer to its end (so the connection can be reused); returns its first 4 KB as text. */
    private static String drain(HttpURLConnection conn) {
        try (InputStream in = conn.getResponseCode() >= 400 ? conn.getErrorStream() : conn.getInputStream()) {
            if (in == null) {
                return "";
            }
            byte[] head = in.readNBytes(4096);
            in.transferTo(OutputStream.nullOutputStream());
            return new String(head, StandardCharsets.UTF_8);
        } catch (IOException ignored) {
            return ""; // the status is what counts
        }
    }

    public long deliveredCount() {
        return delivered;
    }
}
