package org.jfrworkbench.importer.jfr;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import org.jfrworkbench.importer.InvalidRecordingException;

/**
 * Reads the primitive encodings of one chunk: LEB128-style compressed integers or fixed big-endian ones (per the
 * chunk's features flag), floats, and JFR's string encodings. Every length read from the file is checked against
 * the bytes that remain before anything is allocated for it.
 */
final class JfrInput {
    /** What a string encoded as a constant-pool reference (encoding 2) resolves to. */
    interface StringPool {
        Object string(long key);
    }

    static final VarHandle LITTLE_ENDIAN_LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LITTLE_ENDIAN_LONG_BUFFER =
            MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    /** The high bit of each byte of a little-endian long: set while a compressed integer continues. */
    static final long STOP_BITS = 0x8080808080808080L;
    static final long VALUE_BITS = 0x7f7f7f7f7f7f7f7fL;

    private final ByteBuffer buf;
    /** The chunk's bytes on the heap when it is small enough to copy: faster to read than the mapped buffer. */
    private final byte[] bytes;
    private final long fileOffset;
    private final int limit;
    private final boolean compressed;
    /** Room for the bytes of a string of the mapped file, see {@link #decode}. */
    private final byte[] scratch = new byte[4096];
    int pos;

    JfrInput(ByteBuffer buf, byte[] bytes, long fileOffset, boolean compressed) {
        this.buf = buf;
        this.bytes = bytes;
        this.fileOffset = fileOffset;
        this.limit = buf.limit();
        this.compressed = compressed;
    }

    /** A reader of the same chunk at its own position, for a second thread. */
    JfrInput copy() {
        return new JfrInput(buf, bytes, fileOffset, compressed);
    }

    int limit() {
        return limit;
    }

    /** The chunk's heap copy, or null when it is read from the mapped file. */
    byte[] heapBytes() {
        return bytes;
    }

    /**
     * The eight bytes at chunk position p as a little-endian long, from the heap copy or the mapped file; the caller
     * makes sure they lie in the chunk. What the fast paths read eight bytes at a time with.
     */
    long word(int p) {
        byte[] b = bytes;
        return b != null ? (long) LITTLE_ENDIAN_LONG.get(b, p) : (long) LITTLE_ENDIAN_LONG_BUFFER.get(buf, p);
    }

    /** The byte at chunk position p, which the caller makes sure lies in the chunk. */
    int byteAt(int p) {
        byte[] b = bytes;
        return (b != null ? b[p] : buf.get(p)) & 0xff;
    }

    int remaining() {
        return limit - pos;
    }

    /** File offset of a chunk-relative position, for error messages. */
    long fileOffset(int chunkPos) {
        return fileOffset + chunkPos;
    }

    InvalidRecordingException error(String reason) {
        return new InvalidRecordingException(fileOffset + pos, reason);
    }

    private void need(int n) throws InvalidRecordingException {
        if (n < 0 || n > limit - pos) {
            throw error("unexpected end of chunk");
        }
    }

    int u1() throws InvalidRecordingException {
        if (pos >= limit) {
            throw error("unexpected end of chunk");
        }
        return (bytes != null ? bytes[pos++] : buf.get(pos++)) & 0xff;
    }

    boolean compressed() {
        return compressed;
    }

    long varLong() throws InvalidRecordingException {
        int p = pos;
        if (limit - p >= 9) {
            // 8 bytes at once, no branch per byte: the value ends at the first byte without the high bit
            long w = word(p);
            long stops = ~w & STOP_BITS;
            if (stops != 0) {
                int bits = Long.numberOfTrailingZeros(stops) + 1;
                pos = p + (bits >>> 3);
                return Long.compress(w & (-1L >>> -bits), VALUE_BITS);
            }
            pos = p + 9;
            return Long.compress(w, VALUE_BITS) | (long) byteAt(p + 8) << 56;
        }
        return varLongChecked();
    }

    /**
     * Moves past count compressed integers. Eight bytes are looked at at once: a value ends at each byte without the
     * high bit, so counting those bytes counts values. A nine-byte value (its last byte may have the high bit set)
     * shows as eight bytes with the high bit in a row, and is read on its own, as are the last bytes of the chunk.
     */
    void skipVarints(long count) throws InvalidRecordingException {
        int p = pos;
        // continuation bytes since the last value ended: the value being skipped began that many bytes before p
        int run = 0;
        while (count > 0) {
            for (int end = limit - 8; count > 0 && p <= end; ) {
                long w = word(p);
                long stops = ~w & STOP_BITS;
                if (stops == 0 || run + (Long.numberOfTrailingZeros(stops) >>> 3) >= 8) {
                    break;
                }
                int ends = Long.bitCount(stops);
                if (ends < count) {
                    count -= ends;
                    run = Long.numberOfLeadingZeros(stops) >>> 3;
                    p += 8;
                } else {
                    for (long k = count; k > 1; k--) {
                        stops &= stops - 1;
                    }
                    p += (Long.numberOfTrailingZeros(stops) >>> 3) + 1;
                    count = 0;
                    run = 0;
                }
            }
            if (count > 0) {
                // a nine-byte value, or the chunk's last bytes: one value read on its own, from its start
                pos = p - run;
                varLong();
                count--;
                p = pos;
                run = 0;
            }
        }
        pos = p;
    }

