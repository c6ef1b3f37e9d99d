package org.jfrworkbench.server.torture;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/** Latencies per request type, and the percentiles the summaries print. */
final class Stats {
    private final Map<String, long[]> nanos = new TreeMap<>();
    private final Map<String, Integer> counts = new TreeMap<>();

    synchronized void add(String type, long n) {
        long[] a = nanos.computeIfAbsent(type, k -> new long[1024]);
        int c = counts.getOrDefault(type, 0);
        if (c == a.length) {
            a = Arrays.copyOf(a, c * 2);
            nanos.put(type, a);
        }
        a[c] = n;
        counts.put(type, c + 1);
    }

    synchronized int count(String type) {
        return counts.getOrDefault(type, 0);
    }

    synchronized int total() {
        return counts.values().stream().mapToInt(Integer::intValue).sum();
    }

    /** The q-quantile (0..1) in milliseconds, nearest rank. */
    synchronized double millis(String type, double q) {
        int c = count(type);
        if (c == 0) {
            return Double.NaN;
        }
        long[] sorted = Arrays.copyOf(nanos.get(type), c);
        Arrays.sort(sorted);
        return sorted[Math.min(c - 1, (int) Math.ceil(q * c) - 1 < 0 ? 0 : (int) Math.ceil(q * c) - 1)] / 1e6;
    }

    /** One row per request type: count, rate over the given seconds, p50, p99, max. */
    synchronized String table(double seconds) {
        StringBuilder sb = new StringBuilder(String.format("  %-16s %8s %8s %9s %9s %9s%n", "request", "count", "per s",
                "p50 ms", "p99 ms", "max ms"));
        for (String type : counts.keySet()) {
            sb.append(String.format("  %-16s %8d %8.1f %9.1f %9.1f %9.1f%n", type, count(type), count(type) / seconds,
                    millis(type, 0.5), millis(type, 0.99), millis(type, 1.0)));
        }
        return sb.toString();
    }
}
