package org.jfrworkbench.server.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The JSON header of the binary answers (FlameGraphBinary, DiffBinary), the same bytes as Jackson writes the header's
 * map, with its name dictionary written here. A view's dictionary is tens of thousands of names, a megabyte of text
 * (25,000 names in a 127,000-node range view of a service's recording): through Jackson, as a String and then its
 * bytes, it was most of the answer's encoding (6-7 of 7-8 ms, where the view's build took 13-16 ms), while these names
 * are plain ASCII, copied byte for byte here in half that time or less.
 */
final class BinaryHeader {
    private BinaryHeader() {
    }

    /** A list of strings the header writes itself (a name dictionary). */
    record Names(List<String> names) {
    }

    /** header as JSON in UTF-8, as {@code json.writeValueAsBytes(header)} writes it with each {@link Names} a list. */
    static byte[] write(Map<String, Object> header, ObjectMapper json) throws JsonProcessingException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(1 << 12);
        try (JsonGenerator g = json.getFactory().createGenerator(bytes)) {
            g.writeStartObject();
            for (Map.Entry<String, Object> e : header.entrySet()) {
                g.writeFieldName(e.getKey());
                if (e.getValue() instanceof Names names) {
                    // the generator writes the separator and counts the value; the array goes straight to the bytes
                    g.writeRawValue("");
                    g.flush();
                    bytes.writeBytes(array(names.names(), json));
                } else {
                    g.writeObject(e.getValue());
                }
            }
            g.writeEndObject();
        } catch (JsonProcessingException e) {
            throw e;
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
        }
        return bytes.toByteArray();
    }

    /**
     * strings as a JSON array: a string of printable ASCII but quote and backslash is its own bytes in quotes; any
     * other (to escape, or not ASCII) is written by Jackson, so the bytes stay Jackson's.
     */
    static byte[] array(List<String> strings, ObjectMapper json) throws JsonProcessingException {
        int n = strings.size();
        int size = 2 + Math.max(0, n - 1);
        for (String s : strings) {
            size += s.length() + 2;
        }
        byte[] out = new byte[size];
        int at = 0;
        out[at++] = '[';
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                out[at++] = ',';
            }
            String s = strings.get(i);
            int start = at;
            out[at++] = '"';
            int len = s.length();
            int c = 0;
            for (; c < len; c++) {
                char ch = s.charAt(c);
                if (ch < 0x20 || ch >= 0x7F || ch == '"' || ch == '\\') {
                    break;
                }
                out[at++] = (byte) ch;
            }
            if (c == len) {
                out[at++] = '"';
            } else {
                byte[] escaped = json.writeValueAsBytes(s);
                size += escaped.length - (len + 2);
                if (size > out.length) {
                    out = Arrays.copyOf(out, size);
                }
                System.arraycopy(escaped, 0, out, start, escaped.length);
                at = start + escaped.length;
            }
        }
        out[at++] = ']';
        return at == out.length ? out : Arrays.copyOf(out, at);
    }
}
