package org.jfrworkbench.importer.jfr;

import java.util.List;

import org.jfrworkbench.model.ClassCount;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.PoolUsage;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.SampleTable;
import org.jfrworkbench.model.Sources;

/**
 * Maps the events of one chunk to the model: samples per kind, GCs, heap readings, labels and JVM facts.
 *
 * <p>jdk.ExecutionSample means CPU in the JDK's chunks, but async-profiler writes its wall-clock samples as
 * jdk.ExecutionSample too, so in its chunks the kind follows the recording's mode and the sample's thread state (the
 * rules of docs/producers.md): in wall-clock mode ({@code event=wall}) every sample is wall; otherwise STATE_DEFAULT
 * (3.0 on: its CPU samplers) is cpu and any other state wall; before 3.0 (no STATE_DEFAULT) a sleeping thread is
 * wall and the rest cpu.
 */
final class EventMapper {
    private final ProfileBuilder builder;
    private final Profile profile;
    private final ChunkTypes types;
    private final ConstantPools pools;
    private final ChunkReader chunk;
    private final ChunkResolver resolver;
    private final EventLayout[] layouts;
    private final GcJoiner gcs;
    /** The sample table per kind, looked up once per chunk rather than per event. */
    private final SampleTable[] tables = new SampleTable[Kind.values().length];
    /** Whether async-profiler wrote this chunk (its events are named like the JDK's, its samplers are its own). */
    private final boolean asyncProfiler;
    /** Whether the chunk's thread states include async-profiler's STATE_DEFAULT (3.0 on), and its ids. */
    private final boolean hasDefaultState;
    private final int stateDefault;
    private final int stateSleeping;

    EventMapper(ProfileBuilder builder, ChunkTypes types, ConstantPools pools, ChunkReader chunk, boolean sameKeys) {
        this.builder = builder;
        this.profile = builder.profile();
        this.types = types;
        this.pools = pools;
        this.chunk = chunk;
        this.resolver = builder.resolver();
        this.gcs = builder.gcJoiner();
        resolver.reset(pools, types, sameKeys);
        for (Kind k : Kind.values()) {
            tables[k.ordinal()] = profile.samples(k);
        }
        List<String> states = threadStates(types, pools);
        boolean profilerTypes = false;
        for (int i = 0; i < types.size(); i++) {
            profilerTypes |= types.get(i).name.startsWith("profiler.");
        }
        this.hasDefaultState = states.contains("STATE_DEFAULT");
        // 2.0-2.4 declare no profiler.* type; their states are RUNNABLE and SLEEPING only, the JDK's a dozen
        this.asyncProfiler = profilerTypes || hasDefaultState
                || !states.isEmpty() && !states.contains("STATE_NEW") && !states.contains("STATE_PARKED");
        this.stateDefault = asyncProfiler && hasDefaultState ? profile.states().intern("STATE_DEFAULT") : -1;
        this.stateSleeping = asyncProfiler && states.contains("STATE_SLEEPING") ? profile.states().intern("STATE_SLEEPING") : -1;
        this.layouts = new EventLayout[types.size()];
        for (int i = 0; i < types.size(); i++) {
            JfrType t = types.get(i);
            EventLayout.Mapping m = EventLayout.mappingOf(t.name);
            if (m != null) {
                layouts[i] = new EventLayout(t, m, profile.sources().intern(sourceOf(t.name, asyncProfiler)));
            }
            builder.noteType(t.name);
        }
    }

    /** The sampler that writes events of this type in a chunk of this producer ({@link Sources}). */
    static String sourceOf(String type, boolean asyncProfilerChunk) {
        if (asyncProfilerChunk) {
            return Sources.ASYNC_PROFILER;
        }
        if (type.startsWith("datadog.")) {
            return Sources.DATADOG;
        }
        return switch (type) {
            case "jdk.CPUTimeSample" -> Sources.JDK_CPU_TIME;
            case "jdk.ObjectAllocationInNewTLAB", "jdk.ObjectAllocationOutsideTLAB" -> Sources.JDK_TLAB;
            default -> type.startsWith("profiler.") ? Sources.ASYNC_PROFILER : Sources.JDK;
        };
    }

    /** The names in the chunk's jdk.types.ThreadState pool. */
    private static List<String> threadStates(ChunkTypes types, ConstantPools pools) {
        JfrType stateType = types.byName("jdk.types.ThreadState");
        List<String> names = new java.util.ArrayList<>();
        for (Object v : pools.values(stateType)) {
            String name = pools.text(pools.field(stateType, v, "name"), 0);
            if (name != null) {
                names.add(name);
            }
        }
        return names;
    }

