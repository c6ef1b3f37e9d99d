package org.jfrworkbench.testkit.workload;

import java.util.HashMap;
import java.util.Map;

/**
 * Child JVM for the server's {@code AgentUploadIT}: some CPU and allocation for the agent to record, until its standard
 * input ends (the test closes it once it has seen the uploads it waits for, however long a busy machine takes).
 */
public final class UploadingWorkload {
    private static volatile boolean stop;

    private UploadingWorkload() {
    }

    public static void main(String[] args) {
        Thread stdin = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // nothing to read: only the end counts
                }
            } catch (java.io.IOException e) {
                // a closed pipe ends the run as well
            }
            stop = true;
        }, "stdin-watch");
        stdin.setDaemon(true);
        stdin.start();
        Map<String, Integer> counts = new HashMap<>();
        long n = 0;
        while (!stop) {
            String key = "k" + (n++ % 5000);
            counts.merge(key, key.length(), Integer::sum);
        }
        System.out.println("done " + counts.size());
    }
}
