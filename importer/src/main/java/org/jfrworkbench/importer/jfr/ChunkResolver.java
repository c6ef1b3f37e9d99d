package org.jfrworkbench.importer.jfr;

import org.jfrworkbench.model.FrameTable;
import org.jfrworkbench.model.FrameType;
import org.jfrworkbench.model.MethodTable;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.StackTable;
import org.jfrworkbench.model.StringTable;
import org.jfrworkbench.model.ThreadTable;

/**
 * Turns one chunk's constant-pool keys into model ids (threads, stacks, frames, methods, class names), caching each
 * key so every pool entry is resolved once per chunk.
 */
final class ChunkResolver {
    private final Profile profile;
    // the caches are emptied, not reallocated, for each chunk: their arrays are sized once per file
    private final LongIntMap threadIds = new LongIntMap();
    private final LongIntMap methodIds = new LongIntMap(4096);
    private final LongIntMap classNames = new LongIntMap();
    private final LongIntMap frameTypes = new LongIntMap();
    private final LongIntMap symbolIds = new LongIntMap(4096);
    private final LongIntMap classOfMethodIds = new LongIntMap(1024);
    /** Thread-state pool key to {@link Profile#states()} id + 1; the last key is kept beside it (it rarely changes). */
    private final LongIntMap stateIds = new LongIntMap();
    private long lastStateKey = Long.MIN_VALUE;
    private int lastState;
    private ConstantPools pools;
    private JfrType methodType;
    private JfrType frameTypeType;
    private int methodClass;
    private int methodName;
    private int methodDescriptor;
    private JfrType classType;
    private int className;

    ChunkResolver(Profile profile) {
        this.profile = profile;
    }

    /** Starts a chunk: forgets the previous chunk's keys unless they provably mean the same in this chunk. */
    void reset(ConstantPools chunkPools, ChunkTypes types, boolean sameKeys) {
        if (!sameKeys) {
            for (LongIntMap m : new LongIntMap[] {threadIds, methodIds, classNames, frameTypes, symbolIds,
                    classOfMethodIds, stateIds}) {
                m.clear();
            }
        }
        this.pools = chunkPools;
        this.lastStateKey = Long.MIN_VALUE;
        JfrType stackTrace = types.byName("jdk.types.StackTrace");
        JfrType frame = ConstantPools.fieldType(stackTrace, "frames");
        this.methodType = ConstantPools.fieldType(frame, "method");
        this.frameTypeType = ConstantPools.fieldType(frame, "type");
        this.methodClass = methodType == null ? -1 : methodType.field("type");
        this.methodName = methodType == null ? -1 : methodType.field("name");
        this.methodDescriptor = methodType == null ? -1 : methodType.field("descriptor");
        this.classType = methodClass < 0 ? null : methodType.fields[methodClass].type;
        this.className = classType == null ? -1 : classType.field("name");
    }

    /** Model thread id for a thread key of the given pool type; 0 (unknown) when absent. */
    int thread(JfrType threadType, long key) {
        if (key == 0 || threadType == null) {
            return 0;
        }
        int id = threadIds.get(key);
        if (id >= 0) {
            return id;
        }
        Object t = pools.get(threadType, key);
        id = 0;
        if (t != null) {
            String name = pools.text(pools.field(threadType, t, "javaName"), 0);
            if (name == null) {
                name = pools.text(pools.field(threadType, t, "osName"), 0);
            }
            long javaId = asLong(pools.field(threadType, t, "javaThreadId"), -1);
            long osId = asLong(pools.field(threadType, t, "osThreadId"), -1);
            id = profile.threads().add(new ThreadTable.ThreadInfo(name == null ? "thread " + key : name, javaId, osId));
        }
        threadIds.put(key, id);
        return id;
    }

    /** {@link Profile#states()} id of a thread-state key of the given pool type; 0 when absent. */
    int state(JfrType stateType, long key) {
        if (key == lastStateKey) {
            return lastState;
        }
        int id = stateIds.get(key);
        if (id < 0) {
            Object s = stateType == null ? null : pools.get(stateType, key);
            String name = s == null ? null : pools.text(pools.field(stateType, s, "name"), 0);
            if (name == null) {
                name = pools.text(s, 0);
            }
            id = name == null ? 0 : profile.states().intern(name);
            stateIds.put(key, id);
        }
        lastStateKey = key;
        lastState = id;
        return id;
    }

