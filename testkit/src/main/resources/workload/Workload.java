import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;

import jdk.jfr.Event;
import jdk.jfr.Name;

/**
 * CPU, allocation, retained objects, lock contention and parking, plus our agent's custom events: for at least the
 * given milliseconds and at least three explicit GCs (so a loaded machine makes the run longer, not emptier).
 */
public class Workload {
    static final int GCS = 3;
    static volatile Object sink;
    static volatile boolean done;
    static final Object LOCK = new Object();

    @Name("workbench.Label")
    static class Label extends Event {
        String key;
        String value;
    }

    @Name("workbench.HeapSummary")
    static class HeapSummary extends Event {
        long gcId;
        String gcName;
        String gcCause;
        String gcAction;
        long gcStartMillis;
        long gcDurationMillis;
        long usedBefore;
        long usedAfter;
        long committedAfter;
        long maxHeap;
    }

    public static void main(String[] args) throws Exception {
        long end = System.currentTimeMillis() + Long.parseLong(args.length > 0 ? args[0] : "2000");
        Label label = new Label();
        label.key = "service";
        label.value = "workload";
        label.commit();
        Runnable spin = () -> {
            while (!done) {
                synchronized (LOCK) {
                    sink = new byte[1000];
                    double x = 0;
                    for (int i = 0; i < 20000; i++) {
                        x += Math.sqrt(i);
                    }
                    sink = x;
                }
            }
        };
        Thread t1 = new Thread(spin, "worker-1");
        Thread t2 = new Thread(spin, "worker-2");
        t1.start();
        t2.start();
        List<Object> keep = new ArrayList<>();
        Random random = new Random(1);
        int round = 0;
        while (System.currentTimeMillis() < end || round < GCS * 1000) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < 1000; i++) {
                sb.append(random.nextInt());
            }
            keep.add(sb.toString());
            if (keep.size() > 5000) {
                keep.subList(0, 2500).clear();
            }
            LockSupport.parkNanos(100_000);
            if (++round % 1000 == 0) {
                long before = Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory();
                long start = System.currentTimeMillis();
                System.gc();
                HeapSummary h = new HeapSummary();
                h.gcId = round / 1000;
                h.gcName = "System.gc";
                h.gcCause = "workload";
                h.gcAction = "end of major GC";
                h.gcStartMillis = start;
                h.gcDurationMillis = System.currentTimeMillis() - start;
                h.usedBefore = before;
                h.usedAfter = Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory();
                h.committedAfter = Runtime.getRuntime().totalMemory();
                h.maxHeap = Runtime.getRuntime().maxMemory();
                h.commit();
            }
        }
        done = true;
        t1.join();
        t2.join();
    }
}
