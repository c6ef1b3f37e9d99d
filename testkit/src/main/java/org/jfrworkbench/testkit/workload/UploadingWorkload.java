package org.jfrworkbench.testkit.workload;

import java.util.HashMap;
import java.util.Map;

/** Child JVM for the server's {@code AgentUploadIT}: some CPU and allocation for the agent to record, for N seconds. */
public final class UploadingWorkload {
    private UploadingWorkload() {
    }

    public static void main(String[] args) {
        long end = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000_000L;
        Map<String, Integer> counts = new HashMap<>();
        long n = 0;
        while (System.nanoTime() < end) {
            String key = "k" + (n++ % 5000);
            counts.merge(key, key.length(), Integer::sum);
        }
        System.out.println("done " + counts.size());
    }
}
