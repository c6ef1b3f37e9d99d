package org.jfrworkbench.testkit.jfr;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes JFR chunks (version 2, compressed integers) by hand. The test chooses the metadata: any types, fields in any
 * order and of any type, so the importer meets layouts no JDK or profiler writes. And any part of a chunk can lie, for
 * the torture suite: {@link Raw} bytes stand in for any value, {@link Counted} arrays announce a count they do not
 * hold, and the methods under "lies" below bend counts, sizes, offsets and the metadata's shape. One instance is one
 * chunk; the primitive types and java.lang.String are declared up front; TICKS count nanoseconds from the chunk start
 * unless the chunk is given a clock of its own.
 */
public final class JfrWriter {
    /** A field: name, type name, constant-pool reference or inline, array or not, and @Timestamp/@Timespan unit. */
    public record Field(String name, String type, boolean pool, boolean array, String timestamp, String timespan) {
        public static Field of(String name, String type) {
            return new Field(name, type, false, false, null, null);
        }

        public static Field pool(String name, String type) {
            return new Field(name, type, true, false, null, null);
        }

        public static Field array(String name, String type) {
            return new Field(name, type, false, true, null, null);
        }

        public static Field timestamp(String name, String type, String unit) {
            return new Field(name, type, false, false, unit, null);
        }

        public static Field timespan(String name, String type, String unit) {
            return new Field(name, type, false, false, null, unit);
        }

        /** A constant-pool reference to a type id that no type declares. */
        public static Field undeclared(String name, long typeId) {
            return new Field(name, "#" + typeId, true, false, null, null);
        }
    }

    /** Bytes written as they are where a value belongs: a value no encoder would write. */
    public record Raw(byte[] bytes) {
    }

    /** An array value that announces count elements and holds items. */
    public record Counted(long count, List<?> items) {
    }

    private record Type(long id, String name, String superType, List<Field> fields) {
    }

    public static final long START_NANOS = 1_700_000_000_000_000_000L;

    private final Map<String, Type> types = new LinkedHashMap<>();
    private final Bytes events = new Bytes();
    private final Map<String, List<byte[]>> pools = new LinkedHashMap<>();
    private final java.util.Set<String> simpleTypes = new java.util.HashSet<>();
    private final long startNanos;
    private final long durationNanos;
    private final long startTicks;
    private final long ticksPerSecond;
    // lies; null or 0: the truth
    private final Map<String, Long> poolCounts = new HashMap<>();
    private Long metadataStrings;
    private int metadataDepth;
    private Long checkpointDelta;
    private boolean checkpointCycle;
    private int checkpoints = 1;
    private long chunkSizeExcess;
    private Double metadataOffsetAt;

    public JfrWriter(long startNanos, long durationNanos) {
        this(startNanos, durationNanos, 0, 1_000_000_000L);
    }

    /** A chunk whose TICKS values count from startTicks at ticksPerSecond (a JDK on a 2.5 GHz TSC: 2,500,000,000). */
    public JfrWriter(long startNanos, long durationNanos, long startTicks, long ticksPerSecond) {
        this.startNanos = startNanos;
        this.durationNanos = durationNanos;
        this.startTicks = startTicks;
        this.ticksPerSecond = ticksPerSecond;
        for (String p : List.of("boolean", "byte", "char", "short", "int", "long", "float", "double", "java.lang.String")) {
            type(p, null);
        }
        type("jdk.jfr.Timestamp", "java.lang.annotation.Annotation", Field.of("value", "java.lang.String"));
        type("jdk.jfr.Timespan", "java.lang.annotation.Annotation", Field.of("value", "java.lang.String"));
    }

    /** Declares a type (superType "jdk.jfr.Event" for events); ids are given in declaration order from 100. */
    public JfrWriter type(String name, String superType, Field... fields) {
        return type(100 + types.size(), name, superType, fields);
    }

    /**
     * Declares the types a stack trace is made of, as the JDK names them: symbols, classes, methods (class and name),
     * frames (method and line), stack traces and threads (name and id).
     */
    public JfrWriter stackTypes() {
        type("jdk.types.Symbol", null, Field.of("string", "java.lang.String"));
        type("java.lang.Class", null, Field.pool("name", "jdk.types.Symbol"));
        type("jdk.types.Method", null, Field.pool("type", "java.lang.Class"), Field.pool("name", "jdk.types.Symbol"));
        type("jdk.types.StackFrame", null, Field.pool("method", "jdk.types.Method"), Field.of("lineNumber", "int"));
        type("jdk.types.StackTrace", null, Field.of("truncated", "boolean"), Field.array("frames", "jdk.types.StackFrame"));
        return type("java.lang.Thread", null, Field.of("javaName", "java.lang.String"), Field.of("javaThreadId", "long"));
    }

