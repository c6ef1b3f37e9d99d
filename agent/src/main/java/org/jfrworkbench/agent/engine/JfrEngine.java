package org.jfrworkbench.agent.engine;

import java.nio.file.Path;
import java.util.Map;
import jdk.jfr.Recording;
import org.jfrworkbench.agent.AgentOptions;

/** The JDK's own Flight Recorder: the fallback where async-profiler cannot load, or {@code engine=jfr}. */
public final class JfrEngine implements ProfilingEngine {
    private final Map<String, String> settings;
    /** Volatile: the heap count switches it from the GC notifications' thread. */
    private volatile Recording recording;

    public JfrEngine(AgentOptions options) throws Exception {
        this.settings = JfrSettings.forJfrEngine(options);
    }

    @Override
    public void start(Path file) throws Exception {
        Recording r = new Recording(settings);
        r.setName("workbench-agent");
        r.setToDisk(true);
        r.setDestination(file);
        r.start();
        recording = r;
    }

    @Override
    public void stop() throws Exception {
        Recording r = recording;
        recording = null;
        if (r != null) {
            // at JVM exit the JDK's own shutdown hook may have stopped (and written) it already
            if (r.getState() == jdk.jfr.RecordingState.RUNNING) {
                r.stop(); // writes the destination file
            }
            r.close();
        }
    }

    @Override
    public void heapCount(boolean on) {
        JfrSettings.heapCount(recording, on);
    }

    @Override
    public String describe() {
        return "JDK Flight Recorder";
    }
}
