package org.jfrworkbench.agent.engine;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;
import one.profiler.AsyncProfiler;
import org.jfrworkbench.agent.AgentOptions;
import org.jfrworkbench.agent.Log;

/**
 * async-profiler for cpu, wall, alloc, live and lock, with a JDK JFR recording beside it for GC, heap and our custom
 * events; at the end of each chunk the JDK recording's chunk is appended to async-profiler's, so one file holds both
 * (what async-profiler's own {@code jfrsync} produces).
 *
 * <p>The JDK recording is kept in memory ({@code disk=false}), not in the JDK's disk repository as {@code jfrsync}
 * keeps it: it needs no repository on disk, and the JDK recorder does no periodic work for it (a disk recording flushes
 * every thread's event buffers once a second for streaming readers, which the agent has none of). The JDK's in-memory buffers
 * are bounded (10 MB by default, oldest data given up first), ample for the few GC and heap events a chunk interval holds.
 */
public final class AsyncProfilerEngine implements ProfilingEngine {
    private static final String JDK_PART = ".jdk";

    private final AsyncProfiler profiler;
    private final AgentOptions options;
    private final Map<String, String> jdkSettings;
    /** The CPU events to try in turn (see {@link AgentOptions#cpuEvents()}); the one in use is {@code cpuEvents.get(cpuEvent)}. */
    private final List<String> cpuEvents;
    private int cpuEvent;
    private Path current;
    /** The chunk's JDK recording; volatile: the heap count switches it from the GC notifications' thread. */
    private volatile Recording jdk;
    /** Chooses the allocation interval per chunk when sampling aims at a rate; null for a fixed interval or none. */
    private final AllocationRate allocRate;
    private long allocInterval;

    private AsyncProfilerEngine(AsyncProfiler profiler, AgentOptions options, Map<String, String> jdkSettings) {
        this.profiler = profiler;
        this.options = options;
        this.jdkSettings = jdkSettings;
        this.cpuEvents = options.cpuEvents();
        this.allocRate = options.allocPerSecond() > 0 ? new AllocationRate(options.allocPerSecond()) : null;
        this.allocInterval = options.allocBytes();
    }

    /** Loads the native library from the agent jar; throws (UnsatisfiedLinkError and the like) where it cannot load. */
    public static AsyncProfilerEngine load(AgentOptions options) throws Exception {
        return new AsyncProfilerEngine(AsyncProfiler.getInstance(), options, JfrSettings.besideAsyncProfiler(options));
    }

    @Override
    public void halfway() {
        if (allocRate != null) {
            allocRate.mark();
        }
    }

