package org.jfrworkbench.importer.jfr;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jfrworkbench.importer.InvalidRecordingException;

/**
 * Reads a chunk's metadata event: a string table followed by a tree of elements (root > metadata > class > field >
 * annotation). Builds the chunk's {@link JfrType}s; nothing about any event layout is assumed.
 */
final class MetadataReader {
    private static final int MAX_DEPTH = 32;

    private final JfrInput in;
    private String[] strings;
    private final List<JfrType> types = new ArrayList<>();
    /** annotation (type id, string index of value) per field, resolved once all classes are known */
    private final List<Object[]> fieldAnnotations = new ArrayList<>();

    private MetadataReader(JfrInput in) {
        this.in = in;
    }

    /** Reads the metadata event at the input's position; returns the types keyed by id. */
    static ChunkTypes read(JfrInput in) throws InvalidRecordingException {
        return new MetadataReader(in).readEvent();
    }

    private ChunkTypes readEvent() throws InvalidRecordingException {
        int start = in.pos;
        int size = in.readInt();
        if (size <= 0 || size > in.limit() - start) {
            throw new InvalidRecordingException(in.fileOffset(start), "metadata event size " + size + " does not fit the chunk");
        }
        long type = in.readLong();
        if (type != 0) {
            throw in.error("expected the metadata event (type 0), found type " + type);
        }
        in.readLong(); // start time
        in.readLong(); // duration
        in.readLong(); // metadata id
        int n = in.readCount("metadata string");
        strings = new String[n];
        for (int i = 0; i < n; i++) {
            Object s = in.readString(null);
            strings[i] = s instanceof String str ? str : "";
        }
        readElement(0, null);
        return link();
    }

    private String string(int index) throws InvalidRecordingException {
        if (index < 0 || index >= strings.length) {
            throw in.error("metadata string index " + index + " out of range");
        }
        return strings[index];
    }

    /** Reads one element and its children; parent is the type whose fields/annotations we are in. */
    private void readElement(int depth, Object parent) throws InvalidRecordingException {
        if (depth > MAX_DEPTH) {
            throw in.error("metadata nested deeper than " + MAX_DEPTH);
        }
        String name = string(in.readInt());
        int attributeCount = in.readCount("metadata attribute");
        Map<String, String> attributes = new HashMap<>();
        for (int i = 0; i < attributeCount; i++) {
            String key = string(in.readInt());
            attributes.put(key, string(in.readInt()));
        }
        Object self = parent;
        switch (name) {
            case "class" -> {
                JfrType t = new JfrType(parseLong(attributes.get("id"), "class id"),
                        require(attributes.get("name"), "class name"), attributes.get("superType"));
                types.add(t);
                self = new ClassBuilder(t);
            }
            case "field" -> {
                if (parent instanceof ClassBuilder cb) {
                    JfrField f = new JfrField(require(attributes.get("name"), "field name"),
                            parseLong(attributes.get("class"), "field class"),
                            "true".equals(attributes.get("constantPool")),
                            attributes.get("dimension") != null && !"0".equals(attributes.get("dimension")));
                    cb.fields.add(f);
                    self = f;
                }
            }
            case "annotation" -> {
                if (parent instanceof JfrField f && attributes.get("value") != null) {
                    fieldAnnotations.add(new Object[] {f, parseLong(attributes.get("class"), "annotation class"),
                            attributes.get("value")});
                }
            }
            default -> { }
        }
        int children = in.readCount("metadata element");
        for (int i = 0; i < children; i++) {
            readElement(depth + 1, self);
        }
        if (self instanceof ClassBuilder cb && self != parent) {
            cb.type.fields = cb.fields.toArray(new JfrField[0]);
        }
    }

    private ChunkTypes link() throws InvalidRecordingException {
        ChunkTypes result = new ChunkTypes(types);
        for (JfrType t : types) {
            for (JfrField f : t.fields) {
                f.type = result.byId(f.typeId);
                if (f.type == null) {
                    throw in.error("field " + t.name + "." + f.name + " has undeclared type id " + f.typeId);
                }
                int p = f.type.primitive;
                f.varint = in.compressed() && !f.array && (f.constantPool
                        || p == JfrType.CHAR || p == JfrType.SHORT || p == JfrType.INT || p == JfrType.LONG);
            }
        }
        for (Object[] a : fieldAnnotations) {
            JfrType annotation = result.byId((Long) a[1]);
            if (annotation != null && (annotation.name.equals("jdk.jfr.Timestamp")
                    || annotation.name.equals("jdk.jfr.Timespan"))) {
                ((JfrField) a[0]).timeUnit((String) a[2]);
            }
        }
        return result;
    }

    private long parseLong(String s, String what) throws InvalidRecordingException {
        try {
            return Long.parseLong(require(s, what));
        } catch (NumberFormatException e) {
            throw in.error("metadata " + what + " is not a number: " + s);
        }
    }

    private String require(String s, String what) throws InvalidRecordingException {
        if (s == null) {
            throw in.error("metadata " + what + " missing");
        }
        return s;
    }

    private static final class ClassBuilder {
        final JfrType type;
        final List<JfrField> fields = new ArrayList<>();

        ClassBuilder(JfrType type) {
            this.type = type;
        }
    }
}
