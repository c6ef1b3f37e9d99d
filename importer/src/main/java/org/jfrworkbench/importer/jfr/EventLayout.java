package org.jfrworkbench.importer.jfr;

/**
 * How one event type of a chunk is mapped: the {@link Mapping} chosen by its name and the positions of the fields it
 * uses, found by name in the chunk's metadata (-1 when the type lacks the field).
 */
final class EventLayout {
    enum Mapping {
        /** jdk.ExecutionSample: cpu or wall by its producer, the recording's mode and its thread state (EventMapper). */
        EXECUTION, CPU, WALL, ALLOC_WEIGHT, ALLOC_TLAB, ALLOC_SIZE, ALLOC_DATADOG, LIVE_PROFILER, LIVE_OLD_OBJECT, LOCK, MALLOC,
        FREE, GC, GC_HEAP_SUMMARY, WORKBENCH_HEAP, WORKBENCH_LABEL, JVM_INFO, OS_INFO, CPU_INFO, ACTIVE_SETTING,
        SYSTEM_PROPERTY, G1_HEAP_SUMMARY, METASPACE_SUMMARY, OBJECT_COUNT_AFTER_GC, PS_HEAP_SUMMARY
    }

    final JfrType type;
    final Mapping mapping;
    final int time;
    final int duration;
    final int thread;
    final int stack;
    /** The mapping's weight field(s), allocation-time field and class field, or -1. */
    final int weight;
    final int weight2;
    final int allocationTime;
    final int objectClass;
    /** The native address of profiler.Malloc / profiler.Free, or -1. */
    final int address;
    /** The thread state (a jdk.types.ThreadState key) of execution and wall samples, or -1. */
    final int state;
    /** The {@link org.jfrworkbench.model.Profile#sources()} id of the sampler that wrote this type's samples. */
    final int source;
    static final byte VARINT = 0, SCALAR = 1, MATERIALISE = 2, SKIP = 3;
    /** How to read field i: one compressed integer, another scalar, a value the handler reads, or skip it. */
    final byte[] reads;
    /** Fields from this index on are not read at all: the event is left by its size. */
    final int readCount;
    /** Whether every field read is one compressed integer (most sample events): {@link EventDecoder} decodes these. */
    final boolean varintsOnly;

    EventLayout(JfrType type, Mapping mapping, int source) {
        this.type = type;
        this.mapping = mapping;
        this.source = source;
        this.time = type.field("startTime");
        this.duration = type.field("duration");
        int sampled = type.field("sampledThread");
        this.thread = sampled >= 0 ? sampled : type.field("eventThread");
        this.stack = type.field("stackTrace");
        int w = type.field(switch (mapping) {
            // async-profiler batches wall samples in "samples"; Datadog weights cpu and wall samples by "weight"
            case EXECUTION, CPU -> "weight";
            case WALL -> type.field("samples") >= 0 ? "samples" : "weight";
            case ALLOC_WEIGHT -> "weight";
            case ALLOC_TLAB -> "tlabSize";
            case ALLOC_SIZE, LIVE_PROFILER -> "allocationSize";
            case ALLOC_DATADOG, MALLOC -> "size";
            case LIVE_OLD_OBJECT -> "objectSize";
            default -> "duration";
        });
        boolean count = mapping == Mapping.EXECUTION || mapping == Mapping.CPU || mapping == Mapping.WALL;
        int st = count ? type.field("state") : -1;
        this.state = st >= 0 && type.fields[st].constantPool && ValueReader.isScalar(type.fields[st]) ? st : -1;
        this.weight = count && w >= 0 && !integral(type.fields[w]) ? -1 : w;
        this.weight2 = type.field(switch (mapping) {
            case ALLOC_TLAB -> "allocationSize";
            case ALLOC_DATADOG -> "weight";
            default -> "";
        });
        this.allocationTime = type.field("allocationTime");
        int cls = type.field(switch (mapping) {
            case LIVE_OLD_OBJECT -> "object";
            case LOCK -> type.field("monitorClass") >= 0 ? "monitorClass" : "parkedClass";
            default -> "objectClass";
        });
        this.objectClass = cls >= 0 && ValueReader.isScalar(type.fields[cls]) ? cls : -1;
        int addr = mapping == Mapping.MALLOC || mapping == Mapping.FREE ? type.field("address") : -1;
        this.address = addr >= 0 && ValueReader.isScalar(type.fields[addr]) ? addr : -1;
        boolean samplesOnly = mapping.ordinal() <= Mapping.FREE.ordinal();
        this.reads = new byte[type.fields.length];
        for (int i = 0; i < reads.length; i++) {
            JfrField f = type.fields[i];
            reads[i] = f.varint ? VARINT : ValueReader.isScalar(f) ? SCALAR : samplesOnly ? SKIP : MATERIALISE;
        }
        int last = reads.length - 1;
        if (samplesOnly) {
            last = -1;
            for (int i : new int[] {time, duration, thread, stack, weight, weight2, allocationTime, objectClass, address,
                    state}) {
                last = Math.max(last, i);
            }
        }
        this.readCount = last + 1;
        boolean varints = true;
        for (int i = 0; i < readCount; i++) {
            varints &= reads[i] == VARINT;
        }
        this.varintsOnly = varints;
    }