    /** Declares a GC (jdk.GarbageCollection) and the heap around it (jdk.GCHeapSummary), the fields the importer reads. */
    public JfrWriter gcTypes() {
        type("jdk.GarbageCollection", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                Field.timespan("duration", "long", "TICKS"), Field.of("gcId", "int"), Field.of("name", "java.lang.String"),
                Field.of("cause", "java.lang.String"));
        return type("jdk.GCHeapSummary", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                Field.of("gcId", "int"), Field.of("when", "java.lang.String"), Field.of("heapUsed", "long"));
    }

    /** Declares async-profiler's live object sample (profiler.LiveObject), with its thread and stack. */
    public JfrWriter liveObjectType() {
        return type("profiler.LiveObject", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                Field.pool("eventThread", "java.lang.Thread"), Field.pool("stackTrace", "jdk.types.StackTrace"),
                Field.timestamp("allocationTime", "long", "TICKS"), Field.of("allocationSize", "long"),
                Field.pool("objectClass", "java.lang.Class"));
    }

    /** Declares a type with the id given (which another type may have too). */
    public JfrWriter type(long id, String name, String superType, Field... fields) {
        types.put(name, new Type(id, name, superType, List.of(fields)));
        return this;
    }

    public long typeId(String name) {
        return types.get(name).id;
    }

    /**
     * Marks a declared type as the JDK marks its one-value types (jdk.types.FrameType, jdk.types.ThreadState):
     * {@code simpleType="true"}, which async-profiler's reader needs to read them as enums.
     */
    public JfrWriter simpleType(String name) {
        simpleTypes.add(name);
        return this;
    }

    /**
     * An event: values in field order; numbers for integral fields and pool keys, Boolean, Float, Double, String,
     * Object[] for an inline object, List or {@link Counted} for an array, {@link Raw} for anything.
     */
    public JfrWriter event(String type, Object... values) {
        byte[] body = encode(types.get(type), values);
        events.padded(body.length + 4).raw(body);
        return this;
    }

    /** An event whose size field says size (the bytes that follow are the event's as usual). */
    public JfrWriter eventSized(int size, String type, Object... values) {
        events.padded(size).raw(encode(types.get(type), values));
        return this;
    }

    /** A constant-pool entry of a type. */
    public JfrWriter constant(String type, long key, Object... values) {
        pools.computeIfAbsent(type, k -> new ArrayList<>()).add(new Bytes().varint(key).raw(encodeValues(types.get(type), values)).bytes());
        return this;
    }

    // ---- lies ----------------------------------------------------------------------------------------------------

    /** The pool of type announces count entries, whatever it holds. */
    public JfrWriter poolCount(String type, long count) {
        poolCounts.put(type, count);
        pools.computeIfAbsent(type, k -> new ArrayList<>());
        return this;
    }

    /** The metadata announces count strings. */
    public JfrWriter metadataStringCount(long count) {
        metadataStrings = count;
        return this;
    }

    /** The metadata's root gets one more child, a chain of elements depth deep. */
    public JfrWriter metadataDepth(int depth) {
        metadataDepth = depth;
        return this;
    }

    /** The checkpoint says the previous one is delta bytes away. */
    public JfrWriter checkpointDelta(long delta) {
        checkpointDelta = delta;
        return this;
    }

    /** Two checkpoints whose deltas point at each other (the header names the second). */
    public JfrWriter checkpointCycle() {
        checkpointCycle = true;
        return this;
    }

    /** The header says the chunk is excess bytes longer than it is. */
    public JfrWriter chunkSizeExcess(long excess) {
        chunkSizeExcess = excess;
        return this;
    }

    /** The header's metadata offset points at this fraction of (the chunk's size + 100). */
    public JfrWriter metadataOffsetAt(double fraction) {
        metadataOffsetAt = fraction;
        return this;
    }

    // ---- encoding ------------------------------------------------------------------------------------------------

    private byte[] encode(Type t, Object[] values) {
        return new Bytes().varint(t.id).raw(encodeValues(t, values)).bytes();
    }

