package org.jfrworkbench.importer.jfr;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

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
        ByteBuffer previousMetadata = null;
        ChunkReader.Metadata previousTypes = null;
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
                long next = offset + header.size();
                // the heap copy serves to compare the chunk's constants with a neighbour's, which only a chunk whose
                // metadata event equals the one before or after it can (async-profiler's differ from chunk to chunk, and
                // a file's only chunk has no neighbour); other chunks are read from the mapped
                // file: the copy, an array the collector places on its own, started a concurrent cycle of its own in a
                // small heap
                ByteBuffer metadata = metadataEvent(chunk, header);
                NextMetadata nextMetadata = new NextMetadata(channel, next, metadata);
                boolean sameAsPrevious = metadata != null && metadata.equals(previousMetadata);
                boolean comparable = sameAsPrevious || metadata != null && nextMetadata.nextHasSameMetadata();
                previousMetadata = metadata;
                byte[] bytes = null;
                if (header.size() <= HEAP_CHUNK_LIMIT && comparable) {
                    // chunks up to this size are copied to one reused heap array, which the comparison reads
                    if (heapCopy.length < header.size()) {
                        heapCopy = new byte[(int) header.size()];
                    }
                    chunk.get(0, heapCopy, 0, (int) header.size());
                    bytes = heapCopy;
                }
                ChunkReader reader = new ChunkReader(chunk, bytes, offset, header, builder);
                boolean poolsRead = false;
                try {
                    reader.readPools(nextMetadata, sameAsPrevious ? previousTypes : null);
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
                previousTypes = reader.metadata();
                offset += header.size();
            }
        }
        if (usable == 0) {
            throw firstFailure != null ? firstFailure : new InvalidRecordingException(0, "no JFR chunk found");
        }
    }

    /** The chunk's metadata event (its bytes by the size it states), or null when the header or size is off. */
    private static ByteBuffer metadataEvent(ByteBuffer chunk, ChunkHeader header) {
        long at = header.metadataOffset();
        if (at < ChunkHeader.SIZE || at >= chunk.limit()) {
            return null;
        }
        try {
            int size = new JfrInput(chunk, null, 0, header.compressedIntegers()).eventSize((int) at);
            return chunk.slice((int) at, size);
        } catch (InvalidRecordingException e) {
            return null;   // the reader names the problem
        }
    }

    /**
     * Whether the chunk at offset next holds the bytes of metadata (its remaining bytes) as its metadata event; false
     * when there is no such chunk or it cannot be read (that chunk then fails or starts over by itself).
     */
    private static boolean nextHasSameMetadata(FileChannel channel, long next, ByteBuffer metadata) {
        try {
            if (channel.size() - next < ChunkHeader.SIZE) {
                return false;
            }
            ByteBuffer head = ByteBuffer.allocate(ChunkHeader.SIZE);
            channel.read(head, next);
            ChunkHeader h = ChunkHeader.parse(head, next);
            int length = metadata.remaining();
            if (h.size() > HEAP_CHUNK_LIMIT || h.size() > channel.size() - next || h.metadataOffset() < ChunkHeader.SIZE
                    || h.metadataOffset() > h.size() - length) {
                return false;
            }
            ByteBuffer meta = ByteBuffer.allocate(length);
            while (meta.hasRemaining() && channel.read(meta, next + h.metadataOffset() + meta.position()) > 0) {
                // read until full
            }
            return !meta.hasRemaining() && meta.flip().equals(metadata);
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Whether the chunk after one has the same metadata event as it, read from the file at the first question only: the
     * choice of a heap copy asks it, and so does the chunk's reader, which keeps the pools' bytes for the next chunk
     * only then.
     */
    private static final class NextMetadata implements ChunkReader.Lookahead {
        private final FileChannel channel;
        private final long next;
        private final ByteBuffer metadata;
        /** 1: the same, 0: not, -1: not read yet. */
        private int same = -1;

        NextMetadata(FileChannel channel, long next, ByteBuffer metadata) {
            this.channel = channel;
            this.next = next;
            this.metadata = metadata;
        }

        @Override
        public boolean nextHasSameMetadata() {
            if (same < 0) {
                same = metadata != null && JfrImporter.nextHasSameMetadata(channel, next, metadata) ? 1 : 0;
            }
            return same == 1;
        }
    }

    private static String describe(InvalidRecordingException e) {
        return e.offset() >= 0 ? "at offset " + e.offset() + ": " + e.reason() : e.reason();
    }
}
