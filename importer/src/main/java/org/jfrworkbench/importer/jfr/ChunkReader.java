package org.jfrworkbench.importer.jfr;

import java.nio.ByteBuffer;

import org.jfrworkbench.importer.InvalidRecordingException;

/**
 * Reads one chunk: metadata, then every constant pool, then the event stream in file order. Each event is
 * size-prefixed, so types we do not map are skipped by size (and still counted). Pools are fully read before any
 * event touches the model, so a chunk whose metadata or pools are corrupt adds nothing.
 */
final class ChunkReader {
    /**
     * Chunks with at least this many bytes are decoded on a second thread while this one maps them (see
     * {@link EventDecoder}); -1: never. Off on a single processor, where it would only add hand-overs.
     */
    static volatile int pipelineBytes = Integer.getInteger("workbench.importer.pipelineBytes",
            Runtime.getRuntime().availableProcessors() > 1 ? 256 << 10 : -1);

    private final ChunkHeader header;
    private final ByteBuffer chunk;
    private final long fileOffset;
    private final JfrInput in;
    private final ValueReader values;
    private final ProfileBuilder builder;
    private final byte[] bytes;
    private final double nanosPerTick;
    /** Whether the key caches of earlier chunks still hold for this chunk (see {@link PoolHistory}). */
    private boolean sameKeys;
    private ChunkTypes types;
    /** The length of the metadata bytes read, once {@link #types} are known. */
    private int metadataLength;
    private ConstantPools pools;
    private EventMapper mapper;
    private EventCounts counts;

    ChunkReader(ByteBuffer chunk, byte[] bytes, long fileOffset, ChunkHeader header, ProfileBuilder builder) {
        this.header = header;
        this.chunk = chunk;
        this.fileOffset = fileOffset;
        this.in = new JfrInput(chunk, bytes, fileOffset, header.compressedIntegers());
        this.values = new ValueReader(in);
        this.builder = builder;
        this.bytes = bytes;
        this.nanosPerTick = 1e9 / header.ticksPerSecond();
    }

    /**
     * A chunk's metadata as read: its types, the length of the bytes the reader took from the event's start, and whether
     * the chunk's integers are compressed (which the types' fields record).
     */
    record Metadata(ChunkTypes types, int length, boolean compressed) {
    }

    /** Tells whether the chunk after this one has the same metadata event (so may repeat its constants). */
    interface Lookahead {
        boolean nextHasSameMetadata();
    }

    /**
     * Phase 1: metadata and constant pools. Throws without touching the profile. The pool entries are kept for
     * comparison only when the next chunk's metadata equals this one's: otherwise that next chunk starts over anyway.
     * known: the metadata of the chunk before, when its event has this chunk's bytes (else null): its types are
     * this chunk's, where reading the JDK's metadata again (thousands of elements) made its types anew per chunk.
     */
    void readPools(Lookahead next, Metadata known) throws InvalidRecordingException {
        long metadataOffset = header.metadataOffset();
        if (metadataOffset < ChunkHeader.SIZE || metadataOffset >= in.limit()) {
            throw new InvalidRecordingException(in.fileOffset(24), "metadata offset " + metadataOffset + " outside the chunk");
        }
        in.pos = (int) metadataOffset;
        if (known != null && known.compressed() == header.compressedIntegers()) {
            types = known.types();
            in.pos += known.length();
        } else {
            types = MetadataReader.read(in);
        }
        metadataLength = in.pos - (int) metadataOffset;
        sameKeys = false;
        PoolHistory history = builder.poolHistory();
        ConstantPools previous = builder.takePools();
        boolean sameMetadata = bytes != null && history.startChunk(bytes, (int) metadataOffset, in.pos, types.size());
        if (sameMetadata && previous != null) {
            // the previous chunk's pools, extended by this chunk's new keys; any contradiction starts over below
            previous.continueWith(types);
            previous.track(history, bytes, true);
            values.strings(null);
            sameKeys = previous.read(in, values, header.constantPoolOffset());
            pools = previous;
        }
        if (!sameKeys) {
            history.clear(types.size());
            pools = new ConstantPools(types, builder.stackTraces(), builder.lastPools());
            boolean keep = bytes != null && next.nextHasSameMetadata();
            pools.track(keep ? history : null, bytes, false);
            values.strings(null);
            pools.read(in, values, header.constantPoolOffset());
        }
        values.strings(pools);
        if (bytes != null) {
            builder.keepPools(pools);
        }
        builder.lastPools(pools);
        counts = new EventCounts(types);
    }

    /** The metadata this chunk was read with, for a next chunk with the same event; null when it could not be read. */
    Metadata metadata() {
        return types == null ? null : new Metadata(types, metadataLength, header.compressedIntegers());
    }

    /** Phase 2: the events. On corrupt data the events read so far stay and the exception says where it stopped. */
    void readEvents() throws InvalidRecordingException {
        builder.profile().addChunk(header.startNanos(), header.durationNanos());
        mapper = new EventMapper(builder, types, pools, this, sameKeys);
        pools.stackTraces.resolve(in, values, builder.resolver());
        EventLayout[] layouts = mapper.layouts();
        int pipeline = pipelineBytes;
        if (pipeline >= 0 && header.compressedIntegers() && in.limit() >= pipeline) {
            EventDecoder decoder = EventDecoder.start(new JfrInput(chunk, bytes, fileOffset, true), layouts, counts);
            if (decoder != null) {
                readEventsPipelined(layouts, decoder);
                return;
            }
        }
        long[] longs = new long[16];
        Object[] objects = new Object[16];
        int limit = in.limit();
        int pos = ChunkHeader.SIZE;
        try {
            while (pos < limit) {
                int size = in.eventSize(pos);
                JfrType t = counts.count(in.readLong());
                if (t != null) {
                    EventLayout layout = layouts[t.index];
                    if (layout != null) {
                        int n = t.fields.length;
                        if (longs.length < n) {
                            longs = new long[n];
                            objects = new Object[n];
                        }
                        values.budget(size);
                        readFields(t.fields, layout, longs, objects);
                        if (in.pos > pos + size) {
                            throw new InvalidRecordingException(in.fileOffset(pos), t.name + " event overruns its size " + size);
                        }
                        mapper.handle(layout, longs, 0, objects);
                    }
                }
                pos += size;
            }
        } finally {
            finish();
        }
    }

