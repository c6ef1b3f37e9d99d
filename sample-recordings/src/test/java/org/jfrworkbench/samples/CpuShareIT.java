package org.jfrworkbench.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The agent's CPU samples must show a workload's known CPU split (60/30/10 %) within 3 points. */
class CpuShareIT {
    @TempDir
    Path tmp;

    @ParameterizedTest(name = "engine={0}")
    @ValueSource(strings = {"async", "jfr"})
    void cpuSharesMatchTheKnownSplit(String engine) throws Exception {
        ChildJvm jvm = ChildJvm.jdk("25");
        Path dir = tmp.resolve("rec");
        jvm.run("dir=" + dir + ",engine=" + engine + ",cpu=5ms,interval=60s", List.of(), tmp.resolve("out.log"),
                "org.jfrworkbench.samples.CpuSplit", "8");
        long[] counts = new long[3];
        String[] methods = {"sixty", "thirty", "ten"};
        for (RecordedEvent e : Recordings.events(Recordings.chunks(dir))) {
            if (!e.getEventType().getName().equals("jdk.ExecutionSample") || e.getStackTrace() == null) {
                continue;
            }
            for (RecordedFrame f : e.getStackTrace().getFrames()) {
                if (f.getMethod().getType().getName().equals("org.jfrworkbench.samples.CpuSplit")) {
                    int i = List.of(methods).indexOf(f.getMethod().getName());
                    if (i >= 0) {
                        counts[i]++;
                        break;
                    }
                }
            }
        }
        long total = counts[0] + counts[1] + counts[2];
        assertTrue(total > 500, "enough samples: " + total);
        double[] expected = {60, 30, 10};
        for (int i = 0; i < 3; i++) {
            double share = 100.0 * counts[i] / total;
            assertEquals(expected[i], share, 3.0, methods[i] + " share (" + counts[i] + " of " + total + ")");
        }
    }
}
