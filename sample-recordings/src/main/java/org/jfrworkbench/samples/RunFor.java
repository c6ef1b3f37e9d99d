package org.jfrworkbench.samples;

import java.io.IOException;

/**
 * How long a workload runs, from its SECONDS argument: that many seconds, or, given {@code stdin}, until its standard
 * input ends. Tests use the latter and close the child's stdin once they have seen what they need, so a busy machine
 * makes a run longer instead of failing the test (and a test JVM that dies ends its children too).
 */
final class RunFor {
    static final String STDIN = "stdin";

    private final long seconds;
    private final long endNanos;
    private volatile boolean stdinEnded;

    private RunFor(long seconds) {
        this.seconds = seconds;
        this.endNanos = System.nanoTime() + seconds * 1_000_000_000L;
    }

    /** The run length an argument names; {@code fallbackSeconds} when there is none. */
    static RunFor parse(String[] args, int index, long fallbackSeconds) {
        String arg = args.length > index ? args[index] : Long.toString(fallbackSeconds);
        if (!arg.equals(STDIN)) {
            return new RunFor(Long.parseLong(arg));
        }
        RunFor run = new RunFor(-1);
        Thread watch = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // the input carries nothing: only its end counts
                }
            } catch (IOException e) {
                // a broken pipe ends the run as well
            }
            run.stdinEnded = true;
        }, "stdin-watch");
        watch.setDaemon(true);
        watch.start();
        return run;
    }

    boolean untilStdinEnds() {
        return seconds < 0;
    }

    /** The seconds asked for; -1 when the run lasts until stdin ends. */
    long seconds() {
        return seconds;
    }

    /** Whether the run goes on, by the wall clock (or stdin); workloads that count CPU time ask {@link #stopped()}. */
    boolean running() {
        return untilStdinEnds() ? !stdinEnded : System.nanoTime() - endNanos < 0;
    }

    /** Whether stdin has ended (never, for a run of fixed length). */
    boolean stopped() {
        return stdinEnded;
    }
}
