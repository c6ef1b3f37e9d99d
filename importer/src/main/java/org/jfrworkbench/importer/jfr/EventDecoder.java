package org.jfrworkbench.importer.jfr;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.jfrworkbench.importer.InvalidRecordingException;

/**
 * Decodes the events of one chunk on a second thread while the importing thread maps the events before them to the
 * model: on a multi-core machine a large chunk is read in about the time its mapping takes. Events whose fields are
 * all compressed integers (the samples: nearly all events of a profile) arrive decoded, as their type index and field
 * values; other events arrive as their type index and position, and the importing thread reads them itself. Batches
 * go round between the two threads through bounded queues, so memory stays a few batches whatever the chunk holds.
 * Every event is counted here, in file order, exactly as the sequential reader counts them.
 */
final class EventDecoder implements Runnable {
    /** Longs per batch: room for about 4,000 sample events. */
    private static final int BATCH_LONGS = 1 << 15;
    private static final int BATCHES = 4;
    /** Records fit the first, smallest batch. */
    private static final int FIRST_FILL = 1 << 10;
    private static final int MAX_DECODED_FIELDS = FIRST_FILL - 1;

    /** One batch: records of [type index, field values...] or [~type index, event position]; the last one ends the chunk. */
    static final class Batch {
        final long[] data = new long[BATCH_LONGS];
        int length;
        boolean last;
        /** Why decoding stopped early (an InvalidRecordingException, another RuntimeException or an Error), or null. */
        Throwable failure;
    }

    private final JfrInput in;
    private final EventLayout[] layouts;
    private final EventCounts counts;
    private final BlockingQueue<Batch> free = new ArrayBlockingQueue<>(BATCHES);
    private final BlockingQueue<Batch> ready = new ArrayBlockingQueue<>(BATCHES);
    private final CountDownLatch done = new CountDownLatch(1);
    private volatile boolean cancelled;
    /** Whether this decoder's permit on a spare processor went back (only the decoder's thread touches it). */
    private boolean released;
    /** Batches made so far (decoder thread only): a small chunk needs one or two. */
    private int created;
    /** Longs the current batch may take: the first batches are small, so the importing thread starts at once. */
    private int fill = FIRST_FILL;

    EventDecoder(JfrInput in, EventLayout[] layouts, EventCounts counts) {
        this.in = in;
        this.layouts = layouts;
        this.counts = counts;
    }

    /**
     * A decoder for the chunk, started; null when every spare processor already runs one, or the machine is busy
     * (read sequentially then).
     */
    static EventDecoder start(JfrInput in, EventLayout[] layouts, EventCounts counts) {
        EventDecoder decoder = new EventDecoder(in, layouts, counts);
        return SpareProcessor.run(decoder) ? decoder : null;
    }

    /**
     * The next batch in file order; blocks until the decoder has filled one. Like the sequential reader it does not
     * give up when interrupted (the interrupt stays set for the caller).
     */
    Batch next() {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    Batch b = ready.poll(100, TimeUnit.MILLISECONDS);
                    if (b != null) {
                        return b;
                    }
                } catch (InterruptedException e) {
                    interrupted = true;
                }
                if (done.getCount() == 0 && ready.isEmpty()) {
                    throw new IllegalStateException("the event decoder stopped without finishing the chunk");
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Hands a mapped batch back for reuse. */
    void release(Batch b) {
        b.length = 0;
        free.add(b);
    }

    /**
     * Stops the decoder (when the importing thread gives up early) and waits until it has left, so the counts are
     * final. No interrupts: a pool thread may already run another import's decoder. It leaves at its next batch.
     */
    void stop() {
        cancelled = true;
        boolean interrupted = false;
        while (true) {
            try {
                done.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void run() {
        try {
            decode();
        } finally {
            releaseProcessor();
            done.countDown();
        }
    }

    private void decode() {
        Batch b = null;
        try {
            b = nextFree();
            int limit = in.limit();
            int pos = ChunkHeader.SIZE;
            while (pos < limit) {
                int size = in.eventSize(pos);
                JfrType t = counts.count(in.readLong());
                if (t != null) {
                    EventLayout layout = layouts[t.index];
                    if (layout != null) {
                        // a type with very many fields (possible, never seen) is left to the importing thread
                        boolean decode = layout.varintsOnly && layout.readCount < MAX_DECODED_FIELDS;
                        int n = decode ? layout.readCount : 1;
                        if (b.length + 1 + n > fill) {
                            b = publish(b);
                            fill = Math.min(BATCH_LONGS, fill * 4);
                        }
                        long[] d = b.data;
                        int at = b.length;
                        if (decode) {
                            d[at++] = t.index;
                            for (int i = 0; i < n; i++) {
                                d[at++] = in.varLong();
                            }
                            if (in.pos > pos + size) {
                                throw new InvalidRecordingException(in.fileOffset(pos), t.name + " event overruns its size " + size);
                            }
                        } else {
                            d[at++] = ~t.index;
                            d[at++] = pos;
                        }
                        b.length = at;
                    }
                }
                pos += size;
            }
        } catch (Cancelled e) {
            return; // nobody reads further batches
        } catch (Throwable t) {
            if (b != null) {
                b.failure = t;
            }
        }
        if (b != null && !cancelled) {
            b.last = true;
            releaseProcessor(); // before the last batch, so the next chunk finds the processor free
            ready.add(b);
        }
    }

    private void releaseProcessor() {
        if (!released) {
            released = true;
            SpareProcessor.release();
        }
    }

    private Batch publish(Batch full) throws Cancelled {
        if (cancelled) {
            throw new Cancelled();
        }
        ready.add(full);
        return nextFree();
    }

    /** A new batch (at most {@link #BATCHES}) or one the importing thread has mapped; polls to see a cancel while waiting. */
    private Batch nextFree() throws Cancelled {
        Batch mapped = free.poll();
        if (mapped != null) {
            return mapped;
        }
        if (created < BATCHES) {
            created++;
            return new Batch();
        }
        try {
            while (true) {
                Batch b = free.poll(10, TimeUnit.MILLISECONDS);
                if (b != null) {
                    return b;
                }
                if (cancelled) {
                    throw new Cancelled();
                }
            }
        } catch (InterruptedException e) {
            // not ours to act on (only the pool would interrupt its thread): carry on, a cancel is seen by polling
            return nextFree();
        }
    }

    /** The importing thread stopped reading batches. */
    private static final class Cancelled extends Exception {
        Cancelled() {
            super(null, null, false, false);
        }
    }
}
