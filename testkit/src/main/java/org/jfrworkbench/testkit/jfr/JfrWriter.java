package org.jfrworkbench.testkit.jfr;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes JFR chunks (version 2, compressed integers) whose metadata the test chooses: any types, fields in any order
 * and of any type, so the importer can be checked on layouts no JDK or profiler writes. One instance is one chunk;
 * the primitive types and java.lang.String are declared up front, time is in nanosecond ticks from the chunk start
 * unless the chunk is given a clock of its own (start tick and ticks per second).
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
    }

    private record Type(long id, String name, String superType, List<Field> fields) {
    }

    public static final long START_NANOS = 1_700_000_000_000_000_000L;

    private final Map<String, Type> types = new LinkedHashMap<>();
    private final ByteArrayOutputStream events = new ByteArrayOutputStream();
    private final Map<String, List<byte[]>> pools = new LinkedHashMap<>();
    private final long startNanos;
    private final long durationNanos;
    private final long startTicks;
    private final long ticksPerSecond;

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
        types.put(name, new Type(100 + types.size(), name, superType, List.of(fields)));
        return this;
    }

    /**
     * An event: values in field order; numbers for integral fields and pool keys, Boolean, Float, Double, String,
     * Object[] for an inline object, List for an array.
     */
    public JfrWriter event(String type, Object... values) {
        byte[] body = encode(types.get(type), values);
        writeSized(events, body);
        return this;
    }

    /** A constant-pool entry of a type. */
    public JfrWriter constant(String type, long key, Object... values) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        varint(b, key);
        b.writeBytes(encodeValues(types.get(type), values));
        pools.computeIfAbsent(type, k -> new ArrayList<>()).add(b.toByteArray());
        return this;
    }

    private byte[] encode(Type t, Object[] values) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        varint(b, t.id);
        b.writeBytes(encodeValues(t, values));
        return b.toByteArray();
    }

    private byte[] encodeValues(Type t, Object[] values) {
        if (values.length != t.fields.size()) {
            throw new IllegalArgumentException(t.name + " has " + t.fields.size() + " fields, got " + values.length);
        }
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int i = 0; i < values.length; i++) {
            Field f = t.fields.get(i);
            if (f.array) {
                List<?> list = (List<?>) values[i];
                varint(b, list.size());
                for (Object o : list) {
                    value(b, f, o);
                }
            } else {
                value(b, f, values[i]);
            }
        }
        return b.toByteArray();
    }

    private void value(ByteArrayOutputStream b, Field f, Object v) {
        if (f.pool) {
            varint(b, ((Number) v).longValue());
            return;
        }
        switch (f.type) {
            case "boolean" -> b.write((Boolean) v ? 1 : 0);
            case "byte" -> b.write(((Number) v).byteValue());
            case "char", "short", "int", "long" -> varint(b, ((Number) v).longValue());
            case "float" -> fixed(b, Float.floatToIntBits(((Number) v).floatValue()), 4);
            case "double" -> fixed(b, Double.doubleToLongBits(((Number) v).doubleValue()), 8);
            case "java.lang.String" -> string(b, (String) v);
            default -> b.writeBytes(encodeValues(types.get(f.type), (Object[]) v));
        }
    }

    /** The complete chunk: header, events, one checkpoint with every pool, metadata. */
    public byte[] chunk() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[68]);
        out.writeBytes(events.toByteArray());
        int checkpointOffset = out.size();
        writeSized(out, checkpoint());
        int metadataOffset = out.size();
        writeSized(out, metadata());
        byte[] chunk = out.toByteArray();
        java.nio.ByteBuffer h = java.nio.ByteBuffer.wrap(chunk);
        h.put(new byte[] {'F', 'L', 'R', 0}).putShort((short) 2).putShort((short) 1).putLong(chunk.length)
                .putLong(checkpointOffset).putLong(metadataOffset).putLong(startNanos).putLong(durationNanos)
                .putLong(startTicks).putLong(ticksPerSecond).putInt(1);
        return chunk;
    }

    private byte[] checkpoint() {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        varint(b, 1);             // checkpoint event type
        varint(b, 0);             // start
        varint(b, 0);             // duration
        varint(b, 0);             // delta to the previous checkpoint: none
        b.write(1);               // flush flag
        varint(b, pools.size());
        pools.forEach((type, entries) -> {
            varint(b, types.get(type).id);
            varint(b, entries.size());
            entries.forEach(b::writeBytes);
        });
        return b.toByteArray();
    }

    private byte[] metadata() {
        List<String> strings = new ArrayList<>();
        ByteArrayOutputStream tree = new ByteArrayOutputStream();
        element(tree, strings, "root", Map.of(), 2);
        element(tree, strings, "metadata", Map.of(), types.size());
        for (Type t : types.values()) {
            Map<String, String> attrs = new LinkedHashMap<>();
            attrs.put("id", Long.toString(t.id));
            attrs.put("name", t.name);
            if (t.superType != null) {
                attrs.put("superType", t.superType);
            }
            element(tree, strings, "class", attrs, t.fields.size());
            for (Field f : t.fields) {
                Map<String, String> fa = new LinkedHashMap<>();
                fa.put("name", f.name);
                fa.put("class", Long.toString(types.get(f.type).id));
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
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        varint(b, 0);   // metadata event type
        varint(b, 0);
        varint(b, 0);
        varint(b, 1);   // metadata id
        varint(b, strings.size());
        strings.forEach(s -> string(b, s));
        b.writeBytes(tree.toByteArray());
        return b.toByteArray();
    }

    private static void element(ByteArrayOutputStream b, List<String> strings, String name, Map<String, String> attrs,
                                int children) {
        varint(b, index(strings, name));
        varint(b, attrs.size());
        attrs.forEach((k, v) -> {
            varint(b, index(strings, k));
            varint(b, index(strings, v));
        });
        varint(b, children);
    }

    private static int index(List<String> strings, String s) {
        int i = strings.indexOf(s);
        if (i < 0) {
            strings.add(s);
            i = strings.size() - 1;
        }
        return i;
    }

    /** An event or checkpoint: its size (including the size itself, as a padded 4-byte varint), then the body. */
    private static void writeSized(ByteArrayOutputStream out, byte[] body) {
        int size = body.length + 4;
        out.write(0x80 | (size & 0x7f));
        out.write(0x80 | ((size >>> 7) & 0x7f));
        out.write(0x80 | ((size >>> 14) & 0x7f));
        out.write((size >>> 21) & 0x7f);
        out.writeBytes(body);
    }

    private static void string(ByteArrayOutputStream b, String s) {
        if (s == null) {
            b.write(0);
            return;
        }
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        b.write(3);
        varint(b, utf8.length);
        b.writeBytes(utf8);
    }

    static void varint(ByteArrayOutputStream b, long v) {
        for (int i = 0; i < 8 && (v & ~0x7fL) != 0; i++) {
            b.write((int) (v & 0x7f) | 0x80);
            v >>>= 7;
        }
        b.write((int) v);
    }

    private static void fixed(ByteArrayOutputStream b, long v, int bytes) {
        for (int i = bytes - 1; i >= 0; i--) {
            b.write((int) (v >>> (8 * i)));
        }
    }
}
