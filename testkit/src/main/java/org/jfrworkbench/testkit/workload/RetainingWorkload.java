package org.jfrworkbench.testkit.workload;

import java.util.ArrayList;
import java.util.List;

import one.profiler.AsyncProfiler;

/**
 * Child JVM for the server's {@code LiveHeapIT}: profiles itself with async-profiler (alloc + live + jfrsync), keeps a known mix
 * of objects live among garbage, says READY with its pid, waits for a line on stdin, then stops the profiler.
 */
public final class RetainingWorkload {
    static volatile Object sink;

    public static void main(String[] args) throws Exception {
        AsyncProfiler profiler = AsyncProfiler.getInstance();
        profiler.execute("start,event=cpu,alloc=16k,live,jfrsync=default,file=" + args[0]);
        List<Object> keep = new ArrayList<>();
        // Three classes with about 100 MB each. async-profiler tracks at most about a thousand sampled objects at
        // once; equal shares give each class a third of them, and many young GCs (small young generation, set by
        // the test) free the garbage's slots so that the tracked set fills up with retained objects. The large
        // retained total keeps the objects allocated before profiling began (not sampled) a small part of the heap.
        for (int i = 0; i < 1_000_000; i++) {
            if (i % 10 == 0) {
                keep.add(new byte[1024]);          // 100,000 x 1 KiB
            }
            if (i % 10 == 5) {
                keep.add(new long[128]);           // 100,000 x 1 KiB
            }
            if (i % 4 != 3) {
                keep.add(new int[30]);             // 750,000 x 136 B
            }
            sink = new byte[512];                  // garbage
            sink = new char[256];                  // garbage
        }
        System.gc();
        System.out.println("READY " + ProcessHandle.current().pid());
        System.out.flush();
        System.in.read();
        profiler.execute("stop");
        System.out.println("DONE " + keep.size());
        System.out.flush();
    }
}
