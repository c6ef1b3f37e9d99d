package org.jfrworkbench.testkit.agent;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.jfrworkbench.testkit.process.ChildJvm;

/** Reads the agent's chunk files with the JDK's own parser (not `jfr summary`, which mislabels jfrsync files). */
public final class AgentChunks {
    private AgentChunks() {
    }

    public static List<Path> chunks(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".jfr")).sorted().toList();
        }
    }

    public interface ChunkCheck {
        boolean enough(List<Path> chunks) throws Exception;
    }

    /**
     * Waits while a child JVM records into dir until its closed chunk files hold what a test needs (checked again each
     * time another chunk closes) and returns them; fails when the child exits first or is stuck.
     */
    public static List<Path> awaitChunks(Process child, Path log, Path dir, ChunkCheck check) throws Exception {
        List<Path> checked = List.of();
        for (long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(ChildJvm.STUCK_SECONDS); ; Thread.sleep(50)) {
            List<Path> closed = Files.isDirectory(dir) ? chunks(dir) : List.of();
            if (!closed.equals(checked)) {
                checked = closed;
                if (!closed.isEmpty() && check.enough(closed)) {
                    return closed;
                }
            }
            if (!child.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError((child.isAlive() ? "not within " + ChildJvm.STUCK_SECONDS + " s" : "child JVM exited")
                        + ": closed chunks " + checked + " hold " + counts(events(checked)) + "\n" + Files.readString(log));
            }
        }
    }

    /** The chunks in a JFR file, by walking the chunk headers (magic "FLR\0", then the chunk size at offset 8). */
    public static int chunkCount(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(bytes);
        int chunks = 0;
        for (long pos = 0; pos < bytes.length; chunks++) {
            if (pos + 16 > bytes.length || b.getInt((int) pos) != 0x464c5200) {
                throw new IOException(file + ": no chunk header at " + pos);
            }
            long size = b.getLong((int) pos + 8);
            if (size <= 16 || pos + size > bytes.length) {
                throw new IOException(file + ": chunk at " + pos + " claims " + size + " bytes");
            }
            pos += size;
        }
        return chunks;
    }

    public static List<RecordedEvent> events(Path file) throws IOException {
        return RecordingFile.readAllEvents(file);
    }

    public static List<RecordedEvent> events(List<Path> files) throws IOException {
        List<RecordedEvent> all = new ArrayList<>();
        for (Path f : files) {
            all.addAll(events(f));
        }
        return all;
    }

    public static Map<String, Integer> counts(List<RecordedEvent> events) {
        Map<String, Integer> counts = new TreeMap<>();
        for (RecordedEvent e : events) {
            counts.merge(e.getEventType().getName(), 1, Integer::sum);
        }
        return counts;
    }

    public static Map<String, String> labels(List<RecordedEvent> events) {
        Map<String, String> labels = new TreeMap<>();
        for (RecordedEvent e : events) {
            if (e.getEventType().getName().equals("workbench.Label")) {
                labels.put(e.getString("key"), e.getString("value"));
            }
        }
        return labels;
    }

    /** async-profiler's allocation interval in bytes as it states it (jdk.ActiveSetting "alloc"), -1 when absent. */
    public static long allocInterval(List<RecordedEvent> events) {
        String value = setting(events, "alloc");
        return value == null ? -1 : Long.parseLong(value.trim());
    }

    /** The value of the first jdk.ActiveSetting with this name (async-profiler states its options so), null when absent. */
    public static String setting(List<RecordedEvent> events, String name) {
        for (RecordedEvent e : events) {
            if (e.getEventType().getName().equals("jdk.ActiveSetting") && name.equals(e.getString("name"))) {
                return e.getString("value");
            }
        }
        return null;
    }

    /** CPU sample frames in native libraries (libjvm.so, libc.so.6, ...): async-profiler names their type after the library. */
    public static long nativeFrames(List<RecordedEvent> events) {
        return events.stream().filter(e -> e.getEventType().getName().equals("jdk.ExecutionSample") && e.getStackTrace() != null)
                .flatMap(e -> e.getStackTrace().getFrames().stream())
                .filter(f -> f.getMethod() != null && f.getMethod().getType() != null && f.getMethod().getType().getName().contains(".so"))
                .count();
    }

    /** GCs the agent's heap summaries stand for: one each, or their {@code collections} when it sampled fast GCs. */
    public static long summarizedGcs(List<RecordedEvent> events) {
        return events.stream().filter(e -> e.getEventType().getName().equals("workbench.HeapSummary"))
                .mapToLong(e -> e.getLong("collections")).sum();
    }

    public static int count(Map<String, Integer> counts, String... names) {
        int n = 0;
        for (String name : names) {
            n += counts.getOrDefault(name, 0);
        }
        return n;
    }
}
