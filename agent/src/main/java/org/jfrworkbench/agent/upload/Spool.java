package org.jfrworkbench.agent.upload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.jfrworkbench.agent.Log;

/**
 * The closed chunk files in the agent's directory, oldest first. Bounded: when the files together exceed
 * {@code maxBytes}, the oldest are deleted (and counted) so a server that stays away cannot fill the disk.
 */
public final class Spool {
    public static final String SUFFIX = ".jfr";

    private final Path dir;
    private final long maxBytes;
    private final AtomicLong dropped = new AtomicLong();

    public Spool(Path dir, long maxBytes) {
        this.dir = dir;
        this.maxBytes = maxBytes;
    }

    public Path dir() {
        return dir;
    }

    /** Closed chunks, oldest first (file names sort by time). Files still being written end in ".part". */
    public List<Path> files() {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(SUFFIX)).sorted(Comparator.comparing(Path::getFileName)).toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    /** Deletes the oldest chunks until the spool fits its bound; returns how many were dropped this time. */
    public synchronized int enforceBound() {
        List<Path> files = new ArrayList<>(files());
        long total = 0;
        long[] sizes = new long[files.size()];
        for (int i = 0; i < files.size(); i++) {
            sizes[i] = size(files.get(i));
            total += sizes[i];
        }
        int droppedNow = 0;
        for (int i = 0; i < files.size() - 1 && total > maxBytes; i++) { // the newest chunk always stays
            try {
                if (Files.deleteIfExists(files.get(i))) {
                    total -= sizes[i];
                    droppedNow++;
                }
            } catch (IOException e) {
                Log.failureOnce("spool-delete", "could not delete spooled chunk " + files.get(i), e);
            }
        }
        if (droppedNow > 0) {
            long all = dropped.addAndGet(droppedNow);
            Log.info("spool over " + maxBytes + " bytes: dropped " + droppedNow + " oldest chunk(s), " + all + " dropped so far");
        }
        return droppedNow;
    }

    public long droppedCount() {
        return dropped.get();
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            return 0;
        }
    }
}
