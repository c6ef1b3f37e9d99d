package org.jfrworkbench.server.store;

import java.io.DataInput;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads what {@link BigEndianOutput} (or {@link java.io.DataOutputStream}) wrote, from one array refilled from the
 * stream: a field costs an array read, not a call through a synchronized stream. It reads ahead of what it is asked.
 */
final class BigEndianInput implements DataInput {
    private final byte[] buf = new byte[1 << 16];
    private final InputStream in;
    private int pos;
    private int limit;

    BigEndianInput(InputStream in) {
        this.in = in;
    }

    /** Makes n (at most the buffer's size) bytes available from pos. */
    private void need(int n) throws IOException {
        if (limit - pos >= n) {
            return;
        }
        System.arraycopy(buf, pos, buf, 0, limit - pos);
        limit -= pos;
        pos = 0;
        while (limit < n) {
            int r = in.read(buf, limit, buf.length - limit);
            if (r < 0) {
                throw new EOFException();
            }
            limit += r;
        }
    }

    @Override
    public void readFully(byte[] b) throws IOException {
        readFully(b, 0, b.length);
    }

    @Override
    public void readFully(byte[] b, int off, int len) throws IOException {
        int buffered = Math.min(len, limit - pos);
        System.arraycopy(buf, pos, b, off, buffered);
        pos += buffered;
        for (int done = buffered; done < len; ) {
            int r = in.read(b, off + done, len - done);
            if (r < 0) {
                throw new EOFException();
            }
            done += r;
        }
    }

    @Override
    public int skipBytes(int n) throws IOException {
        int skipped = 0;
        while (skipped < n) {
            if (pos == limit) {
                try {
                    need(1);
                } catch (EOFException e) {
                    break;
                }
            }
            int step = Math.min(n - skipped, limit - pos);
            pos += step;
            skipped += step;
        }
        return skipped;
    }

    @Override
    public boolean readBoolean() throws IOException {
        return readByte() != 0;
    }

    @Override
    public byte readByte() throws IOException {
        need(1);
        return buf[pos++];
    }

    @Override
    public int readUnsignedByte() throws IOException {
        return readByte() & 0xFF;
    }

    @Override
    public short readShort() throws IOException {
        need(2);
        short v = (short) (((buf[pos] & 0xFF) << 8) | (buf[pos + 1] & 0xFF));
        pos += 2;
        return v;
    }

    @Override
    public int readUnsignedShort() throws IOException {
        return readShort() & 0xFFFF;
    }

    @Override
    public char readChar() throws IOException {
        return (char) readShort();
    }

    @Override
    public int readInt() throws IOException {
        need(4);
        int v = ((buf[pos] & 0xFF) << 24) | ((buf[pos + 1] & 0xFF) << 16) | ((buf[pos + 2] & 0xFF) << 8) | (buf[pos + 3] & 0xFF);
        pos += 4;
        return v;
    }

    @Override
    public long readLong() throws IOException {
        need(8);
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (buf[pos + i] & 0xFF);
        }
        pos += 8;
        return v;
    }

    @Override
    public float readFloat() throws IOException {
        return Float.intBitsToFloat(readInt());
    }

    @Override
    public double readDouble() throws IOException {
        return Double.longBitsToDouble(readLong());
    }

    @Override
    @Deprecated
    public String readLine() {
        throw new UnsupportedOperationException("a profile holds no lines");
    }

    @Override
    public String readUTF() throws IOException {
        return DataInputStream.readUTF(this);
    }
}
