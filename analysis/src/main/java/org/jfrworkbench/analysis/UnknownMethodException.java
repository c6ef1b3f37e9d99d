package org.jfrworkbench.analysis;

/** A method asked for by name is not in the recording (a 404, not a malformed query). */
public final class UnknownMethodException extends RuntimeException {
    public UnknownMethodException(String message) {
        super(message);
    }
}