    /** The kind of an execution sample (the class comment's rules). */
    private Kind executionKind(int state) {
        if (!asyncProfiler) {
            return Kind.CPU;
        }
        if (builder.asyncProfilerWallMode()) {
            return Kind.WALL;
        }
        if (hasDefaultState) {
            return state == stateDefault ? Kind.CPU : Kind.WALL;
        }
        return state == stateSleeping ? Kind.WALL : Kind.CPU;
    }

    EventLayout[] layouts() {
        return layouts;
    }

    /** Maps one event whose field i is longs[base + i] (objects[i] for fields read as objects, base 0 then). */
    void handle(EventLayout l, long[] longs, int base, Object[] objects) {
        JfrField[] f = l.type.fields;
        long time = l.time >= 0 ? chunk.timestamp(f[l.time], longs[base + l.time]) : chunk.chunkStartNanos();
        switch (l.mapping) {
            case EXECUTION -> {
                int state = state(l, longs, base);
                sample(executionKind(state), l, longs, base, time, count(l, longs, base), state);
            }
            case CPU -> sample(Kind.CPU, l, longs, base, time, count(l, longs, base), state(l, longs, base));
            case WALL -> sample(Kind.WALL, l, longs, base, time, count(l, longs, base), state(l, longs, base));
            case ALLOC_WEIGHT, ALLOC_SIZE -> sample(Kind.ALLOC, l, longs, base, time, at(longs, base, l.weight));
            case ALLOC_TLAB -> {
                long tlab = at(longs, base, l.weight);
                sample(Kind.ALLOC, l, longs, base, time, tlab > 0 ? tlab : at(longs, base, l.weight2));
            }
            case ALLOC_DATADOG -> {
                long size = at(longs, base, l.weight);
                double scale = l.weight2 >= 0 && f[l.weight2].type.primitive >= JfrType.FLOAT
                        ? Double.longBitsToDouble(longs[base + l.weight2]) : 1;
                long w = scale > 0 && Double.isFinite(scale) ? Math.round(size * scale) : size;
                sample(Kind.ALLOC, l, longs, base, time, w);
            }
            case LIVE_PROFILER -> {
                long allocated = l.allocationTime >= 0 ? chunk.timestamp(f[l.allocationTime], longs[base + l.allocationTime]) : time;
                builder.live().add(allocated, time, thread(l, longs, base), stack(l, longs, base), at(longs, base, l.weight),
                        objectClass(l, longs, base));
            }
            case LIVE_OLD_OBJECT -> {
                long allocated = l.allocationTime >= 0 ? chunk.timestamp(f[l.allocationTime], longs[base + l.allocationTime]) : time;
                // JDK < 20 has no objectSize: each surviving sample then counts as one, which keeps the proportions
                long size = l.weight >= 0 ? Math.max(0, longs[base + l.weight]) : 1;
                profile.samples(Kind.LIVE).add(allocated, thread(l, longs, base), stack(l, longs, base), size,
                        oldObjectClass(l, longs, base), 0, l.source);
            }
            case LOCK -> sample(Kind.LOCK, l, longs, base, time,
                    l.duration >= 0 ? chunk.timespan(f[l.duration], longs[base + l.duration]) : 0);
            case MALLOC -> {
                if (l.address >= 0) {
                    builder.nativeLeaks().malloc(tables[Kind.NATIVEMEM.ordinal()].size(), longs[base + l.address], time);
                }
                sample(Kind.NATIVEMEM, l, longs, base, time, at(longs, base, l.weight));
            }
            case FREE -> {
                if (l.address >= 0) {
                    builder.nativeLeaks().free(longs[base + l.address], time);
                }
            }
            default -> other(l, longs, base, objects, time);
        }
    }

    /** The sample count of a cpu or wall event: async-profiler's batched "samples" or Datadog's weight, else 1. */
    private static long count(EventLayout l, long[] longs, int base) {
        return l.weight >= 0 && longs[base + l.weight] > 0 ? longs[base + l.weight] : 1;
    }

    private void sample(Kind kind, EventLayout l, long[] longs, int base, long time, long weight) {
        sample(kind, l, longs, base, time, weight, 0);
    }

