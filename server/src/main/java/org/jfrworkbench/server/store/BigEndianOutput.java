package org.jfrworkbench.server.store;

import java.io.DataOutput;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UTFDataFormatException;

/**
 * The bytes {@link java.io.DataOutputStream} writes, written into one array that is flushed to the stream when full:
 * a profile's millions of fields cost an array store each, not a call through a synchronized stream.
 */
final class BigEndianOutput implements DataOutput {
    /** Room for the longest modified UTF-8 string (65,535 bytes) with its length. */
    private final byte[] buf = new byte[1 << 17];
    private final OutputStream out;
    private int pos;

    BigEndianOutput(OutputStream out) {
        this.out = out;
    }

    private void room(int n) throws IOException {
        if (pos + n > buf.length) {
            out.write(buf, 0, pos);
            pos = 0;
        }
    }

    /** Writes what is buffered and flushes the stream (which stays open). */
    void flush() throws IOException {
        out.write(buf, 0, pos);
        pos = 0;
        out.flush();
    }

    @Override
    public void write(int b) throws IOException {
        room(1);
        buf[pos++] = (byte) b;
    }

    @Override
    public void write(byte[] b) throws IOException {
        write(b, 0, b.length);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (len > buf.length - pos) {
            out.write(buf, 0, pos);
            pos = 0;
            if (len > buf.length) {
                out.write(b, off, len);
                return;
            }
        }
        System.arraycopy(b, off, buf, pos, len);
        pos += len;
    }

    @Override
    public void writeBoolean(boolean v) throws IOException {
        write(v ? 1 : 0);
    }

    @Override
    public void writeByte(int v) throws IOException {
        write(v);
    }

    @Override
    public void writeShort(int v) throws IOException {
        room(2);
        buf[pos++] = (byte) (v >>> 8);
        buf[pos++] = (byte) v;
    }

    @Override
    public void writeChar(int v) throws IOException {
        writeShort(v);
    }

    @Override
    public void writeInt(int v) throws IOException {
        room(4);
        buf[pos++] = (byte) (v >>> 24);
        buf[pos++] = (byte) (v >>> 16);
        buf[pos++] = (byte) (v >>> 8);
        buf[pos++] = (byte) v;
    }

    @Override
    public void writeLong(long v) throws IOException {
        room(8);
        for (int shift = 56; shift >= 0; shift -= 8) {
            buf[pos++] = (byte) (v >>> shift);
        }
    }

    @Override
    public void writeFloat(float v) throws IOException {
        writeInt(Float.floatToIntBits(v));
    }

    @Override
    public void writeDouble(double v) throws IOException {
        writeLong(Double.doubleToLongBits(v));
    }

    @Override
    public void writeBytes(String s) throws IOException {
        for (int i = 0; i < s.length(); i++) {
            write(s.charAt(i));
        }
    }

    @Override
    public void writeChars(String s) throws IOException {
        for (int i = 0; i < s.length(); i++) {
            writeChar(s.charAt(i));
        }
    }

    /** Modified UTF-8, as {@link java.io.DataOutputStream#writeUTF} writes it. */
    @Override
    public void writeUTF(String s) throws IOException {
        int n = s.length();
        int bytes = n;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x80 || c == 0) {
                bytes += c >= 0x800 ? 2 : 1;
            }
        }
        if (bytes > 65535) {
            throw new UTFDataFormatException("encoded string too long: " + bytes + " bytes");
        }
        room(2 + bytes);
        buf[pos++] = (byte) (bytes >>> 8);
        buf[pos++] = (byte) bytes;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c != 0 && c < 0x80) {
                buf[pos++] = (byte) c;
            } else if (c < 0x800) {
                buf[pos++] = (byte) (0xC0 | (c >> 6));
                buf[pos++] = (byte) (0x80 | (c & 0x3F));
            } else {
                buf[pos++] = (byte) (0xE0 | (c >> 12));
                buf[pos++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                buf[pos++] = (byte) (0x80 | (c & 0x3F));
            }
        }
    }
}
