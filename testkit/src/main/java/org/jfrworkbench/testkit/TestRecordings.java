package org.jfrworkbench.testkit;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;

import jdk.jfr.Configuration;
import jdk.jfr.Recording;

/**
 * Real JFR recordings made in the test JVM with the JDK's "profile" settings: execution samples,
 * allocation samples, old-object (live) samples and GC heap summaries from a small workload.
 * Two shapes ({@code mapHeavy} or not) give the diff page something to show. The workload runs for at least the
 * given time and at least {@link #ROUNDS} rounds (two GCs), so a loaded machine makes it longer, not emptier.
 */
public final class TestRecordings {
    public static final int ROUNDS = 50;

    private TestRecordings() {
    }

    public static Path record(Path out, boolean mapHeavy, long millis) throws IOException, java.text.ParseException {
        return record(out, mapHeavy, millis, true);
    }

    /** With live=false no old-object samples are taken: a recording with GCs but no live heap. */
    public static Path record(Path out, boolean mapHeavy, long millis, boolean live) throws IOException, java.text.ParseException {
        return record(out, mapHeavy, millis, live, mapHeavy ? "checkout-maps" : "checkout-sort");
    }

    /** The same, with the worker thread named as given (the name lands in the recording's thread pool). */
    public static Path record(Path out, boolean mapHeavy, long millis, boolean live, String threadName)
            throws IOException, java.text.ParseException {
        try (Recording recording = new Recording(Configuration.getConfiguration("profile"))) {
            if (live) {
                recording.enable("jdk.OldObjectSample").with("cutoff", "0 ns");
            } else {
                recording.disable("jdk.OldObjectSample");
            }
            recording.enable("jdk.ExecutionSample").withPeriod(java.time.Duration.ofMillis(1));
            recording.start();
            // a worker thread of its own keeps the stacks short, like a service's request thread
            Thread worker = new Thread(() -> work(mapHeavy, millis), threadName);
            worker.start();
            try {
                worker.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while recording", e);
            }
            recording.stop();
            recording.dump(out);
        }
        return out;
    }

    private static void work(boolean mapHeavy, long millis) {
        List<Object> retained = new ArrayList<>();
        long end = System.currentTimeMillis() + millis;
        long sink = 0;
        int round = 0;
        while (System.currentTimeMillis() < end || round < ROUNDS) {
            sink += mapHeavy ? fillMaps(retained) : sortAndFormat(retained);
            if (++round % 25 == 0) {
                System.gc();
            }
        }
        if (sink == 42) {
            System.out.println(retained.size());
        }
    }

    private static long fillMaps(List<Object> retained) {
        Map<String, Integer> map = new HashMap<>();
        for (int i = 0; i < 20_000; i++) {
            map.merge("key" + (i % 5000), i, Integer::sum);
        }
        TreeMap<Integer, String> tree = new TreeMap<>();
        for (int i = 0; i < 5_000; i++) {
            tree.put(ThreadLocalRandom.current().nextInt(), "v" + i);
        }
        keep(retained, new byte[64 * 1024]);
        keep(retained, tree);
        return map.size() + tree.size();
    }

    private static long sortAndFormat(List<Object> retained) {
        int[] numbers = ThreadLocalRandom.current().ints(50_000).toArray();
        java.util.Arrays.sort(numbers);
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 3_000; i++) {
            text.append(String.format("%08x;", numbers[i]));
        }
        keep(retained, text.toString());
        keep(retained, new long[8 * 1024]);
        return numbers[0] + text.length();
    }

    /** Keeps a bounded set alive so some sampled objects survive GCs (live samples). */
    private static void keep(List<Object> retained, Object value) {
        if (retained.size() >= 100) {
            retained.remove(ThreadLocalRandom.current().nextInt(retained.size()));
        }
        retained.add(value);
    }
}
