package org.jfrworkbench.importer.jfr;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.jfrworkbench.model.GcEvent;
import org.jfrworkbench.model.HeapSample;
import org.jfrworkbench.model.JavaVersion;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.Sources;

/** What spans chunks while a file is read: the profile, the chunk number, settings, facts and agent heap events. */
final class ProfileBuilder {
    private final Profile profile;
    private int chunkNumber;
    private long allocationInterval = -1;
    private String producer;
    private boolean asyncProfilerWallMode;
    /** The Java version properties, first value of each: the Java version is derived from them at the end. */
    private final java.util.Map<String, String> javaProperties = new java.util.HashMap<>();
    private final List<GcEvent> agentGcs = new ArrayList<>();
    private final LiveBuffer live = new LiveBuffer();

    private final StackTraces stackTraces = new StackTraces();
    private final PoolHistory poolHistory = new PoolHistory();
    private final NativeLeaks nativeLeaks = new NativeLeaks();
    private final GcJoiner gcJoiner = new GcJoiner();
    private final ChunkResolver resolver;

    /** The key-to-model-id caches, reset by each chunk. */
    ChunkResolver resolver() {
        return resolver;
    }

    /** One stack-trace pool, emptied and refilled by each chunk, so its arrays are allocated once per file. */
    StackTraces stackTraces() {
        return stackTraces;
    }

    /** GC parts by gcId, joined across a chunk boundary. */
    GcJoiner gcJoiner() {
        return gcJoiner;
    }

    /** Mallocs and frees of every chunk, matched by address once the file is read. */
    NativeLeaks nativeLeaks() {
        return nativeLeaks;
    }

    /** The constant-pool entries of earlier chunks, to tell whether their key caches hold for the next one. */
    PoolHistory poolHistory() {
        return poolHistory;
    }

    /** The pools of the last chunk whose pools were read completely, to be continued by the next chunk. */
    private ConstantPools pools;

    /** Hands out the kept pools once; a chunk that fails while reading its pools thus leaves none behind. */
    ConstantPools takePools() {
        ConstantPools p = pools;
        pools = null;
        return p;
    }

    void keepPools(ConstantPools p) {
        pools = p;
    }

    /** The pools of the last chunk whose pools were read, continued or not: a chunk read afresh reuses their arrays. */
    private ConstantPools lastPools;

    ConstantPools lastPools() {
        return lastPools;
    }

    void lastPools(ConstantPools p) {
        lastPools = p;
    }

    ProfileBuilder(Profile profile) {
        this.profile = profile;
        this.resolver = new ChunkResolver(profile);
    }

    /** async-profiler's live-object samples, kept until every GC of the file is known. */
    LiveBuffer live() {
        return live;
    }

    Profile profile() {
        return profile;
    }

    int chunkNumber() {
        return chunkNumber;
    }

    void nextChunk() {
        chunkNumber++;
    }

    long allocationInterval() {
        return allocationInterval;
    }

    /** Records a JVM/OS fact; the first value seen wins. */
    void fact(String key, String value) {
        if (value != null && !value.isEmpty()) {
            profile.metadata().putIfAbsent(key, value);
        }
    }

    /** Keeps the properties the Java version is derived from (async-profiler records java.vm.* but no java.version). */
    void systemProperty(String key, String value) {
        if (key != null && value != null && !value.isBlank() && (key.equals("java.version")
                || key.equals("java.specification.version") || key.equals("java.vm.specification.version")
                || key.equals("java.vm.version"))) {
            javaProperties.putIfAbsent(key, value.trim());
        }
    }

    /**
     * javaVersion: the java.version property as recorded, else the feature version; javaFeature: the feature version
     * ("8" for a JDK 8u144 whose HotSpot calls itself 25.144-b01), see {@link JavaVersion}.
     */
    private void javaVersion() {
        String feature = JavaVersion.feature(javaProperties.get("java.version"),
                javaProperties.get("java.specification.version"), javaProperties.get("java.vm.specification.version"),
                javaProperties.get("java.vm.version"), profile.metadata().get("jvmVersion"));
        fact("javaVersion", javaProperties.getOrDefault("java.version", feature));
        fact("javaFeature", feature);
    }

    /** Whether async-profiler's settings say it ran in wall-clock mode ({@code event=wall}). */
    boolean asyncProfilerWallMode() {
        return asyncProfilerWallMode;
    }

    /**
     * async-profiler states its allocation sampling interval in bytes as the "alloc" setting, and its mode as the
     * "event" setting (in its first chunk only, before any sample; later chunks of the file keep the mode).
     */
    void setting(String name, String value, boolean fromAsyncProfiler) {
        if (fromAsyncProfiler && "event".equals(name) && value != null) {
            asyncProfilerWallMode = value.trim().equals("wall");
        }
        if ("alloc".equals(name) && value != null) {
            try {
                allocationInterval = Long.parseLong(value.trim());
            } catch (NumberFormatException e) {
                // a non-numeric value (e.g. "true") leaves the interval unknown
            }
        }
    }

    void noteType(String typeName) {
        if (producer == null && typeName.startsWith("profiler.")) {
            producer = "async-profiler";
        } else if (producer == null && typeName.startsWith("datadog.")) {
            producer = "dd-trace-java";
        }
    }

