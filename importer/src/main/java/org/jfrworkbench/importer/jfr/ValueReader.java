package org.jfrworkbench.importer.jfr;

import java.util.ArrayList;
import java.util.List;

import org.jfrworkbench.importer.InvalidRecordingException;

/**
 * Reads or skips values of any metadata-described type. Materialised values are Long (integral, boolean, char,
 * and constant-pool keys), Double, String / {@link JfrInput.StringRef}, Object[] (a nested object's fields in order)
 * and List (arrays). Recursion depth and the work per record are bounded so corrupt metadata cannot hang or
 * overflow the stack.
 */
final class ValueReader {
    private static final int MAX_DEPTH = 64;

    private final JfrInput in;
    private JfrInput.StringPool strings;
    private long steps;
    private long budget = Long.MAX_VALUE;

    ValueReader(JfrInput in) {
        this.in = in;
    }

    void strings(JfrInput.StringPool pool) {
        this.strings = pool;
    }

    /** Limits the work for the next record to what its byte size can justify. */
    void budget(long bytes) {
        steps = 0;
        budget = 4096 + 16 * bytes;
    }

    private void step(int depth) throws InvalidRecordingException {
        if (++steps > budget) {
            throw in.error("value structure too large for its record");
        }
        if (depth > MAX_DEPTH) {
            throw in.error("values nested deeper than " + MAX_DEPTH + " (cyclic metadata?)");
        }
    }

    /** A scalar field as a long: constant-pool key, integral value, boolean 0/1, float/double raw bits. */
    long scalar(JfrField f) throws InvalidRecordingException {
        if (f.constantPool) {
            return in.readLong();
        }
        return primitive(f.type);
    }

    long primitive(JfrType t) throws InvalidRecordingException {
        return switch (t.primitive) {
            case JfrType.BOOLEAN -> in.u1() != 0 ? 1 : 0;
            case JfrType.BYTE -> (byte) in.u1();
            case JfrType.CHAR -> in.readChar();
            case JfrType.SHORT -> in.readShort();
            case JfrType.INT -> in.readInt();
            case JfrType.LONG -> in.readLong();
            case JfrType.FLOAT -> Double.doubleToRawLongBits(in.readFloat());
            case JfrType.DOUBLE -> Double.doubleToRawLongBits(in.readDouble());
            default -> throw in.error("type " + t.name + " is not a scalar");
        };
    }

    /** Whether a field's value is read as a long by {@link #scalar}. */
    static boolean isScalar(JfrField f) {
        return !f.array && (f.constantPool || f.type.primitive < JfrType.STRING);
    }

    Object read(JfrField f, int depth) throws InvalidRecordingException {
        step(depth);
        if (f.array) {
            int n = in.readCount("array element");
            List<Object> list = new ArrayList<>(Math.min(n, 16));
            for (int i = 0; i < n; i++) {
                list.add(element(f, depth + 1));
            }
            return list;
        }
        return element(f, depth);
    }

    private Object element(JfrField f, int depth) throws InvalidRecordingException {
        if (f.constantPool) {
            return in.readLong();
        }
        return value(f.type, depth);
    }

    /** One (non-array, inline) value of a type. */
    Object value(JfrType t, int depth) throws InvalidRecordingException {
        step(depth);
        switch (t.primitive) {
            case JfrType.STRING:
                return in.readString(strings);
            case JfrType.FLOAT:
                return (double) in.readFloat();
            case JfrType.DOUBLE:
                return in.readDouble();
            case JfrType.OBJECT: {
                JfrField[] fields = t.fields;
                Object[] values = new Object[fields.length];
                for (int i = 0; i < fields.length; i++) {
                    values[i] = read(fields[i], depth + 1);
                }
                return values;
            }
            default:
                return primitive(t);
        }
    }

    void skip(JfrField f, int depth) throws InvalidRecordingException {
        step(depth);
        if (f.array) {
            int n = in.readCount("array element");
            for (int i = 0; i < n; i++) {
                skipElement(f, depth + 1);
            }
        } else {
            skipElement(f, depth);
        }
    }

    private void skipElement(JfrField f, int depth) throws InvalidRecordingException {
        if (f.constantPool) {
            in.readLong();
        } else {
            skipValue(f.type, depth);
        }
    }

    void skipValue(JfrType t, int depth) throws InvalidRecordingException {
        switch (t.primitive) {
            case JfrType.STRING -> in.skipString();
            case JfrType.OBJECT -> {
                step(depth);
                for (JfrField f : t.fields) {
                    skip(f, depth + 1);
                }
            }
            default -> primitive(t);
        }
    }
}
