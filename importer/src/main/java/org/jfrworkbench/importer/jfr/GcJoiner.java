package org.jfrworkbench.importer.jfr;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

import org.jfrworkbench.model.GcEvent;
import org.jfrworkbench.model.Profile;

/**
 * Joins jdk.GarbageCollection with its before/after jdk.GCHeapSummary by gcId. A GC still missing a part at the end
 * of its chunk is carried into the next chunk, where parts with the same gcId close in time complete it (a chunk
 * rotation can fall between a GC's start and its end); gc ids repeat in other recordings concatenated into one file,
 * hence the time window, and a part not completed by then is kept as it is.
 */
final class GcJoiner {
    /** How far apart in time the parts of one GC may be. */
    private static final long JOIN_WINDOW_NANOS = 60_000_000_000L;

    private final Map<Long, Parts> current = new HashMap<>();
    private Map<Long, Parts> carried = new HashMap<>();

    /** The parts of GC gcId seen in this chunk (or carried from the previous one), for an event at time. */
    Parts parts(long gcId, long time) {
        Parts p = current.get(gcId);
        if (p == null) {
            Parts earlier = carried.get(gcId);
            if (earlier != null && Math.abs(time - earlier.start) <= JOIN_WINDOW_NANOS) {
                carried.remove(gcId);
                p = earlier;
            } else {
                p = new Parts();
            }
            current.put(gcId, p);
        }
        return p;
    }

    /** Ends a chunk: complete GCs go to the profile, incomplete ones wait for the next chunk. */
    void endChunk(Profile profile) {
        emit(profile, carried);
        Map<Long, Parts> waiting = new HashMap<>();
        for (Map.Entry<Long, Parts> g : current.entrySet()) {
            Parts p = g.getValue();
            if (p.seen && p.usedBefore >= 0 && p.usedAfter >= 0) {
                emit(profile, g.getKey(), p);
            } else {
                waiting.put(g.getKey(), p);
            }
        }
        current.clear();
        carried = waiting;
    }

    /** Ends the file: what is still incomplete is kept as it is. */
    void finish(Profile profile) {
        emit(profile, current);
        emit(profile, carried);
    }

    private static void emit(Profile profile, Map<Long, Parts> gcs) {
        gcs.forEach((id, p) -> emit(profile, id, p));
        gcs.clear();
    }

    private static void emit(Profile profile, long gcId, Parts p) {
        if (p.seen || p.usedBefore >= 0 || p.usedAfter >= 0) {
            profile.heap().addGc(new GcEvent(gcId, p.start, p.duration, p.name == null ? "" : p.name,
                    p.cause == null ? "" : p.cause, p.usedBefore, p.usedAfter, p.committed, p.longestPause));
        }
    }

    /** Writes the GCs still waiting for a part, for a run read part by part ({@link RunImport}). */
    void write(DataOutput out) throws IOException {
        for (Map<Long, Parts> gcs : java.util.List.of(current, carried)) {
            out.writeInt(gcs.size());
            for (Map.Entry<Long, Parts> g : gcs.entrySet()) {
                Parts p = g.getValue();
                out.writeLong(g.getKey());
                out.writeLong(p.start);
                out.writeLong(p.duration);
                RunImport.writeText(out, p.name);
                RunImport.writeText(out, p.cause);
                out.writeLong(p.usedBefore);
                out.writeLong(p.usedAfter);
                out.writeLong(p.committed);
                out.writeLong(p.longestPause);
                out.writeBoolean(p.seen);
            }
        }
    }

    /** Continues from what {@link #write} wrote. */
    void read(DataInput in) throws IOException {
        for (Map<Long, Parts> gcs : java.util.List.of(current, carried)) {
            int n = RunImport.count(in);
            for (int i = 0; i < n; i++) {
                long gcId = in.readLong();
                Parts p = new Parts();
                p.start = in.readLong();
                p.duration = in.readLong();
                p.name = RunImport.readText(in);
                p.cause = RunImport.readText(in);
                p.usedBefore = in.readLong();
                p.usedAfter = in.readLong();
                p.committed = in.readLong();
                p.longestPause = in.readLong();
                p.seen = in.readBoolean();
                gcs.put(gcId, p);
            }
        }
    }

    static final class Parts {
        long start;
        long duration = -1;
        String name;
        String cause;
        long usedBefore = -1;
        long usedAfter = -1;
        long committed = -1;
        long longestPause = -1;
        boolean seen;
    }
}
