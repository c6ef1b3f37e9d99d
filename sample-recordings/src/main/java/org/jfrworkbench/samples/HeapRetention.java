package org.jfrworkbench.samples;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * Retains a known mix of objects, replacing it steadily, while making garbage at a set rate: the workloads the
 * live-heap accuracy benchmark compares with {@code jcmd GC.class_histogram}. Usage: {@code HeapRetention MIX [MB/s]}
 * with MIX one of
 * <ul>
 * <li>{@code orders}: a {@code HashMap<Integer, Order>} of 200,000 small records (each with a boxed {@code Long} and
 * {@code Integer}, a {@code String} and a {@code long[8]}) and 800 blobs of 64 KB, about 45 % each of the retained heap,
 * about as many new ones put every 5 to 8 s;</li>
 * <li>{@code cache}: an LRU cache (a {@code LinkedHashMap} in access order) of 60,000 entries, each a {@code String}
 * key and an entry of a 1 KB {@code byte[]} and an {@code ArrayList} of 16 boxed {@code Integer}s, entries evicted as new ones come;</li>
 * <li>{@code list}: a list of {@code long[]} and {@code int[]} rows that grows to 2,000,000 slots and is then rebuilt
 * from empty, so that its {@code Object[]} growth arrays are replaced again and again.</li>
 * </ul>
 * Garbage (short {@code byte[]}, {@code char[]} and strings) comes at MB/s (default 250). Control over stdin: the
 * workload prints {@code READY <pid>} once its retained set is built; a line {@code pause} stops every allocation
 * (it prints {@code PAUSED}) so that a histogram and the recording see the same objects; the end of stdin ends it.
 */
public final class HeapRetention {
    /** A retained order: the class the live view should name. */
    record Order(Long id, Integer quantity, String customer, long[] prices) {
    }

    static volatile Object sink;
    /** Reachable from a static field: a local would be dead (and collected) once the loop no longer reads it. */
    static Mix retained;
    private static volatile boolean pause;

    public static void main(String[] args) throws Exception {
        String mix = args.length > 0 ? args[0] : "orders";
        double garbageBytesPerSecond = (args.length > 1 ? Double.parseDouble(args[1]) : 250) * 1024 * 1024;
        retained = switch (mix) {
            case "orders" -> new Orders();
            case "cache" -> new Cache();
            case "list" -> new GrowingList();
            default -> throw new IllegalArgumentException("MIX must be orders, cache or list, not " + mix);
        };
        Thread control = new Thread(HeapRetention::control, "control");
        control.setDaemon(true);
        control.start();
        retained.build();
        System.out.println("READY " + ProcessHandle.current().pid());
        System.out.flush();
        SplittableRandom random = new SplittableRandom(42);
        long start = System.nanoTime();
        long garbage = 0;
        while (!pause) {
            retained.step(random);
            garbage += garbage(random);
            // pace the garbage: ahead of the rate, wait
            long due = (long) ((System.nanoTime() - start) / 1e9 * garbageBytesPerSecond);
            if (garbage > due) {
                LockSupport.parkNanos((long) ((garbage - due) / garbageBytesPerSecond * 1e9));
            }
        }
        System.out.println("PAUSED " + retained.size());
        System.out.flush();
        synchronized (HeapRetention.class) {
            while (true) {
                HeapRetention.class.wait(); // until stdin ends (the control thread exits the JVM), allocating nothing
            }
        }
    }

    private static void control() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.trim().equals("pause")) {
                    pause = true;
                }
            }
        } catch (Exception e) {
            // a broken pipe ends the run as well
        }
        System.exit(0);
    }

    /** About 64 KB of short-lived objects; returns the bytes allocated (roughly). */
    private static long garbage(SplittableRandom random) {
        long bytes = 0;
        for (int i = 0; i < 64; i++) {
            switch (random.nextInt(3)) {
                case 0 -> sink = new byte[512 + random.nextInt(1024)];
                case 1 -> sink = new char[256 + random.nextInt(256)];
                default -> sink = "garbage-" + random.nextLong() + "-" + i;
            }
            bytes += 1024;
        }
        return bytes;
    }

    private interface Mix {
        void build();

        /** A little replacement of the retained set, once per 64 KB of garbage. */
        void step(SplittableRandom random);

        int size();
    }

    private static final class Orders implements Mix {
        static final int ORDERS = 200_000;
        static final int BLOBS = 800;
        final Map<Integer, Order> orders = new HashMap<>();
        final List<byte[]> blobs = new ArrayList<>();
        long nextId = 1_000_000;

        public void build() {
            SplittableRandom random = new SplittableRandom(7);
            for (int i = 0; i < ORDERS; i++) {
                orders.put(i, order(random));
            }
            for (int i = 0; i < BLOBS; i++) {
                blobs.add(new byte[64 * 1024]);
            }
        }

        Order order(SplittableRandom random) {
            long id = nextId++;
            long[] prices = new long[8];
            prices[random.nextInt(8)] = id;
            return new Order(id, 1000 + random.nextInt(100_000), "customer-" + random.nextInt(1_000_000), prices);
        }

        public void step(SplittableRandom random) {
            // per 64 KB of garbage 10 orders and a blob every 40th step: at 250 MB/s of garbage as many orders as the
            // map holds are put every 5 s, as many blobs every 8 s
            for (int i = 0; i < 10; i++) {
                orders.put(random.nextInt(ORDERS), order(random));
            }
            if (random.nextInt(40) == 0) {
                blobs.set(random.nextInt(BLOBS), new byte[64 * 1024]);
            }
        }

        public int size() {
            return orders.size() + blobs.size();
        }
    }

    /** A cached entry: its payload and its recent hits. */
    record CacheEntry(byte[] payload, List<Integer> hits) {
    }

    private static final class Cache implements Mix {
        static final int ENTRIES = 60_000;
        final LinkedHashMap<String, CacheEntry> entries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, CacheEntry> eldest) {
                return size() > ENTRIES;
            }
        };
        long next;

        public void build() {
            SplittableRandom random = new SplittableRandom(7);
            for (int i = 0; i < ENTRIES; i++) {
                put(random);
            }
        }

        void put(SplittableRandom random) {
            List<Integer> hits = new ArrayList<>(16);
            for (int h = 0; h < 16; h++) {
                hits.add(1000 + random.nextInt(1_000_000));
            }
            entries.put("key-" + next++, new CacheEntry(new byte[1024], hits));
        }

        public void step(SplittableRandom random) {
            // at 250 MB/s of garbage the cache's size in new entries every 5 s
            for (int i = 0; i < 3; i++) {
                put(random);
            }
            // reads keep a few old entries in use
            for (int i = 0; i < 30; i++) {
                sink = entries.get("key-" + (next - 1 - random.nextInt(ENTRIES)));
            }
        }

        public int size() {
            return entries.size();
        }
    }

    private static final class GrowingList implements Mix {
        static final int SLOTS = 2_000_000;
        List<Object> rows = new ArrayList<>();

        public void build() {
            while (rows.size() < SLOTS / 2) {
                add(rows.size());
            }
        }

        void add(int i) {
            rows.add(i % 2 == 0 ? new long[4] : new int[6]);
        }

        public void step(SplittableRandom random) {
            // at 250 MB/s of garbage the list is rebuilt every 5 s
            for (int i = 0; i < 100; i++) {
                if (rows.size() >= SLOTS) {
                    rows = new ArrayList<>(); // the old list, rows and growth arrays become garbage at once
                }
                add(rows.size());
            }
        }

        public int size() {
            return rows.size();
        }
    }
}
