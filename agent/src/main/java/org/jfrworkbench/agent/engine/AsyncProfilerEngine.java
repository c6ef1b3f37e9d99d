package org.jfrworkbench.agent.engine;

import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import one.profiler.AsyncProfiler;
import org.jfrworkbench.agent.AgentOptions;
import org.jfrworkbench.agent.Log;

/**
 * async-profiler for cpu, wall, alloc, live and lock, with the JDK's own JFR synced into the same file
 * ({@code jfrsync}) for GC, heap and our custom events.
 */
public final class AsyncProfilerEngine implements ProfilingEngine {
    /** perf_events first; the timer-based engines work where perf_event_open is not allowed (containers, paranoid level). */
    private static final List<String> CPU_EVENTS = List.of("cpu", "itimer", "ctimer");
    private static final int CTIMER = 2;

    private final AsyncProfiler profiler;
    private final AgentOptions options;
    private int cpuEvent;
    private Path current;
    /** Chooses the allocation interval per chunk when sampling aims at a rate; null for a fixed interval or none. */
    private final AllocationRate allocRate;
    private long allocInterval;

    private final Path jfc;

    private AsyncProfilerEngine(AsyncProfiler profiler, AgentOptions options, Path jfc) {
        this.profiler = profiler;
        this.options = options;
        this.jfc = jfc;
        this.cpuEvent = CPU_EVENTS.indexOf(options.cpuEngine().event);
        this.allocRate = options.allocPerSecond() > 0 ? new AllocationRate(options.allocPerSecond()) : null;
        this.allocInterval = options.allocBytes();
    }

    /** Loads the native library from the agent jar; throws (UnsatisfiedLinkError and the like) where it cannot load. */
    public static AsyncProfilerEngine load(AgentOptions options) throws Exception {
        AsyncProfiler profiler = AsyncProfiler.getInstance();
        Path jfc = Files.createTempFile("workbench-agent-", ".jfc");
        jfc.toFile().deleteOnExit();
        return new AsyncProfilerEngine(profiler, options, JfrSettings.writeJfc(JfrSettings.forJfrSync(), jfc));
    }

    @Override
    public void start(Path file) throws Exception {
        if (allocRate != null) {
            allocInterval = allocRate.nextInterval();
        }
        while (true) {
            String command = command(file, cpuEvent);
            try {
                profiler.execute(command);
                current = file;
                if (cpuEvent == 0 && options.cpuInterval() != null && !perfEventsOpen()) {
                    // async-profiler's "cpu" quietly switches to its ctimer (per-thread CPU-time timers) when the kernel
                    // refuses perf_event_open; say so, and ask for ctimer by name from the next chunk on
                    Log.info("perf_events unavailable (perf_event_open refused), falling back to 'ctimer' for cpu samples");
                    cpuEvent = CTIMER;
                }
                return;
            } catch (IllegalStateException | java.io.IOException e) {
                // "Perf events unavailable" and the like: retry with the next CPU engine, keep it for later chunks
                if (options.cpuInterval() == null || cpuEvent + 1 >= CPU_EVENTS.size()) {
                    throw e;
                }
                Log.failureOnce("cpu-" + CPU_EVENTS.get(cpuEvent), "cpu sampling with '" + CPU_EVENTS.get(cpuEvent)
                        + "' failed, falling back to '" + CPU_EVENTS.get(cpuEvent + 1) + "'", e);
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
            sb.append(",event=").append(CPU_EVENTS.get(cpuIndex)).append(",interval=").append(options.cpuInterval().toNanos());
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
        return sb.append(",jfr,jfrsync=" + jfc.toAbsolutePath() + ",file=").append(file.toAbsolutePath()).toString();
    }

    @Override
    public void stop() throws Exception {
        Path file = current;
        current = null;
        try {
            profiler.execute("stop");
        } catch (IllegalStateException e) {
            // at JVM exit the JDK's shutdown hook stops the synced recording, and async-profiler stops with it
            if (file == null || !ChunkFiles.isComplete(file)) {
                throw e;
            }
        }
        // jfrsync finishes the JDK recording's chunk as part of stop; wait briefly in case the file is still settling
        for (int i = 0; file != null && i < 50 && !ChunkFiles.isComplete(file); i++) {
            Thread.sleep(20);
        }
    }

    @Override
    public String describe() {
        return "async-profiler " + profiler.getVersion() + " (cpu=" + (options.cpuInterval() == null ? "off" : CPU_EVENTS.get(cpuEvent))
                + ", alloc=" + (allocInterval == 0 ? "off" : (allocInterval / 1024) + "k"
                        + (allocRate == null ? "" : " for " + options.allocPerSecond() + "/s")) + ", with JDK JFR synced)";
    }
}