    /** Whether a field is read as a plain integer (not a pool key, a float or a structure). */
    static boolean integral(JfrField f) {
        return ValueReader.isScalar(f) && !f.constantPool && f.type.primitive < JfrType.FLOAT;
    }

    /** The mapping for an event type name, or null when the type is only counted. */
    static Mapping mappingOf(String name) {
        switch (name) {
            case "jdk.ExecutionSample":
                return Mapping.EXECUTION;
            case "jdk.CPUTimeSample", "datadog.ExecutionSample":
                return Mapping.CPU;
            case "profiler.WallClockSample", "jdk.NativeMethodSample", "datadog.MethodSample":
                return Mapping.WALL;
            case "jdk.ObjectAllocationSample":
                return Mapping.ALLOC_WEIGHT;
            case "jdk.ObjectAllocationInNewTLAB":
                return Mapping.ALLOC_TLAB;
            case "jdk.ObjectAllocationOutsideTLAB":
                return Mapping.ALLOC_SIZE;
            case "datadog.ObjectSample":
                return Mapping.ALLOC_DATADOG;
            case "profiler.LiveObject":
                return Mapping.LIVE_PROFILER;
            case "jdk.OldObjectSample":
                return Mapping.LIVE_OLD_OBJECT;
            case "jdk.JavaMonitorEnter", "jdk.ThreadPark":
                return Mapping.LOCK;
            case "profiler.Malloc":
                return Mapping.MALLOC;
            case "profiler.Free":
                return Mapping.FREE;
            case "jdk.GarbageCollection":
                return Mapping.GC;
            case "jdk.GCHeapSummary":
                return Mapping.GC_HEAP_SUMMARY;
            case "jdk.G1HeapSummary":
                return Mapping.G1_HEAP_SUMMARY;
            case "jdk.PSHeapSummary":
                return Mapping.PS_HEAP_SUMMARY;
            case "jdk.MetaspaceSummary":
                return Mapping.METASPACE_SUMMARY;
            case "jdk.ObjectCountAfterGC":
                return Mapping.OBJECT_COUNT_AFTER_GC;
            case "workbench.HeapSummary":
                return Mapping.WORKBENCH_HEAP;
            case "workbench.Label":
                return Mapping.WORKBENCH_LABEL;
            case "jdk.JVMInformation":
                return Mapping.JVM_INFO;
            case "jdk.OSInformation":
                return Mapping.OS_INFO;
            case "jdk.CPUInformation":
                return Mapping.CPU_INFO;
            case "jdk.ActiveSetting":
                return Mapping.ACTIVE_SETTING;
            case "jdk.InitialSystemProperty":
                return Mapping.SYSTEM_PROPERTY;
            default:
                // dd-trace-java's lock events (e.g. datadog.JavaMonitorEnter / datadog.ThreadPark)
                if (name.startsWith("datadog.") && (name.contains("Monitor") || name.contains("Lock")
                        || name.contains("Park"))) {
                    return Mapping.LOCK;
                }
                return null;
        }
    }
}
