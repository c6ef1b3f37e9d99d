package org.jfrworkbench.testkit;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jdk.jfr.Configuration;
import jdk.jfr.Recording;

/**
 * Real JFR recordings made by the test JVM itself with the JDK's "profile" settings: execution samples,
 * allocation samples, old-object samples and GC heap summaries, from a small workload that keeps objects live.
 */
public final class JfrFixture {
    private static final Map<String, Path> MADE = new HashMap<>();
    private static List<Object> retained = new ArrayList<>();

    private JfrFixture() {
    }

    /** A recording of about one second of work; made once per JVM and variant, then reused. */
    public static synchronized Path recording(String variant) throws IOException {
        Path existing = MADE.get(variant);
        if (existing != null) {
            return existing;
        }
        Path out = Files.createTempFile("workbench-" + variant, ".jfr");
        try (Recording r = new Recording(Configuration.getConfiguration("profile"))) {
            r.enable("jdk.ExecutionSample").withPeriod(java.time.Duration.ofMillis(2));
            r.enable("jdk.OldObjectSample").with("cutoff", "infinity");
            r.start();
            work(variant);
            r.stop();
            r.dump(out);
        } catch (ParseException e) {
            throw new IOException(e);
        }
        MADE.put(variant, out);
        return out;
    }

    /**
     * 1.2 s of this thread's CPU time (of the clock where the JVM cannot measure it): on a loaded machine the work takes
     * longer but stays as much, so variant b's fibonacci keeps its share of the samples (1.2 s of wall time once gave
     * it too few to count as a significant change).
     */
    private static void work(String variant) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        boolean cpuClock = threads.isCurrentThreadCpuTimeSupported();
        long end = (cpuClock ? threads.getCurrentThreadCpuTime() : System.nanoTime()) + 1_200_000_000L;
        long sink = 0;
        int round = 0;
        while ((cpuClock ? threads.getCurrentThreadCpuTime() : System.nanoTime()) < end) {
            Map<Integer, String> map = new HashMap<>();
            for (int i = 0; i < 20_000; i++) {
                map.put(i, Integer.toString(i));
            }
            sink += map.size();
            retained.add(new byte[4096]);
            if (variant.equals("b")) {
                sink += fibonacci(24);
            }
            if (++round % 40 == 0) {
                System.gc();
            }
        }
        if (sink == 42) {
            retained.clear();
        }
    }

    private static long fibonacci(int n) {
        return n < 2 ? n : fibonacci(n - 1) + fibonacci(n - 2);
    }
}