    /** Phase 2 with the events decoded by an {@link EventDecoder} meanwhile; the same model, counts and errors. */
    private void readEventsPipelined(EventLayout[] layouts, EventDecoder decoder) throws InvalidRecordingException {
        int widest = 16;
        for (int i = 0; i < types.size(); i++) {
            widest = Math.max(widest, types.get(i).fields.length);
        }
        long[] longs = new long[widest];
        Object[] objects = new Object[widest];
        boolean complete = false;
        long mapped = 0;
        try {
            while (true) {
                EventDecoder.Batch b = decoder.next();
                long[] d = b.data;
                try {
                    for (int i = 0, end = b.length; i < end; ) {
                        int index = (int) d[i++];
                        mapped++;
                        if (index >= 0) {
                            EventLayout layout = layouts[index];
                            mapper.handle(layout, d, i, objects);
                            i += layout.readCount;
                        } else {
                            readOne(layouts[~index], (int) d[i++], longs, objects);
                        }
                    }
                } catch (InvalidRecordingException | RuntimeException | Error e) {
                    // the decoder has counted events beyond this one: count again up to here, as the sequential reader
                    decoder.stop();
                    complete = true;
                    recount(layouts, mapped);
                    throw e;
                }
                if (b.last) {
                    complete = true;
                    rethrow(b.failure);
                    return;
                }
                decoder.release(b);
            }
        } finally {
            if (!complete) {
                decoder.stop();
            }
            finish();
        }
    }

    /**
     * Counts the chunk's events again from its start up to the given number of mapped events (the last of them failed),
     * so that a chunk dropped part way shows the counts the sequential reader would: every event up to the failing one.
     */
    private void recount(EventLayout[] layouts, long mappedEvents) {
        counts.clear();
        long seen = 0;
        int pos = ChunkHeader.SIZE;
        // these events were all decoded once already, so their sizes and type ids read again without error
        while (pos < in.limit() && seen < mappedEvents) {
            int size;
            long typeId;
            try {
                size = in.eventSize(pos);
                typeId = in.readLong();
            } catch (InvalidRecordingException e) {
                return;
            }
            JfrType t = counts.count(typeId);
            if (t != null && layouts[t.index] != null) {
                seen++;
            }
            pos += size;
        }
    }

    /** An event the decoder left to this thread (fields other than compressed integers), read at its position. */
    private void readOne(EventLayout layout, int pos, long[] longs, Object[] objects) throws InvalidRecordingException {
        in.pos = pos;
        int size = in.readInt();
        in.readLong();
        values.budget(size);
        readFields(layout.type.fields, layout, longs, objects);
        if (in.pos > pos + size) {
            throw new InvalidRecordingException(in.fileOffset(pos), layout.type.name + " event overruns its size " + size);
        }
        mapper.handle(layout, longs, 0, objects);
    }

    private static void rethrow(Throwable failure) throws InvalidRecordingException {
        if (failure == null) {
            return;
        }
        if (failure instanceof InvalidRecordingException e) {
            throw e;
        }
        if (failure instanceof RuntimeException e) {
            throw e;
        }
        if (failure instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException(failure);
    }

    private void readFields(JfrField[] fields, EventLayout layout, long[] longs, Object[] objects)
            throws InvalidRecordingException {
        byte[] reads = layout.reads;
        for (int i = 0, n = layout.readCount; i < n; i++) {
            switch (reads[i]) {
                case EventLayout.VARINT -> longs[i] = in.varLong();
                case EventLayout.SCALAR -> longs[i] = values.scalar(fields[i]);
                case EventLayout.MATERIALISE -> objects[i] = values.read(fields[i], 1);
                default -> values.skip(fields[i], 1);
            }
        }
    }

    private void finish() {
        if (counts == null) {
            return;
        }
        long[] byType = counts.byType;
        for (int i = 0; i < byType.length; i++) {
            if (byType[i] > 0) {
                builder.profile().countEvent(types.get(i).name, byType[i]);
            }
        }
        if (counts.unknown > 0) {
            builder.profile().warn("chunk " + builder.chunkNumber() + ": " + counts.unknown
                    + " events of types the metadata does not declare were skipped");
        }
        if (mapper != null) {
            mapper.finishChunk();
        }
    }

    /** Epoch nanoseconds of a timestamp field's value. */
    long timestamp(JfrField f, long v) {
        return switch (f.unit) {
            case JfrField.TICKS -> header.startNanos() + (long) ((v - header.startTicks()) * nanosPerTick);
            case JfrField.EPOCH_MILLIS -> v * 1_000_000;
            default -> v;
        };
    }

    /** Nanoseconds of a timespan field's value. */
    long timespan(JfrField f, long v) {
        return switch (f.unit) {
            case JfrField.MICROSECONDS -> v * 1_000;
            case JfrField.MILLISECONDS -> v * 1_000_000;
            case JfrField.SECONDS -> v * 1_000_000_000;
            case JfrField.TICKS -> (long) (v * nanosPerTick);
            default -> v;
        };
    }

    long chunkStartNanos() {
        return header.startNanos();
    }
}
