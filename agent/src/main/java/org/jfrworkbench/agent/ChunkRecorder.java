package org.jfrworkbench.agent;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.jfrworkbench.agent.engine.AsyncProfilerEngine;
import org.jfrworkbench.agent.engine.ChunkFiles;
import org.jfrworkbench.agent.engine.JfrEngine;
import org.jfrworkbench.agent.engine.ProfilingEngine;
import org.jfrworkbench.agent.events.HeapMonitor;
import org.jfrworkbench.agent.events.LabelEvent;
import org.jfrworkbench.agent.events.RotationEvent;
import org.jfrworkbench.agent.events.NativeMemoryMonitor;
import org.jfrworkbench.agent.upload.RunParts;
import org.jfrworkbench.agent.upload.Spool;
import org.jfrworkbench.agent.upload.Uploader;

/**
 * The running agent: one engine writing one chunk file per interval into the directory, closed files renamed
 * from {@code .jfr.part} to {@code .jfr} (so readers and the uploader only see complete files), labels at the start
 * of every chunk, heap and native-memory events in between. All work happens on one daemon thread.
 */
final class ChunkRecorder {
    private static final long MAX_GC_WAIT_MILLIS = 5000;
    /** With a target allocation rate the first chunk is short: its second half measures the rate the next chunk samples at. */
    private static final long FIRST_ADAPTIVE_CHUNK_MILLIS = 10_000;

    private final AgentOptions options;
    private final Map<String, String> labels;
    /**
     * The service label made safe for a file name, once: a rotation runs no regex or String.format, whose JDK code the
     * application may use in its hot paths (new receiver types there would deoptimize the application's compiled code).
     */
    private final String filePrefix;
    private final Spool spool;
    private final ScheduledExecutorService scheduler;
    private final HeapMonitor heapMonitor;
    /** heap-count=auto's; null otherwise. */
    private final HeapCounter heapCounter;
    /** Volatile: the heap count switches its recording from the GC notifications' thread. */
    private volatile ProfilingEngine engine;
    private Uploader uploader;
    private Path current;
    private int sequence;
    private boolean stopped;
    /** Whether the chunk published last told the server the run ended (at exit). */
    private volatile boolean endPublished;
    /** This process's run (see RunParts) and where its time starts: the JVM's start. */
    private final String runKey;
    private final long runStartMillis;
    /** The next chunk's part number in the run: kept by the class, so a stop and a new start in this process go on counting. */
    private static final AtomicInteger NEXT_PART = new AtomicInteger();
    /** Not a monitor: the shutdown hook must be able to give up waiting for a rotation stuck inside the JVM. */
    private final ReentrantLock lock = new ReentrantLock();
    /** The engine to record with instead of choosing one at start; null outside tests of the recorder's own failure handling. */
    private final ProfilingEngine givenEngine;

    ChunkRecorder(AgentOptions options) {
        this(options, null);
    }