    private void sample(Kind kind, EventLayout l, long[] longs, int base, long time, long weight, int state) {
        int objectClass = kind == Kind.CPU || kind == Kind.WALL || kind == Kind.NATIVEMEM ? 0 : objectClass(l, longs, base);
        tables[kind.ordinal()].add(time, thread(l, longs, base), stack(l, longs, base), weight, objectClass, state, l.source);
    }

    private int state(EventLayout l, long[] longs, int base) {
        return l.state >= 0 ? resolver.state(l.type.fields[l.state].type, longs[base + l.state]) : 0;
    }

    private static long at(long[] longs, int base, int i) {
        return i >= 0 ? longs[base + i] : 0;
    }

    private int thread(EventLayout l, long[] longs, int base) {
        return l.thread >= 0 ? resolver.thread(l.type.fields[l.thread].type, longs[base + l.thread]) : 0;
    }

    private int stack(EventLayout l, long[] longs, int base) {
        return l.stack >= 0 ? resolver.stack(longs[base + l.stack]) : -1;
    }

    private int objectClass(EventLayout l, long[] longs, int base) {
        return l.objectClass >= 0 ? resolver.className(l.type.fields[l.objectClass].type, longs[base + l.objectClass]) : 0;
    }

    private int oldObjectClass(EventLayout l, long[] longs, int base) {
        if (l.objectClass < 0) {
            return 0;
        }
        JfrType objectType = l.type.fields[l.objectClass].type;
        Object object = pools.get(objectType, longs[base + l.objectClass]);
        int typeField = objectType.field("type");
        if (!(object instanceof Object[] values) || typeField < 0 || !(values[typeField] instanceof Long key)) {
            return 0;
        }
        return resolver.className(objectType.fields[typeField].type, key);
    }

    /** The non-sample events: read by field name, they are rare. */
    private void other(EventLayout l, long[] longs, int base, Object[] objects, long time) {
        Fields e = new Fields(l.type, longs, base, objects);
        switch (l.mapping) {
            case GC -> {
                GcJoiner.Parts gc = gcs.parts(e.number("gcId", -1), time);
                gc.start = time;
                gc.duration = e.span("duration");
                gc.name = e.text("name");
                gc.cause = e.text("cause");
                gc.longestPause = e.span("longestPause");
                gc.seen = true;
            }
            case GC_HEAP_SUMMARY -> {
                GcJoiner.Parts gc = gcs.parts(e.number("gcId", -1), time);
                String when = e.text("when");
                long used = e.number("heapUsed", -1);
                if (before(when)) {
                    gc.usedBefore = used;
                } else {
                    gc.usedAfter = used;
                    Object space = e.value("heapSpace");
                    JfrType spaceType = ConstantPools.fieldType(l.type, "heapSpace");
                    if (spaceType != null) {
                        gc.committed = ChunkResolver.asLong(pools.field(spaceType, space, "committedSize"), -1);
                    }
                }
                if (gc.start == 0) {
                    gc.start = time;
                }
            }
            case G1_HEAP_SUMMARY -> {
                long gcId = e.number("gcId", -1);
                boolean after = !before(e.text("when"));
                profile.heap().addPool(new PoolUsage(gcId, time, after, "G1 Eden", e.number("edenUsedSize", -1),
                        e.number("edenTotalSize", -1)));
                profile.heap().addPool(new PoolUsage(gcId, time, after, "G1 Survivor", e.number("survivorUsedSize", -1),
                        -1));
                long old = e.number("oldGenUsedSize", -1); // JDK 21 and later
                if (old >= 0) {
                    profile.heap().addPool(new PoolUsage(gcId, time, after, "G1 Old", old, -1));
                }
            }
            case PS_HEAP_SUMMARY -> {
                // Parallel's generations: eden and the survivor in use (from) as object spaces, old as its objects'
                // bytes within the old generation's committed memory
                long gcId = e.number("gcId", -1);
                boolean after = !before(e.text("when"));
                profile.heap().addPool(new PoolUsage(gcId, time, after, "PS Eden", space(l, e, "edenSpace", "used"),
                        space(l, e, "edenSpace", "size")));
                profile.heap().addPool(new PoolUsage(gcId, time, after, "PS Survivor", space(l, e, "fromSpace", "used"),
                        space(l, e, "fromSpace", "size")));
                profile.heap().addPool(new PoolUsage(gcId, time, after, "PS Old", space(l, e, "oldObjectSpace", "used"),
                        space(l, e, "oldSpace", "committedSize")));
            }
            case METASPACE_SUMMARY -> {
                JfrType spaceType = ConstantPools.fieldType(l.type, "metaspace");
                if (spaceType != null) {
                    Object space = e.value("metaspace");
                    profile.heap().addPool(new PoolUsage(e.number("gcId", -1), time, !before(e.text("when")), "Metaspace",
                            ChunkResolver.asLong(pools.field(spaceType, space, "used"), -1),
                            ChunkResolver.asLong(pools.field(spaceType, space, "committed"), -1)));
                }
            }
            case OBJECT_COUNT_AFTER_GC -> {
                int cls = objectClass(l, longs, base);
                long bytes = e.number("totalSize", -1);
                if (cls != 0 && bytes >= 0) {
                    profile.heap().addClassCount(new ClassCount(e.number("gcId", -1), time, profile.strings().get(cls),
                            e.number("count", -1), bytes));
                }
            }
            case WORKBENCH_HEAP -> builder.workbenchHeap(time, e.number("gcId", -1), e.text("gcName"), e.text("gcCause"),
                    e.number("gcStartMillis", -1), e.number("gcDurationMillis", -1), e.number("usedBefore", -1),
                    e.number("usedAfter", -1), e.number("committedAfter", -1));
            case WORKBENCH_LABEL -> {
                String key = e.text("key");
                if (key != null && !key.isEmpty()) {
                    profile.labels().put(key, e.text("value") == null ? "" : e.text("value"));
                }
            }
            case JVM_INFO -> {
                builder.fact("jvmName", e.text("jvmName"));
                builder.fact("jvmVersion", e.text("jvmVersion"));
                builder.fact("jvmArguments", e.text("jvmArguments"));
                builder.fact("javaArguments", e.text("javaArguments"));
                long pid = e.number("pid", -1);
                builder.fact("pid", pid >= 0 ? Long.toString(pid) : null);
            }
            case OS_INFO -> builder.fact("osVersion", e.text("osVersion"));
            case CPU_INFO -> {
                builder.fact("cpu", e.text("cpu"));
                long cores = e.number("cores", -1);
                builder.fact("cores", cores >= 0 ? Long.toString(cores) : null);
                long hw = e.number("hwThreads", -1);
                builder.fact("hwThreads", hw >= 0 ? Long.toString(hw) : null);
            }
            case ACTIVE_SETTING -> builder.setting(e.text("name"), e.text("value"), asyncProfiler);
            case SYSTEM_PROPERTY -> builder.systemProperty(e.text("key"), e.text("value"));
            default -> { }
        }
    }

