package org.jfrworkbench.server.http;

/** The server cannot take this work now (memory, queue or connection slots are taken): 503 with Retry-After. */
final class OverloadedException extends RuntimeException {
    private final int retryAfterSeconds;

    OverloadedException(String message, int retryAfterSeconds) {
        super(message + "; retry in " + retryAfterSeconds + " s");
        this.retryAfterSeconds = retryAfterSeconds;
    }

    int retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
