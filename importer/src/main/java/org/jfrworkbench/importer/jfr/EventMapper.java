package org.jfrworkbench.importer.jfr;

import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.SampleTable;

/** Maps the events of one chunk to the model: samples per kind, GCs, heap readings, labels and JVM facts. */
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
        this.layouts = new EventLayout[types.size()];
        for (int i = 0; i < types.size(); i++) {
            JfrType t = types.get(i);
            EventLayout.Mapping m = EventLayout.mappingOf(t.name);
            if (m != null) {
                layouts[i] = new EventLayout(t, m);
            }
            builder.noteType(t.name);
        }
    }

    EventLayout[] layouts() {
        return layouts;
    }

    /** Maps one event whose field i is longs[base + i] (objects[i] for fields read as objects, base 0 then). */
    void handle(EventLayout l, long[] longs, int base, Object[] objects) {
        JfrField[] f = l.type.fields;
        long time = l.time >= 0 ? chunk.timestamp(f[l.time], longs[base + l.time]) : chunk.chunkStartNanos();
        switch (l.mapping) {
            case CPU -> sample(Kind.CPU, l, longs, base, time, count(l, longs, base));
            case WALL -> sample(Kind.WALL, l, longs, base, time, count(l, longs, base));
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
                        oldObjectClass(l, longs, base));
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
        int objectClass = kind == Kind.CPU || kind == Kind.WALL || kind == Kind.NATIVEMEM ? 0 : objectClass(l, longs, base);
        tables[kind.ordinal()].add(time, thread(l, longs, base), stack(l, longs, base), weight, objectClass);
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
                if (when != null && when.toLowerCase(java.util.Locale.ROOT).startsWith("before")) {
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
            case ACTIVE_SETTING -> builder.setting(e.text("name"), e.text("value"));
            case SYSTEM_PROPERTY -> {
                String key = e.text("key");
                String value = e.text("value");
                if ("java.version".equals(key) && value != null) {
                    profile.metadata().put("javaVersion", value);
                } else if ("java.vm.version".equals(key)) {
                    builder.fact("javaVersion", value);
                }
            }
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
}