    /** Model stack id for a stack-trace key; -1 when the event has none (or the pool lacks it). */
    int stack(long key) {
        return pools.stackTraces.find(key);
    }

    /**
     * The model stack of frames[0, depth) (model frame ids, leaf first), whose {@link StackTable#framesHash} is hash.
     */
    int stack(int[] frames, int depth, boolean truncated, int hash) {
        return profile.stacks().add(frames, 0, depth, truncated, hash);
    }

    /** {@link #stack(int[], int, boolean, int)} of frames[from, from + depth). */
    int stack(int[] frames, int from, int depth, boolean truncated, int hash) {
        return profile.stacks().add(frames, from, depth, truncated, hash);
    }

    /** Room in the model for up to stacks more stacks of frameIds frames in all (see {@link StackTable#reserve}). */
    void reserveStacks(int stacks, long frameIds) {
        profile.stacks().reserve(stacks, frameIds);
        if (methodType != null) {
            // the key caches of the methods and their classes: sized to the pools, not grown by copies
            methodIds.reserve(pools.rowCount(methodType));
            if (classType != null) {
                classOfMethodIds.reserve(pools.rowCount(classType));
            }
        }
        if (profile.frames().size() == 0 && methodType != null) {
            // the first stacks of a model: each method of the pool is a model method, and has a frame at least
            int methods = pools.rowCount(methodType);
            profile.methods().reserve(methods);
            profile.frames().reserve(methods);
        }
    }

    /** The number of entries of the chunk's method pool (0 when it is not kept in rows). */
    int poolMethods() {
        return methodType == null ? 0 : pools.rowCount(methodType);
    }

    /** The model frame of a model method, line and frame type (ordinal). */
    int frame(int method, int line, int type) {
        return profile.frames().add(method, line, FrameType.of(type));
    }

    /** The model's frames so far. */
    FrameTable frames() {
        return profile.frames();
    }

    /** Model method id of a method key. */
    int method(long key) {
        int id = methodIds.get(key);
        return id >= 0 ? id : resolveMethod(key);
    }

    private int resolveMethod(long key) {
        int cls = 0;
        int name = 0;
        int descriptor = 0;
        if (methodType != null && pools.hasRows(methodType)) {
            // the method's row: its class and symbol keys without a boxed value per field
            int row = pools.row(methodType, key);
            if (row >= 0) {
                cls = methodClass < 0 ? 0 : classOfMethod(pools.cell(methodType, row, methodClass));
                name = methodName < 0 ? 0 : symbol(methodName, pools.cell(methodType, row, methodName));
                descriptor = methodDescriptor < 0 ? 0 : symbol(methodDescriptor, pools.cell(methodType, row,
                        methodDescriptor));
            }
        } else {
            Object m = methodType == null ? null : pools.get(methodType, key);
            if (m instanceof Object[] record) {
                cls = methodClass >= 0 && methodClass < record.length && record[methodClass] instanceof Long c
                        ? classOfMethod(c) : 0;
                name = symbol(record, methodName);
                descriptor = symbol(record, methodDescriptor);
            }
        }
        if (name == 0) {
            name = profile.strings().intern("unknown");
        }
        int id = profile.methods().add(cls, name, descriptor);
        methodIds.put(key, id);
        return id;
    }

    /**
     * Whether method(key) would answer model method m, decided without adding anything to the model: the chunk's
     * class name, name and descriptor of the key are compared with m's strings, where a resolution interns each of
     * them (hashing it and probing the string table) and looks the triple up in the method table. A method key carried
     * from an earlier chunk (async-profiler's chunks number their symbols afresh, so the method entries differ in
     * bytes) is thus confirmed at a fraction of a resolution's cost. The caches learn what they would have learnt.
     */
    boolean names(long key, int m) {
        int id = methodIds.get(key);
        if (id >= 0) {
            return id == m;
        }
        int row = methodType != null && pools.hasRows(methodType) ? pools.row(methodType, key) : -1;
        if (row < 0) {
            return method(key) == m;
        }
        MethodTable methods = profile.methods();
        StringTable strings = profile.strings();
        if (!(methodClass < 0 ? methods.className(m) == 0
                : classIs(pools.cell(methodType, row, methodClass), methods.className(m), strings))
                || !symbolIs(methodName, row, methods.name(m), true, strings)
                || !symbolIs(methodDescriptor, row, methods.descriptor(m), false, strings)) {
            return false;
        }
        methodIds.put(key, m);
        return true;
    }

