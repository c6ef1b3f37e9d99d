package org.jfrworkbench.bench.inputs;

import java.util.List;

/**
 * How one benchmark input is made: which recorder with which options, and when the workload stops (whichever limit
 * comes first: its run time, the number of requests served, or the size the growing recording file reaches).
 *
 * @param maxSeconds   the longest run time
 * @param cpuSeconds   stop after the workload's process used this much CPU time (0: no limit): a cpu profile then
 *                     holds the same number of samples however busy the machine is
 * @param stopAtBytes  stop once the file reaches this size (0: never); for producers that write chunks as they go
 * @param workload     what runs: the generated service ({@link ServiceWorkload}) or the JDK's compiler
 *                     ({@link CompilerWorkload}, with {@code workers} threads; classes, shapes and diverge unused)
 */
record InputSpec(String name, String description, Producer producer, String options, List<String> jvmOptions,
                 long seed, int classes, int workers, long shapes, int diverge, double maxSeconds, double cpuSeconds, long stopAtBytes,
                 String heap, Workload workload) {

    enum Producer { ASYNC_PROFILER, JFR }

    enum Workload { SERVICE, COMPILER }

    /**
     * The defaults for the workload: one seed, 3,000 classes, 6 workers, 3,000 request shapes, one branch in a thousand
     * off the shape, 512 MB heap.
     */
    static InputSpec of(String name, String description, Producer producer, String options) {
        return new InputSpec(name, description, producer, options, List.of(), 20261201L, 3000, 6, 3_000L, 1000, 600, 0, 0,
                "512m", Workload.SERVICE);
    }

    InputSpec stopAfter(double seconds, double cpu, long bytes) {
        return new InputSpec(name, description, producer, options, jvmOptions, seed, classes, workers, shapes, diverge, seconds,
                cpu, bytes, heap, workload);
    }

    InputSpec withJvmOptions(String... options) {
        return new InputSpec(name, description, producer, this.options, List.of(options), seed, classes, workers, shapes,
                diverge, maxSeconds, cpuSeconds, stopAtBytes, heap, workload);
    }

    InputSpec withShapes(long count) {
        return new InputSpec(name, description, producer, options, jvmOptions, seed, classes, workers, count, diverge, maxSeconds,
                cpuSeconds, stopAtBytes, heap, workload);
    }

    /** The JDK's compiler on threads threads instead of the service, with another seed (the files each pass takes). */
    InputSpec compiling(int threads, long seed) {
        return new InputSpec(name, description, producer, options, jvmOptions, seed, classes, threads, shapes, diverge,
                maxSeconds, cpuSeconds, stopAtBytes, "1g", Workload.COMPILER);
    }
}
