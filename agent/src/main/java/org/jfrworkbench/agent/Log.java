package org.jfrworkbench.agent;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** The agent's only output channel: stderr, prefixed, and each distinct failure only once. */
public final class Log {
    private static final String PREFIX = "[workbench-agent] ";
    private static final Set<String> SEEN = ConcurrentHashMap.newKeySet();

    private Log() {
    }

    public static void info(String message) {
        System.err.println(PREFIX + message);
    }

    /** Logs a failure the first time its key is seen; a failure repeating every minute must not flood the app's log. */
    public static void failureOnce(String key, String message, Throwable t) {
        if (SEEN.size() < 1000 && SEEN.add(key)) {
            String cause = t == null ? "" : ": " + t.getClass().getSimpleName() + (t.getMessage() == null ? "" : " " + t.getMessage());
            System.err.println(PREFIX + message + cause);
        }
    }
}
