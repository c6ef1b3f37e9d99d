package org.jfrworkbench.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Threads seen in samples. Id 0 is the unknown thread. Deduplicated by (name, java thread id, OS thread id). */
public final class ThreadTable {
    /** One thread. javaId or osId is -1 when the recording does not say. */
    public record ThreadInfo(String name, long javaId, long osId) {
    }

    private final List<ThreadInfo> threads = new ArrayList<>();
    private final Map<ThreadInfo, Integer> ids = new HashMap<>();

    public ThreadTable() {
        add(new ThreadInfo("<unknown>", -1, -1));
    }

    public int add(ThreadInfo info) {
        Integer id = ids.get(info);
        if (id != null) {
            return id;
        }
        int next = threads.size();
        threads.add(info);
        ids.put(info, next);
        return next;
    }

    public ThreadInfo get(int id) {
        return threads.get(id);
    }

    public int size() {
        return threads.size();
    }

    /** Approximate heap bytes (each thread's record, its map entry and its name). */
    public long footprint() {
        long bytes = 64;
        for (ThreadInfo t : threads) {
            bytes += 160 + (t.name() == null ? 0 : t.name().length());
        }
        return bytes;
    }
}