    void workbenchHeap(long time, long gcId, String name, String cause, long startMillis, long durationMillis,
                       long usedBefore, long usedAfter, long committedAfter) {
        profile.heap().addSample(new HeapSample(time, usedAfter, committedAfter, "workbench.HeapSummary"));
        long start = startMillis > 0 ? startMillis * 1_000_000 : time;
        long duration = durationMillis >= 0 ? durationMillis * 1_000_000 : -1;
        agentGcs.add(new GcEvent(gcId, start, duration, name == null ? "" : name, cause == null ? "" : cause,
                usedBefore, usedAfter, committedAfter, -1));
    }

    /**
     * Writes what spans chunks beyond the profile itself, so that a run's next part continues as if its chunks
     * followed in the same file ({@link RunImport}); the key caches and pools are not kept (a chunk read afresh
     * resolves to the same model ids). A change of this form changes {@code RunImport.STATE_FORM}.
     */
    void write(DataOutput out) throws IOException {
        out.writeInt(chunkNumber);
        out.writeLong(allocationInterval);
        RunImport.writeText(out, producer);
        out.writeBoolean(asyncProfilerWallMode);
        out.writeInt(javaProperties.size());
        for (java.util.Map.Entry<String, String> e : javaProperties.entrySet()) {
            RunImport.writeText(out, e.getKey());
            RunImport.writeText(out, e.getValue());
        }
        out.writeInt(agentGcs.size());
        for (GcEvent g : agentGcs) {
            out.writeLong(g.gcId());
            out.writeLong(g.startNanos());
            out.writeLong(g.durationNanos());
            RunImport.writeText(out, g.name());
            RunImport.writeText(out, g.cause());
            out.writeLong(g.heapUsedBefore());
            out.writeLong(g.heapUsedAfter());
            out.writeLong(g.heapCommitted());
            out.writeLong(g.longestPauseNanos());
        }
        live.write(out);
        nativeLeaks.write(out);
        gcJoiner.write(out);
    }

    /** Continues from what {@link #write} wrote, before the next part's first chunk. */
    void read(DataInput in) throws IOException {
        chunkNumber = in.readInt();
        allocationInterval = in.readLong();
        producer = RunImport.readText(in);
        asyncProfilerWallMode = in.readBoolean();
        int n = RunImport.count(in);
        for (int i = 0; i < n; i++) {
            javaProperties.put(RunImport.readText(in), RunImport.readText(in));
        }
        n = RunImport.count(in);
        for (int i = 0; i < n; i++) {
            agentGcs.add(new GcEvent(in.readLong(), in.readLong(), in.readLong(), RunImport.readText(in),
                    RunImport.readText(in), in.readLong(), in.readLong(), in.readLong(), in.readLong()));
        }
        live.read(in);
        nativeLeaks.read(in);
        gcJoiner.read(in);
    }

    /** Completes the profile once every chunk is read. */
    void finish() {
        javaVersion();
        fact("producer", producer != null ? producer : profile.chunks() > 0 ? "JDK Flight Recorder" : null);
        nativeLeaks.finish(profile);
        gcJoiner.finish(profile);
        keepCollectionsOnly();
        List<GcEvent> jvmGcs = new ArrayList<>(profile.heap().gcs());
        for (GcEvent agent : agentGcs) {
            // the agent's readings are heap samples already; only its collections can be GCs
            if (GcKinds.collection(agent) && !coveredByJvm(agent, jvmGcs)) {
                // the agent numbers a collector's GCs (its MXBean's), the JVM all of them: beside the JVM's GCs (one the
                // JVM's recording missed, between two chunks) that number would name another GC's pools and counts
                profile.heap().addGc(jvmGcs.isEmpty() ? agent : agent.withGcId(-1));
            }
        }
        live.flush(profile, profile.heap().gcs().stream().mapToLong(GcEvent::startNanos).sorted().toArray(),
                Sources.ASYNC_PROFILER);
    }

    /**
     * Only the JVM's collections stay GCs ({@link GcKinds}): a row that collected nothing would pass for proof that the
     * samples allocated before it survived, and the live view scaled to it would count garbage. Its heap reading stays
     * as a heap sample.
     */
    private void keepCollectionsOnly() {
        List<GcEvent> gcs = profile.heap().gcs();
        for (GcEvent g : gcs) {
            if (!GcKinds.collection(g) && g.heapUsedAfter() >= 0) {
                profile.heap().addSample(new HeapSample(g.startNanos() + Math.max(0, g.durationNanos()), g.heapUsedAfter(),
                        g.heapCommitted(), g.name().isEmpty() ? "jdk.GCHeapSummary" : g.name()));
            }
        }
        gcs.removeIf(g -> !GcKinds.collection(g));
    }

    /** An agent GC reading is redundant when the JVM's own events describe a GC starting at about the same time. */
    private static boolean coveredByJvm(GcEvent agent, List<GcEvent> jvmGcs) {
        long slack = Math.max(2_000_000L, agent.durationNanos());
        for (GcEvent gc : jvmGcs) {
            if (Math.abs(gc.startNanos() - agent.startNanos()) <= slack && gc.heapUsedAfter() >= 0) {
                return true;
            }
        }
        return false;
    }
}