    private long varLongChecked() throws InvalidRecordingException {
        long result = 0;
        for (int shift = 0; shift < 56; shift += 7) {
            int b = u1();
            result |= (long) (b & 0x7f) << shift;
            if (b < 0x80) {
                return result;
            }
        }
        return result | ((long) u1() << 56);
    }

    long readLong() throws InvalidRecordingException {
        if (compressed) {
            return varLong();
        }
        need(8);
        long v = buf.getLong(pos);
        pos += 8;
        return v;
    }

    int readInt() throws InvalidRecordingException {
        if (compressed) {
            return (int) varLong();
        }
        need(4);
        int v = buf.getInt(pos);
        pos += 4;
        return v;
    }

    short readShort() throws InvalidRecordingException {
        if (compressed) {
            return (short) varLong();
        }
        need(2);
        short v = buf.getShort(pos);
        pos += 2;
        return v;
    }

    char readChar() throws InvalidRecordingException {
        return (char) readShort();
    }

    float readFloat() throws InvalidRecordingException {
        need(4);
        float v = buf.getFloat(pos);
        pos += 4;
        return v;
    }

    double readDouble() throws InvalidRecordingException {
        need(8);
        double v = buf.getDouble(pos);
        pos += 8;
        return v;
    }

    /** Moves to the event at chunk position p and reads its size, which must be positive and fit the chunk. */
    int eventSize(int p) throws InvalidRecordingException {
        pos = p;
        int size = readInt();
        if (size <= 0 || size > limit - p) {
            throw new InvalidRecordingException(fileOffset + p, "event size " + size + " does not fit the chunk");
        }
        return size;
    }

    /** A count or length: non-negative and at most the bytes left (each item takes at least one byte). */
    int readCount(String what) throws InvalidRecordingException {
        int n = readInt();
        if (n < 0 || n > limit - pos) {
            throw error(what + " count " + n + " exceeds the " + (limit - pos) + " bytes left");
        }
        return n;
    }

    void skip(int n) throws InvalidRecordingException {
        need(n);
        pos += n;
    }

    /** Reads a string value; pool references go through the pool (may be null during pool reading). */
    Object readString(StringPool pool) throws InvalidRecordingException {
        int encoding = u1();
        switch (encoding) {
            case 0:
                return null;
            case 1:
                return "";
            case 2: {
                long key = readLong();
                return pool == null ? new StringRef(key) : pool.string(key);
            }
            case 3:
                return decode(readCount("string byte"), StandardCharsets.UTF_8);
            case 4: {
                int n = readCount("string char");
                char[] chars = new char[n];
                for (int i = 0; i < n; i++) {
                    chars[i] = readChar();
                }
                return new String(chars);
            }
            case 5:
                return decode(readCount("string byte"), StandardCharsets.ISO_8859_1);
            default:
                pos--;
                throw error("unknown string encoding " + encoding);
        }
    }

    /**
     * The string of the next n bytes: decoded from the heap copy where, else through a reused buffer (a symbol pool is
     * tens of thousands of strings, each a byte array the string copies again).
     */
    private String decode(int n, java.nio.charset.Charset charset) throws InvalidRecordingException {
        need(n);
        String s;
        if (bytes != null) {
            s = new String(bytes, pos, n, charset);
        } else {
            byte[] b = n <= 4096 ? scratch : new byte[n];
            buf.get(pos, b, 0, n);
            s = new String(b, 0, n, charset);
        }
        pos += n;
        return s;
    }

    void skipString() throws InvalidRecordingException {
        int encoding = u1();
        switch (encoding) {
            case 0, 1 -> { }
            case 2 -> readLong();
            case 3, 5 -> skip(readCount("string byte"));
            case 4 -> {
                int n = readCount("string char");
                for (int i = 0; i < n; i++) {
                    readChar();
                }
            }
            default -> {
                pos--;
                throw error("unknown string encoding " + encoding);
            }
        }
    }

    /** A string stored in a constant pool that was not resolved yet (pools may refer forward). */
    record StringRef(long key) {
    }
}
