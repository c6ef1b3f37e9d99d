package org.jfrworkbench.importer.jfr;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

import org.jfrworkbench.importer.InvalidRecordingException;
import org.jfrworkbench.model.Profile;

/**
 * Reads every chunk of a JFR file into a profile, each chunk with its own metadata and type ids. A chunk that is
 * truncated or corrupt is dropped with a warning naming it; a file with no usable chunk fails with the first reason.
 */
public final class JfrImporter {
    /** Largest chunk read from a heap copy; larger ones are read from the mapped file so the heap stays bounded. */
    private static final long HEAP_CHUNK_LIMIT = 32L << 20;

    private JfrImporter() {
    }

    public static void read(Path file, Profile profile) throws IOException {
        ProfileBuilder builder = new ProfileBuilder(profile);
        readChunks(file, builder);
        builder.finish();
    }

    /** Reads the chunks of a file into what the builder holds so far, leaving it open for more (see {@link RunImport}). */
    static void readChunks(Path file, ProfileBuilder builder) throws IOException {
        InvalidRecordingException firstFailure = null;
        int usable = 0;
        byte[] heapCopy = new byte[0];
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long fileSize = channel.size();
            long offset = 0;
            while (offset < fileSize) {
                builder.nextChunk();
                int n = builder.chunkNumber();
                long remaining = fileSize - offset;
                ChunkHeader header;
                try {
                    if (remaining < ChunkHeader.SIZE) {
                        throw new InvalidRecordingException(offset, "only " + remaining + " bytes left, less than a chunk header");
                    }
                    ByteBuffer head = ByteBuffer.allocate(ChunkHeader.SIZE);
                    channel.read(head, offset);
                    header = ChunkHeader.parse(head, offset);
                    if (header.size() > remaining) {
                        InvalidRecordingException e = new InvalidRecordingException(offset + remaining,
                                "chunk truncated: its header says " + header.size() + " bytes, " + remaining + " remain");
                        builder.profile().warn("chunk " + n + " truncated at offset " + (offset + remaining) + ": its header says "
                                + header.size() + " bytes from offset " + offset + ", only " + remaining + " remain; the chunk was dropped");
                        firstFailure = firstFailure == null ? e : firstFailure;
                        break;
                    }
                    if (header.size() > Integer.MAX_VALUE) {
                        throw new InvalidRecordingException(offset + 8, "chunk of " + header.size() + " bytes is larger than 2 GB");
                    }
                } catch (InvalidRecordingException e) {
                    // without a trustworthy header there is no way to find the next chunk
                    builder.profile().warn("chunk " + n + " " + describe(e) + "; the rest of the file ("
                            + remaining + " bytes) was dropped");
                    firstFailure = firstFailure == null ? e : firstFailure;
                    break;
                }
                MappedByteBuffer chunk = channel.map(FileChannel.MapMode.READ_ONLY, offset, header.size());
                byte[] bytes = null;
                // a file's only chunk is read from the mapped file: its heap copy serves only to compare a chunk's
                // constants with the next one's, and the copy, a humongous array to the collector, starts a
                // concurrent cycle of its own in a small heap
                if (header.size() <= HEAP_CHUNK_LIMIT && header.size() < fileSize) {
                    // chunks up to this size are copied to one reused heap array; reading the mapped file instead,
                    // measured beside it (docs/benchmarks), was neither faster nor slower beyond the noise
                    if (heapCopy.length < header.size()) {
                        heapCopy = new byte[(int) header.size()];
                    }
                    chunk.get(0, heapCopy, 0, (int) header.size());
                    bytes = heapCopy;
                }
                ChunkReader reader = new ChunkReader(chunk, bytes, offset, header, builder);
                boolean poolsRead = false;
                try {
                    long next = offset + header.size();
                    reader.readPools((b, start, end) -> nextHasSameMetadata(channel, next, b, start, end));
                    poolsRead = true;
                    usable++;
                    reader.readEvents();
                } catch (InvalidRecordingException e) {
                    builder.profile().warn("chunk " + n + " " + describe(e)
                            + (poolsRead ? "; the rest of its events were dropped" : "; the chunk was dropped"));
                    firstFailure = firstFailure == null ? e : firstFailure;
                } catch (RuntimeException e) {
                    // a bound we did not foresee (e.g. an index beyond the chunk): the data is corrupt, not our state
                    InvalidRecordingException wrapped = new InvalidRecordingException(offset, "corrupt chunk: " + e, e);
                    builder.profile().warn("chunk " + n + " at offset " + offset + " is corrupt (" + e
                            + (poolsRead ? "); the rest of its events were dropped" : "); the chunk was dropped"));
                    firstFailure = firstFailure == null ? wrapped : firstFailure;
                }
                offset += header.size();
            }
        }
        if (usable == 0) {
            throw firstFailure != null ? firstFailure : new InvalidRecordingException(0, "no JFR chunk found");
        }
    }

    /**
     * Whether the chunk at offset next holds the bytes chunk[start, end) as its metadata event; false when there is
     * no such chunk or it cannot be read (that chunk then fails or starts over by itself).
     */
    private static boolean nextHasSameMetadata(FileChannel channel, long next, byte[] chunk, int start, int end) {
        try {
            if (channel.size() - next < ChunkHeader.SIZE) {
                return false;
            }
            ByteBuffer head = ByteBuffer.allocate(ChunkHeader.SIZE);
            channel.read(head, next);
            ChunkHeader h = ChunkHeader.parse(head, next);
            int length = end - start;
            if (h.size() > HEAP_CHUNK_LIMIT || h.size() > channel.size() - next || h.metadataOffset() < ChunkHeader.SIZE
                    || h.metadataOffset() > h.size() - length) {
                return false;
            }
            ByteBuffer meta = ByteBuffer.allocate(length);
            while (meta.hasRemaining() && channel.read(meta, next + h.metadataOffset() + meta.position()) > 0) {
                // read until full
            }
            return !meta.hasRemaining() && Arrays.equals(meta.array(), 0, length, chunk, start, end);
        } catch (IOException e) {
            return false;
        }
    }

    private static String describe(InvalidRecordingException e) {
        return e.offset() >= 0 ? "at offset " + e.offset() + ": " + e.reason() : e.reason();
    }
}
