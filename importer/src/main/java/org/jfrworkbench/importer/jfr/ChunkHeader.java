package org.jfrworkbench.importer.jfr;

import java.nio.ByteBuffer;

import org.jfrworkbench.importer.InvalidRecordingException;

/** The fixed 68-byte header that starts every chunk. Offsets are relative to the chunk start. */
record ChunkHeader(int major, int minor, long size, long constantPoolOffset, long metadataOffset, long startNanos,
                   long durationNanos, long startTicks, long ticksPerSecond, int features) {
    static final int SIZE = 68;
    private static final int MAGIC = ('F' << 24) | ('L' << 16) | ('R' << 8);
    private static final int COMPRESSED_INTS = 1;

    /** Parses a header from 68 bytes (big-endian); fileOffset is only for messages. */
    static ChunkHeader parse(ByteBuffer b, long fileOffset) throws InvalidRecordingException {
        if (b.getInt(0) != MAGIC) {
            throw new InvalidRecordingException(fileOffset, "no chunk magic FLR\\0");
        }
        ChunkHeader h = new ChunkHeader(b.getShort(4) & 0xffff, b.getShort(6) & 0xffff, b.getLong(8), b.getLong(16),
                b.getLong(24), b.getLong(32), b.getLong(40), b.getLong(48), b.getLong(56), b.getInt(64));
        if (h.major < 1 || h.major > 2) {
            throw new InvalidRecordingException(fileOffset + 4, "unsupported JFR version " + h.major + "." + h.minor);
        }
        if (h.size < SIZE) {
            throw new InvalidRecordingException(fileOffset + 8, "chunk size " + h.size + " is smaller than its header");
        }
        if (h.ticksPerSecond <= 0) {
            throw new InvalidRecordingException(fileOffset + 56, "ticks per second " + h.ticksPerSecond + " is not positive");
        }
        return h;
    }

    boolean compressedIntegers() {
        // version 1 files predate the flag and always use fixed-size integers
        return major >= 2 && (features & COMPRESSED_INTS) != 0;
    }
}