    private byte[] encodeValues(Type t, Object[] values) {
        if (values.length != t.fields.size()) {
            throw new IllegalArgumentException(t.name + " has " + t.fields.size() + " fields, got " + values.length);
        }
        Bytes b = new Bytes();
        for (int i = 0; i < values.length; i++) {
            Field f = t.fields.get(i);
            Object v = values[i];
            if (v instanceof Raw raw) {
                b.raw(raw.bytes());
            } else if (f.array) {
                List<?> items = v instanceof Counted c ? c.items() : (List<?>) v;
                b.varint(v instanceof Counted c ? c.count() : items.size());
                for (Object o : items) {
                    value(b, f, o);
                }
            } else {
                value(b, f, v);
            }
        }
        return b.bytes();
    }

    private void value(Bytes b, Field f, Object v) {
        if (v instanceof Raw raw) {
            b.raw(raw.bytes());
            return;
        }
        if (f.pool) {
            b.varint(((Number) v).longValue());
            return;
        }
        switch (f.type) {
            case "boolean" -> b.u1((Boolean) v ? 1 : 0);
            case "byte" -> b.u1(((Number) v).byteValue());
            case "char", "short", "int", "long" -> b.varint(((Number) v).longValue());
            case "float" -> b.fixed(Float.floatToIntBits(((Number) v).floatValue()), 4);
            case "double" -> b.fixed(Double.doubleToLongBits(((Number) v).doubleValue()), 8);
            case "java.lang.String" -> b.string((String) v);
            default -> b.raw(encodeValues(types.get(f.type), (Object[]) v));
        }
    }

    /**
     * The pools spread over a chain of n checkpoints, each with its share of every pool's entries in turn, as the
     * JDK's flushes write a pool (each checkpoint the entries added since the one before).
     */
    public JfrWriter checkpoints(int n) {
        checkpoints = n;
        return this;
    }

    /** The complete chunk: header, events, the checkpoint with every pool, metadata. */
    public byte[] chunk() {
        Bytes out = new Bytes().raw(new byte[68]);
        out.raw(events.bytes());
        byte[] pooled = pools();
        int checkpointOffset = out.size();
        if (checkpointCycle) {
            int first = checkpointOffset;
            out.raw(checkpoint(checkpoint(0, pooled).length, pooled));
            checkpointOffset = out.size();
            out.raw(checkpoint(first - checkpointOffset, new Bytes().varint(0).bytes()));
        } else if (checkpoints > 1) {
            // each names the one before it; the header names the last
            int previous = -1;
            for (int part = 0; part < checkpoints; part++) {
                checkpointOffset = out.size();
                out.raw(checkpoint(previous < 0 ? 0 : previous - checkpointOffset, pools(part, checkpoints)));
                previous = checkpointOffset;
            }
        } else {
            out.raw(checkpoint(checkpointDelta == null ? 0 : checkpointDelta, pooled));
        }
        int metadataOffset = out.size();
        byte[] metadata = metadata();
        out.padded(metadata.length + 4).raw(metadata);
        byte[] chunk = out.bytes();
        long metadataAt = metadataOffsetAt == null ? metadataOffset : (long) (metadataOffsetAt * (chunk.length + 100));
        ByteBuffer.wrap(chunk).put(new byte[] {'F', 'L', 'R', 0}).putShort((short) 2).putShort((short) 1)
                .putLong(chunk.length + chunkSizeExcess).putLong(checkpointOffset).putLong(metadataAt)
                .putLong(startNanos).putLong(durationNanos).putLong(startTicks).putLong(ticksPerSecond).putInt(1);
        return chunk;
    }

    /** A checkpoint event; a small non-negative delta is padded, so that its length does not depend on the delta. */
    private static byte[] checkpoint(long delta, byte[] pools) {
        Bytes body = new Bytes().varint(1).varint(0).varint(0);   // checkpoint event type, start, duration
        if (delta >= 0 && delta < 1 << 28) {
            body.padded((int) delta);
        } else {
            body.varint(delta);
        }
        body.u1(1).raw(pools);                                      // flush flag
        byte[] b = body.bytes();
        return new Bytes().padded(b.length + 4).raw(b).bytes();
    }

    private byte[] pools() {
        Bytes b = new Bytes().varint(pools.size());
        pools.forEach((type, entries) -> {
            b.varint(types.get(type).id).varint(poolCounts.getOrDefault(type, (long) entries.size()));
            entries.forEach(b::raw);
        });
        return b.bytes();
    }