    @Override
    public void start(Path file) throws Exception {
        if (allocRate != null) {
            allocInterval = allocRate.nextInterval();
        }
        // the JDK recording first, so that it holds the labels written right after start and the profiler's whole span
        Recording r = new Recording(jdkSettings);
        r.setName("workbench-agent");
        r.setToDisk(false);
        r.setDestination(jdkPart(file));
        r.start();
        jdk = r;
        try {
            startProfiler(file);
        } catch (Exception | Error e) {
            jdk = null;
            try {
                r.close(); // stops it (which writes its destination): nothing of it is wanted
                Files.deleteIfExists(jdkPart(file));
            } catch (Exception suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    private static Path jdkPart(Path file) {
        return file.resolveSibling(file.getFileName() + JDK_PART);
    }

    private void startProfiler(Path file) throws Exception {
        while (true) {
            String command = command(file, cpuEvent);
            try {
                profiler.execute(command);
                current = file;
                if (cpuEvents.get(cpuEvent).equals("cpu") && options.cpuInterval() != null && !perfEventsOpen()) {
                    // async-profiler's "cpu" quietly switches to its ctimer (per-thread CPU-time timers) when the kernel
                    // refuses perf_event_open; say so, and ask for ctimer by name from the next chunk on
                    Log.info("perf_events unavailable (perf_event_open refused), falling back to 'ctimer' for cpu samples");
                    cpuEvent = cpuEvents.indexOf("ctimer");
                }
                return;
            } catch (IllegalStateException | java.io.IOException e) {
                // "Perf events unavailable" and the like: retry with the next CPU engine, keep it for later chunks
                if (options.cpuInterval() == null || cpuEvent + 1 >= cpuEvents.size()) {
                    throw e;
                }
                Log.failureOnce("cpu-" + cpuEvents.get(cpuEvent), "cpu sampling with '" + cpuEvents.get(cpuEvent)
                        + "' failed, falling back to '" + cpuEvents.get(cpuEvent + 1) + "'", e);
                cpuEvent++;
            }
        }
    }

    /** perf_events leave one {@code anon_inode:[perf_event]} descriptor per profiled thread. */
    static boolean perfEventsOpen() {
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
            for (Path fd : fds) {
                try {
                    if (Files.readSymbolicLink(fd).toString().contains("perf_event")) {
                        return true;
                    }
                } catch (java.io.IOException | UnsupportedOperationException e) {
                    // closed in the meantime, or not a link
                }
            }
            return false;
        } catch (java.io.IOException e) {
            return true; // no /proc to look at: take async-profiler's word
        }
    }

    String command(Path file, int cpuIndex) {
        StringBuilder sb = new StringBuilder("start");
        if (options.cpuInterval() != null) {
            sb.append(",event=").append(cpuEvents.get(cpuIndex)).append(",interval=").append(options.cpuInterval().toNanos());
        }
        if (options.wallInterval() != null) {
            sb.append(",wall=").append(options.wallInterval().toNanos());
        }
        if (allocInterval > 0) {
            sb.append(",alloc=").append(allocInterval);
        }
        if (options.live()) {
            sb.append(",live");
        }
        if (options.lockThreshold() != null) {
            sb.append(",lock=").append(options.lockThreshold().toNanos());
        }
        return sb.append(",cstack=").append(options.cstack()).append(",jfr,file=").append(file.toAbsolutePath()).toString();
    }

    @Override
    public void stop() throws Exception {
        Path file = current;
        Recording r = jdk;
        current = null;
        jdk = null;
        Exception failure = null;
        try {
            profiler.execute("stop");
        } catch (IllegalStateException e) {
            // not running: it never started this chunk, or it stopped at JVM exit already and wrote its file
            if (file == null || !ChunkFiles.isComplete(file)) {
                failure = e;
            }
        }
        if (r != null) {
            try {
                // at JVM exit the JDK's own shutdown hook may have stopped (and written) it already
                if (r.getState() == RecordingState.RUNNING) {
                    r.stop(); // writes the destination
                }
            } finally {
                r.close();
            }
        }
        if (failure != null) {
            throw failure;
        }
        if (file != null) {
            appendJdkChunk(file);
        }
    }

    /** Appends the JDK recording's chunk to async-profiler's file (a JFR file is a sequence of chunks) and removes it. */
    private static void appendJdkChunk(Path file) throws IOException {
        Path part = jdkPart(file);
        if (!Files.exists(part)) {
            Log.failureOnce("jdk-chunk", "the JDK recording wrote no file; chunks hold async-profiler's events only", null);
            return;
        }
        try {
            if (!ChunkFiles.isComplete(part)) {
                Log.failureOnce("jdk-chunk-incomplete", "the JDK recording's file " + part.getFileName() + " is incomplete; left out", null);
                return;
            }
            try (FileChannel in = FileChannel.open(part, StandardOpenOption.READ);
                 FileChannel out = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
                long size = in.size();
                for (long done = 0; done < size; ) {
                    done += in.transferTo(done, size - done, out);
                }
            }
        } finally {
            Files.deleteIfExists(part);
        }
    }

    @Override
    public void heapCount(boolean on) {
        JfrSettings.heapCount(jdk, on);
    }

    @Override
    public String describe() {
        return "async-profiler " + profiler.getVersion() + " (cpu=" + (options.cpuInterval() == null ? "off" : cpuEvents.get(cpuEvent))
                + ", alloc=" + (allocInterval == 0 ? "off" : (allocInterval / 1024) + "k"
                        + (allocRate == null ? "" : " for " + options.allocPerSecond() + "/s")) + ", with a JDK recording for GC and heap events)";
    }
}
