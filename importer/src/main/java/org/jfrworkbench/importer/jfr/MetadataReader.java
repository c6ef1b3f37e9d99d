package org.jfrworkbench.importer.jfr;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

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
    /**
     * The current element's attributes, names and values, reused from element to element (they are read before its
     * children): the JDK's metadata has thousands of elements, and a map each was a megabyte per chunk.
     */
    private String[] attributeNames = new String[8];
    private String[] attributeValues = new String[8];
    private int attributeCount;

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
        readAttributes();
        Object self = parent;
        switch (name) {
            case "class" -> {
                JfrType t = new JfrType(parseLong(attribute("id"), "class id"),
                        require(attribute("name"), "class name"), attribute("superType"));
                types.add(t);
                self = new ClassBuilder(t);
            }
            case "field" -> {
                if (parent instanceof ClassBuilder cb) {
                    JfrField f = new JfrField(require(attribute("name"), "field name"),
                            parseLong(attribute("class"), "field class"),
                            "true".equals(attribute("constantPool")),
                            attribute("dimension") != null && !"0".equals(attribute("dimension")));
                    cb.fields.add(f);
                    self = f;
                }
            }
            case "annotation" -> {
                if (parent instanceof JfrField f && attribute("value") != null) {
                    fieldAnnotations.add(new Object[] {f, parseLong(attribute("class"), "annotation class"),
                            attribute("value")});
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

    private void readAttributes() throws InvalidRecordingException {
        int n = in.readCount("metadata attribute");
        for (int i = 0; i < n; i++) {
            if (i == attributeNames.length) {
                // grown as they are read, not to the count: a count is only bounded by the bytes left
                attributeNames = Arrays.copyOf(attributeNames, 2 * i);
                attributeValues = Arrays.copyOf(attributeValues, 2 * i);
            }
            attributeNames[i] = string(in.readInt());
            attributeValues[i] = string(in.readInt());
        }
        attributeCount = n;
    }

    /** The current element's value of the attribute name, the last one given; null when absent. */
    private String attribute(String name) {
        for (int i = attributeCount - 1; i >= 0; i--) {
            if (attributeNames[i].equals(name)) {
                return attributeValues[i];
            }
        }
        return null;
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
