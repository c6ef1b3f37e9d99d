package org.jfrworkbench.agent.engine;

import java.nio.file.Path;

/** Something that records one JFR chunk file at a time: start into a file, stop to close it. */
public interface ProfilingEngine {
    /** Starts recording into {@code file}. */
    void start(Path file) throws Exception;

    /** Stops and closes the current file; afterwards it is complete and may be read or uploaded. */
    void stop() throws Exception;

    /** Called about halfway through each chunk: an engine that tunes the next chunk from this one measures from here. */
    default void halfway() {
    }

    /**
     * Switches the JVM's heap count by class (jdk.ObjectCountAfterGC) on or off in the current chunk's JDK recording;
     * nothing between chunks. Any thread.
     */
    void heapCount(boolean on);

    /** A short description for the log, e.g. "async-profiler (cpu=perf)". */
    String describe();
}
