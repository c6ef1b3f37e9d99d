import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A service-like mix for long recordings: worker threads walk randomly chosen call paths through a dozen methods (so
 * stacks keep being new for a long time), allocate objects of several classes, keep some in a bounded cache, contend
 * on shared locks and park, while idle threads wait. Arguments: the longest run time in milliseconds, then optionally
 * a file and a size: the run ends early once the file (the recording, which grows a chunk at a time) reaches it.
 */
public class VariedWorkload {
    static volatile Object sink;
    static volatile boolean stop;
    static final Object[] MONITORS = {new Object(), new Object(), new Object()};
    static final ReentrantLock LOCK = new ReentrantLock();
    static final Map<Integer, Object> CACHE = new HashMap<>();

    record Order(long id, String customer, double[] lines) {
    }

    public static void main(String[] args) throws Exception {
        long end = System.currentTimeMillis() + Long.parseLong(args.length > 0 ? args[0] : "2000");
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 6; t++) {
            long seed = t;
            threads.add(new Thread(() -> work(new Random(seed), end), "worker-" + t));
        }
        for (int t = 0; t < 10; t++) {
            threads.add(new Thread(() -> {
                while (!stop && System.currentTimeMillis() < end) {
                    LockSupport.parkNanos(5_000_000);
                }
            }, "idle-" + t));
        }
        threads.forEach(Thread::start);
        if (args.length >= 3) {
            java.nio.file.Path file = java.nio.file.Path.of(args[1]);
            long enough = Long.parseLong(args[2]);
            while (System.currentTimeMillis() < end) {
                Thread.sleep(500);
                if (java.nio.file.Files.exists(file) && java.nio.file.Files.size(file) >= enough) {
                    stop = true;
                    break;
                }
            }
        }
        for (Thread t : threads) {
            t.join();
        }
    }

    static void work(Random r, long end) {
        while (!stop && System.currentTimeMillis() < end) {
            sink = step(r, 0, r.nextInt(24) + 4);
            if (r.nextInt(50) == 0) {
                LockSupport.parkNanos(200_000);
            }
        }
    }

    /** One of twelve methods at each level, chosen at random: the paths (and stacks) vary widely. */
    static Object step(Random r, int depth, int max) {
        if (depth >= max) {
            return leaf(r);
        }
        switch (r.nextInt(12)) {
            case 0: return parse(r, depth, max);
            case 1: return validate(r, depth, max);
            case 2: return price(r, depth, max);
            case 3: return persist(r, depth, max);
            case 4: return render(r, depth, max);
            case 5: return lookup(r, depth, max);
            case 6: return compress(r, depth, max);
            case 7: return schedule(r, depth, max);
            case 8: return audit(r, depth, max);
            case 9: return encode(r, depth, max);
            case 10: return route(r, depth, max);
            default: return merge(r, depth, max);
        }
    }

    static Object leaf(Random r) {
        switch (r.nextInt(6)) {
            case 0: {
                double x = 0;
                for (int i = 0; i < 2000; i++) {
                    x += Math.sqrt(i * r.nextDouble());
                }
                return x;
            }
            case 1: return new byte[64 + r.nextInt(4096)];
            case 2: return new Order(r.nextLong(), "customer-" + r.nextInt(1000), new double[1 + r.nextInt(64)]);
            case 3: {
                StringBuilder sb = new StringBuilder();
                for (int i = 0; i < 50; i++) {
                    sb.append(r.nextInt());
                }
                return sb.toString();
            }
            case 4: {
                synchronized (MONITORS[r.nextInt(MONITORS.length)]) {
                    double x = 0;
                    for (int i = 0; i < 3000; i++) {
                        x += Math.log1p(i);
                    }
                    return x;
                }
            }
            default: {
                LOCK.lock();
                try {
                    Object o = new int[16 + r.nextInt(256)];
                    CACHE.put(r.nextInt(20_000), o);
                    return o;
                } finally {
                    LOCK.unlock();
                }
            }
        }
    }

    static Object parse(Random r, int d, int m) { return step(r, d + 1, m); }
    static Object validate(Random r, int d, int m) { return step(r, d + 1, m); }
    static Object price(Random r, int d, int m) { return step(r, d + 1, m); }
    static Object persist(Random r, int d, int m) { return step(r, d + 1, m); }
    static Object render(Random r, int d, int m) { return step(r, d + 1, m); }
    static Object lookup(Random r, int d, int m) { return step(r, d + 1, m); }
    static Object compress(Random r, int d, int m) { return step(r, d + 1, m); }
    static Object schedule(Random r, int d, int m) { return step(r, d + 1, m); }
    static Object audit(Random r, int d, int m) { return step(r, d + 1, m); }
    static Object encode(Random r, int d, int m) { return step(r, d + 1, m); }
    static Object route(Random r, int d, int m) { return step(r, d + 1, m); }
    static Object merge(Random r, int d, int m) { return step(r, d + 1, m); }
}