    /** Whether classOfMethod(key) would answer the string id target. */
    private boolean classIs(long key, int target, StringTable strings) {
        int id = classOfMethodIds.get(key);
        if (id >= 0) {
            return id == target;
        }
        String name = classType == null ? null : pools.fieldText(classType, key, className);
        if (name == null) {
            return target == 0;
        }
        if (!ClassNames.dottedEquals(name, strings.get(target))) {
            return false;
        }
        classOfMethodIds.put(key, target);
        return true;
    }

    /**
     * Whether field i of a method row resolves to the string id target as resolveMethod resolves it: through
     * symbol(i, key), and for the name (unknownIfNone) "unknown" in place of none.
     */
    private boolean symbolIs(int i, int row, int target, boolean unknownIfNone, StringTable strings) {
        int id = -1;
        String s = null;
        if (i >= 0 && methodType.fields[i].constantPool) {
            long key = pools.cell(methodType, row, i);
            id = symbolIds.get(key);
            if (id < 0) {
                s = pools.text(pools.get(methodType.fields[i].type, key), 0);
                if (s != null && !s.isEmpty()) {
                    if (!strings.get(target).equals(s)) {
                        return false;
                    }
                    symbolIds.put(key, target);
                    return true;
                }
                id = 0;
            }
        } else {
            id = 0;
        }
        if (id == 0) {
            return unknownIfNone ? strings.get(target).equals("unknown") : target == 0;
        }
        return id == target;
    }

    /** String id of the symbol (or inline string) in field i of a method record; 0 when absent. */
    private int symbol(Object[] record, int i) {
        if (i < 0 || i >= record.length) {
            return 0;
        }
        Object v = record[i];
        if (v instanceof Long key) {
            return symbol(i, key);
        }
        String s = pools.text(v, 0);
        return s == null ? 0 : profile.strings().intern(s);
    }

    /** String id of the symbol of key in field i of the method type, cached per key; 0 when absent. */
    private int symbol(int i, long key) {
        if (!methodType.fields[i].constantPool) {
            return 0;
        }
        int id = symbolIds.get(key);
        if (id < 0) {
            String s = pools.text(pools.get(methodType.fields[i].type, key), 0);
            id = s == null ? 0 : profile.strings().intern(s);
            symbolIds.put(key, id);
        }
        return id;
    }

    /** String id of the dotted name of a method's class, cached per class key. */
    private int classOfMethod(long key) {
        int id = classOfMethodIds.get(key);
        if (id < 0) {
            String name = classType == null ? null : pools.fieldText(classType, key, className);
            id = name == null ? 0 : profile.strings().intern(ClassNames.dotted(name));
            classOfMethodIds.put(key, id);
        }
        return id;
    }

    /** The {@link FrameType} ordinal of a frame-type key. */
    int frameType(long key) {
        int t = frameTypes.get(key);
        if (t < 0) {
            Object v = frameTypeType == null ? null : pools.get(frameTypeType, key);
            t = FrameType.fromJfrName(pools.text(v, 0)).ordinal();
            frameTypes.put(key, t);
        }
        return t;
    }

    /** String id of a class's dotted name (Java array syntax for arrays); 0 when absent. */
    int className(JfrType classType, long key) {
        if (classType == null || key == 0) {
            return 0;
        }
        int id = classNames.get(key);
        if (id < 0) {
            String name = pools.fieldText(classType, key, classType.field("name"));
            id = name == null ? 0 : profile.strings().intern(ClassNames.pretty(name));
            classNames.put(key, id);
        }
        return id;
    }

    static long asLong(Object v, long otherwise) {
        return v instanceof Long l ? l : otherwise;
    }
}
