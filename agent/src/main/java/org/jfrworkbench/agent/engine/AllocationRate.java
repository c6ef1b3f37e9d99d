package org.jfrworkbench.agent.engine;

import java.lang.management.ManagementFactory;
import java.util.function.LongSupplier;

/**
 * Chooses async-profiler's allocation sampling interval for a target number of samples per second from the
 * allocation rate measured since the last {@link #mark()} (or the previous choice, without one), in all threads'
 * allocated bytes: {@code getTotalThreadAllocatedBytes} on JDK 21+, the sum over live threads on 17, which misses
 * threads that ended in between. Sampling at
 * a fixed byte interval costs in proportion to the allocation rate: 512 KB is ~3000 samples/s for a service that
 * allocates 1.5 GB/s, but a handful for a quiet one. JDK JFR throttles its ObjectAllocationSample the same way.
 */
public final class AllocationRate {
    /** Before any rate is known (the first chunk of a JVM that just started). */
    static final long INITIAL_INTERVAL = 1024 * 1024;
    static final long MIN_INTERVAL = 16 * 1024;
    static final long MAX_INTERVAL = 1024L * 1024 * 1024;

    private final int samplesPerSecond;
    /** Bytes allocated by all threads so far, -1 when the JVM cannot tell. */
    private final LongSupplier allocated;
    private final LongSupplier clock;
    private long lastBytes = -1;
    private long lastNanos;
    private long lastInterval = INITIAL_INTERVAL;

    public AllocationRate(int samplesPerSecond) {
        this(samplesPerSecond, allocatedBytes(ManagementFactory.getThreadMXBean()), System::nanoTime);
    }

    /** With its byte count and clock given: what tests drive to know the rate exactly. */
    AllocationRate(int samplesPerSecond, LongSupplier allocated, LongSupplier clock) {
        this.samplesPerSecond = samplesPerSecond;
        this.allocated = allocated;
        this.clock = clock;
    }

    /**
     * Starts the window the next {@link #nextInterval()} measures: the recorder marks halfway through each chunk, so the
     * first chunk's start-up and JIT warm-up (a different allocation rate from the steady state) do not set the interval
     * of the second.
     */
    public synchronized void mark() {
        long bytes = allocated.getAsLong();
        if (bytes >= 0) {
            lastBytes = bytes;
            lastNanos = clock.getAsLong();
        }
    }

    /** The interval for the next chunk: the bytes/s measured since the mark divided by the target samples/s, within bounds. */
    public synchronized long nextInterval() {
        long now = clock.getAsLong();
        long bytes = allocated.getAsLong();
        long interval;
        if (bytes < 0) {
            interval = INITIAL_INTERVAL;
        } else if (lastBytes < 0) {
            // attached to a JVM that has run a while: its average since start is the best guess
            long uptimeMillis = ManagementFactory.getRuntimeMXBean().getUptime();
            interval = uptimeMillis >= 5000 ? forRate(bytes * 1000.0 / uptimeMillis) : INITIAL_INTERVAL;
        } else if (bytes < lastBytes) {
            interval = lastInterval; // JDK 17's sum over live threads lost more bytes with ended threads than were allocated
        } else {
            double seconds = Math.max(1e-3, (now - lastNanos) / 1e9);
            interval = forRate((bytes - lastBytes) / seconds);
        }
        lastBytes = bytes;
        lastNanos = now;
        lastInterval = interval;
        return interval;
    }

    long forRate(double bytesPerSecond) {
        double raw = bytesPerSecond / samplesPerSecond;
        return Math.max(MIN_INTERVAL, Math.min(MAX_INTERVAL, (long) raw));
    }

    /** All threads' allocated bytes, or -1 where the JVM does not count them. */
    private static LongSupplier allocatedBytes(java.lang.management.ThreadMXBean t) {
        if (!(t instanceof com.sun.management.ThreadMXBean threads && threads.isThreadAllocatedMemorySupported()
                && threads.isThreadAllocatedMemoryEnabled())) {
            return () -> -1;
        }
        return () -> {
            try {
                if (TOTAL != null) {
                    return (long) TOTAL.invoke(threads);
                }
                long sum = 0;
                for (long bytes : threads.getThreadAllocatedBytes(threads.getAllThreadIds())) {
                    sum += Math.max(0, bytes);
                }
                return sum;
            } catch (Throwable e) {
                return -1;
            }
        };
    }

    /** {@code getTotalThreadAllocatedBytes()}, JDK 21+ (the agent is built for 17). */
    private static final java.lang.invoke.MethodHandle TOTAL = totalHandle();

    private static java.lang.invoke.MethodHandle totalHandle() {
        try {
            return java.lang.invoke.MethodHandles.publicLookup().findVirtual(com.sun.management.ThreadMXBean.class,
                    "getTotalThreadAllocatedBytes", java.lang.invoke.MethodType.methodType(long.class));
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }
}
