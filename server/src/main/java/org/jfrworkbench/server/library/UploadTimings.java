package org.jfrworkbench.server.library;

import java.util.Locale;

/** How long each step of an upload took, in order; the upload's answer carries them as its Server-Timing header. */
public final class UploadTimings {
    private final StringBuilder steps = new StringBuilder();
    private long last = System.nanoTime();

    /** Ends the step that began at the previous call (or at creation) and names it. */
    void step(String name) {
        long now = System.nanoTime();
        add(name, now - last);
        last = now;
    }

    /** Adds a step timed elsewhere (e.g. on another thread, overlapping the others). */
    void add(String name, long nanos) {
        if (!steps.isEmpty()) {
            steps.append(", ");
        }
        steps.append(String.format(Locale.ROOT, "%s;dur=%.1f", name, nanos / 1e6));
    }

    /** The steps as a Server-Timing header value: {@code stage;dur=12.3, import;dur=456.7, ...}. */
    public String serverTiming() {
        return steps.toString();
    }
}
