package org.jfrworkbench.importer;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether the machine has a processor spare for a second thread beside the caller's: the one judgment behind the
 * importer's second threads and the queries' helpers. It looks at the CPU time the machine and this JVM used since
 * the last look, at most every {@link #LOOK_NANOS}, in one place, because each look at the machine's CPU use restarts
 * the window the next one measures. The load average would be wrong both ways: it counts this JVM's own work of the
 * last minute, done by now (a benchmark's reads, the queries before), as other work, and keeps up the count of a process
 * that has since stopped; measured so, an import on an otherwise idle 2-processor machine never got its second thread.
 * A look that comes long after the one before judges by what ran over that whole stretch, mostly over by now (a
 * process busy for seconds that has just ended; in a benchmark, the peer it is compared with): after such a gap a
 * processor is spare too where the threads the kernel has runnable at this moment leave one ({@code /proc/loadavg}).
 * Not that count alone: one look at one moment misses a process that is busy most of the time but not then, which the
 * CPU times of the stretch see. Where the CPU times are unknown that count decides, and where it is unknown too, the
 * load average.
 */
public final class SpareCpu {
    private static final int CORES = Runtime.getRuntime().availableProcessors();
    private static final OperatingSystemMXBean OS = ManagementFactory.getOperatingSystemMXBean();
    /** How long one look serves: a server's diffs come a few per second, an import's pools a few per chunk. */
    private static final long LOOK_NANOS = 250_000_000L;
    /** A look covering more than this tells too little about now. */
    private static final long STALE_NANOS = 1_000_000_000L;
    private static final Path LOADAVG = Path.of("/proc/loadavg");
    private static long lookedAt;
    private static boolean looked;
    /** Whether the last look's figures cover a stretch too long (or unknown) to judge now by alone. */
    private static boolean stale = true;
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
        int runnable = stale || !known() ? runnableNow() : -1;
        if (runnable > 0 && spareNow(CORES, runnable)) {
            return true;
        }
        if (known()) {
            return spare(CORES, machine, ours);
        }
        return runnable <= 0 && OS.getSystemLoadAverage() < CORES - 0.5;
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
        // the first look's figures cover an unknown stretch, and one long after the last a stretch mostly over: until
        // the next look the threads runnable at each call are asked too
        stale = !looked || now - lookedAt > STALE_NANOS;
        machine = looked ? m : -1;
        ours = looked ? o : -1;
        looked = true;
        lookedAt = now;
    }

    /** The threads the kernel has runnable at this moment, the caller's included; -1 where unknown (not Linux). */
    private static int runnableNow() {
        try {
            return runnable(Files.readString(LOADAVG));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** The runnable threads in a {@code /proc/loadavg} line ("0.52 0.58 0.59 3/144 13603": 3), -1 if it has none. */
    static int runnable(String loadavg) {
        String[] fields = loadavg.trim().split(" ");
        int slash = fields.length > 3 ? fields[3].indexOf('/') : -1;
        if (slash <= 0) {
            return -1;
        }
        try {
            return Integer.parseInt(fields[3], 0, slash, 10);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * runnable: the threads runnable now, the caller's included. Spare by the rule of {@link #spare}, where every other
     * runnable thread counts as another process's (this JVM's own cannot be told apart in one look).
     */
    static boolean spareNow(int cores, int runnable) {
        return leavesOne(cores, runnable - 1);
    }

    /**
     * machine, ours: the shares of all processors' time that the machine and this JVM used (0 to 1). Spare when the
     * other processes' use and the caller's thread stay below the processors less a half.
     */
    public static boolean spare(int cores, double machine, double ours) {
        return leavesOne(cores, Math.max(0, machine - ours) * cores);
    }

    /** The rule of both: others' processors in use and the caller's thread stay below the processors less a half. */
    private static boolean leavesOne(int cores, double others) {
        return others + 1 < cores - 0.5;
    }

}
