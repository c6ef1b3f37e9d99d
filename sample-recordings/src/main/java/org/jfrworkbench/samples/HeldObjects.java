package org.jfrworkbench.samples;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;

/**
 * Holds a number of the smallest objects ({@code new Object()}, 16 bytes each, in one array) and calls
 * {@code System.gc()} every few seconds, doing nothing else: what a full collection costs per live object, with and
 * without the JVM's heap count. Prints {@code RESULT gcMillis cpuMillis | cpuMicros...}: the collectors' time and the
 * process's CPU time over the loop, then the process's CPU time around each collection (the collection's, the JVM
 * being idle otherwise: a loaded machine stretches it less than the pause's wall time). Usage:
 * {@code HeldObjects OBJECTS SECONDS EVERY_SECONDS}.
 */
public final class HeldObjects {
    static Object[] kept;

    public static void main(String[] args) throws Exception {
        long seconds = Long.parseLong(args[1]);
        long every = Long.parseLong(args[2]);
        kept = new Object[Integer.parseInt(args[0])];
        for (int i = 0; i < kept.length; i++) {
            kept[i] = new Object();
        }
        long gcTime0 = totalGcMillis();
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpu0 = os.getProcessCpuTime();
        StringBuilder gcCpu = new StringBuilder();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < end) {
            Thread.sleep(TimeUnit.SECONDS.toMillis(every));
            long before = os.getProcessCpuTime();
            System.gc();
            gcCpu.append((os.getProcessCpuTime() - before) / 1000).append(' ');
        }
        long cpu = (os.getProcessCpuTime() - cpu0) / 1_000_000;
        System.out.println("RESULT " + (totalGcMillis() - gcTime0) + " " + cpu + " | " + gcCpu);
        System.out.flush();
    }

    private static long totalGcMillis() {
        long n = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, gc.getCollectionTime());
        }
        return n;
    }
}
