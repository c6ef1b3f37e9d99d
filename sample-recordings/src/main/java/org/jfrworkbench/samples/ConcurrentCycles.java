package org.jfrworkbench.samples;

import java.util.concurrent.locks.LockSupport;

/**
 * G1 concurrent cycles one after the other and nothing else: retains a graph of small objects whose marking takes
 * most of each cycle, then calls {@code System.gc()} in a loop. Run with {@code -XX:+UseG1GC -XX:+ExplicitGCInvokesConcurrent}, each
 * call is a young GC that starts a concurrent mark, ended by the Remark and Cleanup pauses, and returns when the cycle
 * is done; the workload allocates next to nothing, so these are the only GCs. Usage: {@code ConcurrentCycles
 * SECONDS|stdin}.
 */
public final class ConcurrentCycles {
    /** A node of the retained graph. */
    static final class Node {
        Node next;
        Object payload;
    }

    static Node head;

    public static void main(String[] args) throws Exception {
        RunFor run = RunFor.parse(args, 0, 10);
        for (int i = 0; i < 200_000; i++) {
            Node n = new Node();
            n.next = head;
            n.payload = i % 4 == 0 ? new long[2] : null;
            head = n;
        }
        System.out.println("concurrent cycles started");
        long cycles = 0;
        while (run.running()) {
            System.gc();
            cycles++;
            LockSupport.parkNanos(5_000_000);
        }
        System.out.println("cycles " + cycles);
    }
}
