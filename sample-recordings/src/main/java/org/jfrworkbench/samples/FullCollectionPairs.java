package org.jfrworkbench.samples;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import javax.management.ListenerNotFoundException;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Full collections two at a time among short-lived garbage and a small retained set, for the agent's heap count: each
 * {@code System.gc()} waits until its collection's notification has reached this workload's listener, added after
 * every other (the agent's), so the second of a pair starts only after the agent has heard of the first. Starts once a
 * JDK recording runs (the agent's first chunk), or at once without one. Usage: {@code FullCollectionPairs SECONDS|stdin}.
 */
public final class FullCollectionPairs {
    private static final List<String> FULL_COLLECTORS = List.of("G1 Old Generation", "PS MarkSweep", "MarkSweepCompact");

    public static void main(String[] args) throws Exception {
        RunFor run = RunFor.parse(args, 0, 15);
        List<byte[]> retained = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            retained.add(new byte[2048]);
        }
        awaitRecording(run);
        System.out.println("full collection pairs started");
        long pairs = 0;
        while (run.running()) {
            fullCollection();
            fullCollection();
            pairs++;
            for (int i = 0; i < 100; i++) {
                RetainingCache.churn();
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(300));
        }
        System.out.println(pairs + " pairs of full collections, " + retained.size() + " buffers retained");
    }

    /** Until a JDK recording runs: the agent starts its recorder on a thread of its own beside main. */
    private static void awaitRecording(RunFor run) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (run.running() && System.nanoTime() < deadline && !(jdk.jfr.FlightRecorder.isInitialized()
                && jdk.jfr.FlightRecorder.getFlightRecorder().getRecordings().stream()
                        .anyMatch(r -> r.getState() == jdk.jfr.RecordingState.RUNNING))) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }

    /** A System.gc() that returns once its full collection's notification was delivered here (listeners go in order). */
    private static void fullCollection() throws InterruptedException {
        CountDownLatch seen = new CountDownLatch(1);
        NotificationListener listener = (notification, handback) -> {
            if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())
                    && GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData()).getGcCause().equals("System.gc()")) {
                seen.countDown();
            }
        };
        List<NotificationEmitter> emitters = new ArrayList<>();
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (FULL_COLLECTORS.contains(gc.getName()) && gc instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener(listener, null, null);
                emitters.add(emitter);
            }
        }
        try {
            System.gc();
            if (!emitters.isEmpty()) {
                seen.await(60, TimeUnit.SECONDS);
            }
        } finally {
            for (NotificationEmitter emitter : emitters) {
                try {
                    emitter.removeNotificationListener(listener);
                } catch (ListenerNotFoundException ignored) {
                    // not added
                }
            }
        }
    }
}
