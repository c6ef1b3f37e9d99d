package org.jfrworkbench.analysis;

/** A query parameter is malformed (bad kind, time, regex, id list); the message names it. */
public final class BadQueryException extends RuntimeException {
    public BadQueryException(String message) {
        super(message);
    }
}