    /** The part-th of parts shares of every pool's entries (the stated counts are the shares' sizes). */
    private byte[] pools(int part, int parts) {
        Bytes b = new Bytes().varint(pools.size());
        pools.forEach((type, entries) -> {
            List<byte[]> share = entries.subList(entries.size() * part / parts, entries.size() * (part + 1) / parts);
            b.varint(types.get(type).id).varint(share.size());
            share.forEach(b::raw);
        });
        return b.bytes();
    }

    private byte[] metadata() {
        List<String> strings = new ArrayList<>();
        Bytes tree = new Bytes();
        element(tree, strings, "root", Map.of(), metadataDepth > 0 ? 3 : 2);
        element(tree, strings, "metadata", Map.of(), types.size());
        for (Type t : types.values()) {
            Map<String, String> attrs = new LinkedHashMap<>();
            attrs.put("id", Long.toString(t.id));
            attrs.put("name", t.name);
            if (t.superType != null) {
                attrs.put("superType", t.superType);
            }
            if (simpleTypes.contains(t.name)) {
                attrs.put("simpleType", "true");
            }
            element(tree, strings, "class", attrs, t.fields.size());
            for (Field f : t.fields) {
                Map<String, String> fa = new LinkedHashMap<>();
                fa.put("name", f.name);
                fa.put("class", f.type.startsWith("#") ? f.type.substring(1) : Long.toString(types.get(f.type).id));
                if (f.pool) {
                    fa.put("constantPool", "true");
                }
                if (f.array) {
                    fa.put("dimension", "1");
                }
                String unit = f.timestamp != null ? f.timestamp : f.timespan;
                element(tree, strings, "field", fa, unit == null ? 0 : 1);
                if (unit != null) {
                    String annotation = f.timestamp != null ? "jdk.jfr.Timestamp" : "jdk.jfr.Timespan";
                    element(tree, strings, "annotation", Map.of("class", Long.toString(types.get(annotation).id),
                            "value", unit), 0);
                }
            }
        }
        element(tree, strings, "region", Map.of("locale", "en_US", "gmtOffset", "0"), 0);
        for (int d = 0; d < metadataDepth; d++) {
            element(tree, strings, "deep", Map.of(), d < metadataDepth - 1 ? 1 : 0); // pre-order: each the only child
        }
        Bytes b = new Bytes().varint(0).varint(0).varint(0).varint(1);  // metadata event type, start, duration, id
        b.varint(metadataStrings != null ? metadataStrings : strings.size());
        strings.forEach(b::string);
        return b.raw(tree.bytes()).bytes();
    }

    private static void element(Bytes b, List<String> strings, String name, Map<String, String> attrs, int children) {
        b.varint(index(strings, name)).varint(attrs.size());
        attrs.forEach((k, v) -> b.varint(index(strings, k)).varint(index(strings, v)));
        b.varint(children);
    }

    private static int index(List<String> strings, String s) {
        int i = strings.indexOf(s);
        if (i < 0) {
            strings.add(s);
            i = strings.size() - 1;
        }
        return i;
    }

    /** A byte sink with JFR's encodings, for values a test writes as {@link Raw}. */
    public static final class Bytes {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        /** A compressed integer: 7 bits per byte, the 9th byte carrying 8. */
        public Bytes varint(long v) {
            for (int i = 0; i < 8 && (v & ~0x7fL) != 0; i++) {
                bytes.write((int) (v & 0x7f) | 0x80);
                v >>>= 7;
            }
            bytes.write((int) v);
            return this;
        }

        /** A compressed integer padded to 4 bytes, as the JDK writes event sizes. */
        public Bytes padded(int v) {
            bytes.write((v & 0x7f) | 0x80);
            bytes.write(((v >>> 7) & 0x7f) | 0x80);
            bytes.write(((v >>> 14) & 0x7f) | 0x80);
            bytes.write((v >>> 21) & 0x7f);
            return this;
        }

        public Bytes u1(int b) {
            bytes.write(b);
            return this;
        }

        /** A string as UTF-8 (encoding 3), or null (encoding 0). */
        public Bytes string(String s) {
            if (s == null) {
                return u1(0);
            }
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            u1(3).varint(utf8.length);
            bytes.writeBytes(utf8);
            return this;
        }

        Bytes fixed(long v, int n) {
            for (int i = n - 1; i >= 0; i--) {
                bytes.write((int) (v >>> (8 * i)));
            }
            return this;
        }

        public Bytes raw(byte[] b) {
            bytes.writeBytes(b);
            return this;
        }

        public int size() {
            return bytes.size();
        }

        public byte[] bytes() {
            return bytes.toByteArray();
        }
    }
}
