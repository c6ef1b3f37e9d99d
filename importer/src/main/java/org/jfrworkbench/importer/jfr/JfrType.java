package org.jfrworkbench.importer.jfr;

/** A class described by a chunk's metadata: its id, name, primitive kind (or OBJECT) and fields in wire order. */
final class JfrType {
    static final int BOOLEAN = 0, BYTE = 1, CHAR = 2, SHORT = 3, INT = 4, LONG = 5, FLOAT = 6, DOUBLE = 7,
            STRING = 8, OBJECT = 9;

    final long id;
    final String name;
    final String superType;
    final int primitive;
    JfrField[] fields = new JfrField[0];
    /** Dense index of this type within its chunk, for per-type arrays. */
    int index;

    JfrType(long id, String name, String superType) {
        this.id = id;
        this.name = name;
        this.superType = superType;
        this.primitive = primitiveOf(name);
    }

    boolean isEvent() {
        return "jdk.jfr.Event".equals(superType);
    }

    /** Position of the field with this name, or -1. */
    int field(String fieldName) {
        for (int i = 0; i < fields.length; i++) {
            if (fields[i].name.equals(fieldName)) {
                return i;
            }
        }
        return -1;
    }

    private static int primitiveOf(String name) {
        return switch (name) {
            case "boolean" -> BOOLEAN;
            case "byte" -> BYTE;
            case "char" -> CHAR;
            case "short" -> SHORT;
            case "int" -> INT;
            case "long" -> LONG;
            case "float" -> FLOAT;
            case "double" -> DOUBLE;
            case "java.lang.String" -> STRING;
            default -> OBJECT;
        };
    }

    @Override
    public String toString() {
        return name + "#" + id;
    }
}