    void finishChunk() {
        gcs.endChunk(profile);
        builder.live().endChunk(builder.allocationInterval());
    }

    /** Field access by name for the rare event types. */
    private final class Fields {
        private final JfrType type;
        private final long[] longs;
        private final int base;
        private final Object[] objects;

        Fields(JfrType type, long[] longs, int base, Object[] objects) {
            this.type = type;
            this.longs = longs;
            this.base = base;
            this.objects = objects;
        }

        long number(String name, long otherwise) {
            int i = type.field(name);
            if (i < 0 || !ValueReader.isScalar(type.fields[i]) || type.fields[i].constantPool
                    || type.fields[i].type.primitive >= JfrType.FLOAT) {
                return otherwise;
            }
            return longs[base + i];
        }

        long span(String name) {
            int i = type.field(name);
            return number(name, -1) < 0 ? -1 : chunk.timespan(type.fields[i], longs[base + i]);
        }

        Object value(String name) {
            int i = type.field(name);
            if (i < 0) {
                return null;
            }
            JfrField f = type.fields[i];
            if (ValueReader.isScalar(f)) {
                return f.constantPool ? pools.get(f.type, longs[base + i]) : (Object) longs[base + i];
            }
            return objects[i];
        }

        String text(String name) {
            return pools.text(value(name), 0);
        }
    }

    /** A number of a structure the event holds (a heap space's used bytes, say), or -1 where it has none. */
    private long space(EventLayout l, Fields e, String field, String name) {
        JfrType spaceType = ConstantPools.fieldType(l.type, field);
        return spaceType == null ? -1 : ChunkResolver.asLong(pools.field(spaceType, e.value(field), name), -1);
    }

    /** Whether a heap summary's "when" is the reading before its GC ("Before GC"); else it is the one after. */
    private static boolean before(String when) {
        return when != null && when.toLowerCase(java.util.Locale.ROOT).startsWith("before");
    }
}