    /**
     * With {@code given} null the recorder chooses its engine at start (async-profiler where it loads). Not named
     * {@code engine}: the heap count's switch below reads the field of that name.
     */
    ChunkRecorder(AgentOptions options, ProfilingEngine given) {
        this.options = options;
        this.givenEngine = given;
        this.labels = labels(options);
        this.filePrefix = fileNamePart(labels.getOrDefault("service", "app")) + "-";
        this.runStartMillis = ManagementFactory.getRuntimeMXBean().getStartTime();
        this.runKey = RunParts.runKey(labels.get("host"), ProcessHandle.current().pid(), runStartMillis);
        this.spool = new Spool(options.dir(), options.spoolMaxBytes());
        this.heapMonitor = new HeapMonitor(options.heapSummariesPerSecond());
        this.heapCounter = options.heapCount() == AgentOptions.HeapCount.AUTO ? new HeapCounter(options.heapCountMaxBytes(), on -> {
            ProfilingEngine e = engine;
            if (e != null) {
                e.heapCount(on);
            }
        }) : null;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "workbench-agent-recorder");
            t.setDaemon(true);
            return t;
        });
    }

    private static Map<String, String> labels(AgentOptions options) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("host", hostName());
        labels.put("pid", String.valueOf(ProcessHandle.current().pid()));
        labels.put("jvm", System.getProperty("java.specification.version", "?"));
        labels.putAll(options.labels());
        return labels;
    }

    /** Letters, digits, '.', '_' and '-' stay; anything else becomes '_'. */
    static String fileNamePart(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean keep = c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-';
            sb.append(keep ? c : '_');
        }
        return sb.toString();
    }

    private static String hostName() {
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) {
            return env;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            return "unknown";
        }
    }

    void start() throws Exception {
        Files.createDirectories(options.dir());
        engine = givenEngine != null ? givenEngine : chooseEngine();
        if (options.heapSummariesPerSecond() > 0) {
            heapMonitor.start();
        }
        if (heapCounter != null && !heapCounter.applies()) {
            Log.info("heap-count=auto counts nothing here: " + heapCounter.whyNot());
        } else if (heapCounter != null) {
            heapCounter.start();
        }
        startChunk();
        Log.info("recording with " + engine.describe() + " into " + options.dir() + ", a chunk every "
                + options.interval().toSeconds() + " s" + (options.upload() == null ? "" : ", uploading to " + options.upload()));
        long every = options.interval().toMillis();
        long first = options.allocPerSecond() > 0 && engine instanceof AsyncProfilerEngine
                ? Math.min(every, FIRST_ADAPTIVE_CHUNK_MILLIS) : every;
        scheduler.schedule(() -> {
            rotateSafely();
            if (!scheduler.isShutdown()) {
                scheduler.scheduleAtFixedRate(this::rotateSafely, every, every, TimeUnit.MILLISECONDS);
            }
        }, first, TimeUnit.MILLISECONDS);
        // halfway through every chunk, on the same clock as the rotations
        scheduler.schedule(this::halfwaySafely, first / 2, TimeUnit.MILLISECONDS);
        scheduler.scheduleAtFixedRate(this::halfwaySafely, first + every / 2, every, TimeUnit.MILLISECONDS);
        if (NativeMemoryMonitor.isTrackingOn()) {
            NativeMemoryMonitor nmt = new NativeMemoryMonitor();
            long nmtEvery = options.nmtInterval().toMillis();
            scheduler.scheduleWithFixedDelay(nmt::record, 0, nmtEvery, TimeUnit.MILLISECONDS);
        }
        if (options.upload() != null) {
            uploader = new Uploader(spool, options.upload(), options.token(), labels);
            uploader.start();
        }
    }

    private ProfilingEngine chooseEngine() throws Exception {
        if (!options.samplesAnything()) {
            // async-profiler given no event samples cpu by default: the JDK recorder alone writes the GC and heap events
            Log.info("every sampler is off: the JDK recorder alone records GC and heap events (async-profiler is not started)");
            return new JfrEngine(options);
        }
        if (options.engine() != AgentOptions.Engine.JFR) {
            try {
                return AsyncProfilerEngine.load(options);
            } catch (Throwable t) {
                if (options.engine() == AgentOptions.Engine.ASYNC) {
                    throw new IllegalStateException("async-profiler cannot load on " + System.getProperty("os.name") + "/"
                            + System.getProperty("os.arch") + ": " + t);
                }
                Log.failureOnce("async-load", "async-profiler cannot load here, using JDK Flight Recorder", t);
            }
        }
        return new JfrEngine(options);
    }

    /**
     * {@code yyyyMMdd'T'HHmmss.SSS'Z'} in UTC, built by hand for the same reason as {@link #filePrefix}: an application
     * formatting dates in its hot paths runs the JDK's formatter code, and a rotation should not feed it new types.
     */
    static String stamp(long epochMillis) {
        LocalDateTime t = LocalDateTime.ofEpochSecond(Math.floorDiv(epochMillis, 1000), 0, ZoneOffset.UTC);
        StringBuilder b = new StringBuilder(20);
        pad(b, t.getYear(), 4);
        pad(b, t.getMonthValue(), 2);
        pad(b, t.getDayOfMonth(), 2);
        b.append('T');
        pad(b, t.getHour(), 2);
        pad(b, t.getMinute(), 2);
        pad(b, t.getSecond(), 2);
        b.append('.');
        pad(b, (int) Math.floorMod(epochMillis, 1000), 3);
        return b.append('Z').toString();
    }

    private static void pad(StringBuilder b, int value, int width) {
        String digits = Integer.toString(value);
        for (int i = digits.length(); i < width; i++) {
            b.append('0');
        }
        b.append(digits);
    }

    /** Opens the next chunk file; does nothing once the JVM is exiting (see {@link ExitGuard}). */
    private void startChunk() throws Exception {
        StringBuilder name = new StringBuilder(filePrefix).append(stamp(System.currentTimeMillis()))
                .append('-').append(labels.get("pid")).append('-');
        pad(name, ++sequence, 4);
        current = options.dir().resolve(name.append(Spool.SUFFIX).append(".part").toString());
        Path file = current;
        boolean started;
        try {
            started = ExitGuard.runUnlessExiting(() -> {
                engine.start(file);
                armHeapCount();
            });
        } catch (Exception e) {
            if (!(engine instanceof AsyncProfilerEngine) || options.engine() == AgentOptions.Engine.ASYNC) {
                throw e;
            }
            // the native engine loaded but cannot start: fall back for good
            Log.failureOnce("async-start", "async-profiler could not start, using JDK Flight Recorder", e);
            engine = new JfrEngine(options);
            started = ExitGuard.runUnlessExiting(() -> {
                engine.start(file);
                armHeapCount();
            });
        }
        if (!started) {
            current = null;
            return;
        }
        for (Map.Entry<String, String> label : labels.entrySet()) {
            LabelEvent event = new LabelEvent();
            event.key = label.getKey();
            event.value = label.getValue();
            event.commit();
        }
    }

    /** Inside the exit guard (it switches the new recording's settings); a failure leaves the chunk without a count, nothing else. */
    private void armHeapCount() {
        if (heapCounter == null) {
            return;
        }
        try {
            heapCounter.chunkStarted();
        } catch (Throwable t) {
            Log.failureOnce("heap-count-arm", "could not arm the heap count; chunks go on without it", t);
        }
    }

    /**
     * async-profiler reports a live object when its weak reference is not cleared at stop, so everything allocated since
     * the last GC (mostly garbage) would count as live in the chunk's live samples. Stopping right after a GC keeps
     * that to the few milliseconds between the GC's end and the stop. A collection it must be: after G1's Remark or
     * Cleanup pause nothing allocated since the last young GC is collected yet. Bounded, so a JVM that rarely collects
     * still rotates.
     */
    private void awaitGcBeforeLiveDump() {
        if (!options.live() || !(engine instanceof AsyncProfilerEngine)) {
            return;
        }
        long started = System.nanoTime();
        HeapMonitor.Collection collection = null;
        try {
            collection = heapMonitor.awaitNextGc(Math.min(MAX_GC_WAIT_MILLIS, options.interval().toMillis() / 10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // into the chunk about to close: whether its live samples come right after a collection, and which
        RotationEvent event = new RotationEvent();
        event.waitedMillis = (System.nanoTime() - started) / 1_000_000;
        event.gcName = collection == null ? "" : collection.gcName();
        event.gcId = collection == null ? -1 : collection.gcId();
        event.commit();
    }

    private void halfwaySafely() {
        lock.lock();
        try {
            if (!stopped && current != null) {
                engine.halfway();
            }
        } catch (Throwable t) {
            Log.failureOnce("halfway", "could not measure the allocation rate; the next chunk keeps its interval", t);
        } finally {
            lock.unlock();
        }
    }

    /** Closes the current chunk and opens the next. */
    private void rotateSafely() {
        awaitGcBeforeLiveDump();
        lock.lock();
        try {
            if (stopped) {
                return;
            }
            closeChunk(); // the JDK recorder calls the heap monitor's flush as the recording stops
            startChunk();
        } catch (Throwable t) {
            Log.failureOnce("rotate", "could not rotate the recording; recording stops", t);
            stopped = true;
            scheduler.shutdown();
        } finally {
            lock.unlock();
        }
    }

    private void closeChunk() throws Exception {
        closeChunk(false);
    }

    /**
     * Stops the engine and publishes the chunk, or drops it when the engine left it incomplete. Whatever the engine or
     * the file system throws, the spool's bound is enforced and the uploader told, and then the failure is rethrown.
     */
    private void closeChunk(boolean last) throws Exception {
        Path part = current;
        if (part == null) {
            return; // no chunk open: the JVM began exiting before it could start
        }
        current = null;
        try {
            engine.stop();
        } finally {
            try {
                publish(part, last);
            } finally {
                spool.enforceBound();
                if (uploader != null) {
                    uploader.chunkClosed();
                }
            }
        }
    }

    /**
     * Renames a complete chunk to .jfr with its run and part number (now readers and the uploader see it). An
     * incomplete one (the engine failed to stop, or the JVM's exit raced it) can never be read: it is deleted with a
     * log line and takes no part number, so the parts of a run are numbered without gaps and no half-written file
     * stays outside the spool's bound.
     */
    private void publish(Path part, boolean last) throws Exception {
        if (!ChunkFiles.isComplete(part)) {
            Files.deleteIfExists(part);
            Log.failureOnce("incomplete-" + part.getFileName(), "chunk " + part.getFileName() + " is incomplete; dropped", null);
        } else {
            String name = part.getFileName().toString();
            String stem = name.substring(0, name.length() - (Spool.SUFFIX + ".part").length());
            Files.move(part, part.resolveSibling(RunParts.fileName(stem, runKey, runStartMillis, NEXT_PART.getAndIncrement(), last)),
                    StandardCopyOption.ATOMIC_MOVE);
            endPublished = last;
        }
    }

    /**
     * At exit, when no chunk said the run ended (the JVM exited while a rotation closed its chunk, or its last chunk
     * was incomplete) and chunks are uploaded: an empty file in the spool that says it, named to come after every
     * chunk of this process.
     */
    private void publishRunEnd() {
        if (endPublished || uploader == null) {
            return; // without an uploader nobody reads it, and the directory holds chunk files only
        }
        try {
            StringBuilder stem = new StringBuilder(filePrefix).append(stamp(System.currentTimeMillis()))
                    .append('-').append(labels.get("pid")).append('-');
            pad(stem, ++sequence, 4);
            Files.createFile(options.dir().resolve(RunParts.endFileName(stem.toString(), runKey, runStartMillis)));
            endPublished = true;
        } catch (Throwable t) {
            Log.failureOnce("run-end", "could not mark the run ended; the server shows it as still growing", t);
        }
    }

    /**
     * At exit the JDK's own shutdown hook stops every JDK recording (and writes it to its file); stopping ours at the
     * same moment races with that write, so let it finish first (bounded).
     */
    private static void awaitJdkRecorderShutdown() {
        long deadline = System.nanoTime() + 2_000_000_000L;
        try {
            while (System.nanoTime() < deadline && jdk.jfr.FlightRecorder.isInitialized()
                    && jdk.jfr.FlightRecorder.getFlightRecorder().getRecordings().stream()
                            .anyMatch(r -> r.getState() == jdk.jfr.RecordingState.RUNNING)) {
                Thread.sleep(10);
            }
        } catch (Throwable t) {
            Log.failureOnce("await-jfr", "could not check the JDK recorder at exit", t);
        }
    }

    /** Closes the last chunk (shutdown hook or {@code stop} via attach) and gives the uploader a moment. */
    void stop(long uploadGraceMillis, boolean atExit) {
        if (atExit && ExitGuard.waitingThreads() > 0) {
            // a rotation waits for exit to finish; it will not start a chunk, and nothing is open
            Log.info("exiting during a chunk rotation; the last chunk was closed by it");
            publishRunEnd();
            drainUploads(uploadGraceMillis);
            return;
        }
        if (atExit) {
            awaitJdkRecorderShutdown();
        }
        try {
            if (!lock.tryLock(5, TimeUnit.SECONDS)) {
                Log.failureOnce("stop", "a chunk rotation did not finish; the last chunk stays unfinished", null);
                if (atExit) {
                    publishRunEnd();
                }
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        try {
            if (stopped) {
                return;
            }
            stopped = true;
            scheduler.shutdownNow();
            try {
                closeChunk(atExit);
            } finally {
                heapMonitor.stop();
                if (heapCounter != null) {
                    heapCounter.stop();
                }
            }
        } catch (Throwable t) {
            Log.failureOnce("stop", "could not close the last chunk", t);
        } finally {
            lock.unlock();
        }
        if (atExit) {
            publishRunEnd(); // when the last chunk could not say it
        }
        drainUploads(uploadGraceMillis);
    }

    private void drainUploads(long graceMillis) {
        if (uploader != null) {
            uploader.drainAndStop(graceMillis);
        }
    }
}
