package org.jfrworkbench.testkit.workload;

import java.util.ArrayList;
import java.util.List;

import one.profiler.AsyncProfiler;

/**
 * Child JVM for the server's {@code LeakGrowthIT}: profiles itself with async-profiler (alloc + live + jfrsync), keeps
 * a flat set of {@code int[]} from the start, then leaks {@link Entry} objects through {@link Cache#put} at an even
 * pace among much garbage (many young GCs, each after more of the leak), stops the profiler and says
 * {@code DONE <flat arrays> <entries> <nanoseconds from the first put to the last>}. With a second argument
 * {@code counts} it records with the JDK's recorder instead, the JVM's count of the heap by class after every full
 * collection (jdk.ObjectCountAfterGC) and no sample at all, and collects in full every 8 rounds.
 */
public final class LeakingWorkload {
    static volatile Object sink;

    /** What leaks: about 144 bytes each. */
    static final class Entry {
        long a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p;
    }

    /** The cache that never evicts. */
    static final class Cache {
        static final List<Entry> ENTRIES = new ArrayList<>();

        static void put(int key) {
            Entry entry = new Entry();
            entry.a = key;
            ENTRIES.add(entry);
        }
    }

    public static void main(String[] args) throws Exception {
        boolean counts = args.length > 1 && args[1].equals("counts");
        AsyncProfiler profiler = counts ? null : AsyncProfiler.getInstance();
        jdk.jfr.Recording recording = counts ? new jdk.jfr.Recording() : null;
        if (counts) {
            recording.enable("jdk.ObjectCountAfterGC");
            recording.enable("jdk.GarbageCollection");
            recording.enable("jdk.GCHeapSummary");
            recording.start();
        } else {
            // a large interval: async-profiler tracks about a thousand live objects at once, and the leak must not
            // fill them
            profiler.execute("start,event=cpu,alloc=256k,live,jfrsync=default,file=" + args[0]);
        }
        List<int[]> flat = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            flat.add(new int[256]); // 20 MB that stays
        }
        long first = System.nanoTime();
        for (int round = 0; round < 40; round++) {
            for (int i = 0; i < 10_000; i++) {
                Cache.put(round * 10_000 + i); // 1.4 MB a round
            }
            for (int i = 0; i < 30_000; i++) {
                sink = new byte[1024]; // 30 MB of garbage a round: young GCs in between
            }
            if (counts && round % 8 == 7) {
                System.gc(); // a full collection, which the JVM counts by class
            }
        }
        long leaking = System.nanoTime() - first;
        System.gc();
        if (counts) {
            recording.stop();
            recording.dump(java.nio.file.Path.of(args[0]));
            recording.close();
        } else {
            profiler.execute("stop");
        }
        System.out.println("DONE " + flat.size() + " " + Cache.ENTRIES.size() + " " + leaking);
        System.out.flush();
    }
}
