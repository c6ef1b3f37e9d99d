package org.jfrworkbench.server.library;

/** A run's part number is stored already with other bytes (or the id is not a run's): nothing was changed. */
public final class PartConflictException extends RuntimeException {
    public PartConflictException(String message) {
        super(message);
    }
}
