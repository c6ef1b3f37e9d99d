package org.jfrworkbench.importer;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/**
 * Whether the machine has a processor spare for a second thread beside the caller's: the one judgment behind the
 * importer's second threads and the queries' helpers. It looks at the CPU time the machine and this JVM used since
 * the last look, at most every {@link #LOOK_NANOS}, in one place, because each look at the machine's CPU use restarts
 * the window the next one measures. The load average would be wrong both ways: it counts this JVM's own work of the
 * last minute, done by now (a benchmark's reads, the queries before), as other work, and keeps up the count of a process
 * that has since stopped; measured so, an import on an otherwise idle 2-processor machine never got its second thread.
 * Where the CPU times are unknown (or on the first look) the load average decides.
 */
public final class SpareCpu {
    private static final int CORES = Runtime.getRuntime().availableProcessors();
    private static final OperatingSystemMXBean OS = ManagementFactory.getOperatingSystemMXBean();
    /** How long one look serves: a server's diffs come a few per second, an import's pools a few per chunk. */
    private static final long LOOK_NANOS = 250_000_000L;
    private static long lookedAt;
    private static boolean looked;
    /** The last look's shares of all processors' time (0 to 1), the machine's and this JVM's; -1: not known. */
    private static double machine = -1;
    private static double ours = -1;

    private SpareCpu() {
    }

    /**
     * Whether other processes leave a processor spare beside the caller's thread. This JVM's own work is not counted:
     * its work of the last moments is done, or bound by the caller (a query takes no helper while other work runs in
     * the server, an import at most one second thread per processor but one).
     */
    public static synchronized boolean now() {
        look();
        return known() ? spare(CORES, machine, ours) : OS.getSystemLoadAverage() < CORES - 0.5;
    }

    private static boolean known() {
        return machine >= 0 && ours >= 0;
    }

    private static void look() {
        long now = System.nanoTime();
        if (looked && now - lookedAt < LOOK_NANOS) {
            return;
        }
        double m = -1;
        double o = -1;
        if (OS instanceof com.sun.management.OperatingSystemMXBean os) {
            // both since the previous call (the first call: since the JVM started measuring), so read together
            m = os.getCpuLoad();
            o = os.getProcessCpuLoad();
        }
        // the first look's figures cover an unknown stretch: until the next look the load average decides
        machine = looked ? m : -1;
        ours = looked ? o : -1;
        looked = true;
        lookedAt = now;
    }

    /**
     * machine, ours: the shares of all processors' time that the machine and this JVM used (0 to 1). Spare when the
     * other processes' use and the caller's thread stay below the processors less a half.
     */
    public static boolean spare(int cores, double machine, double ours) {
        double others = Math.max(0, machine - ours) * cores;
        return others + 1 < cores - 0.5;
    }

}
