package org.jfrworkbench.server.store;

/** No recording has this id. */
public final class RecordingNotFoundException extends RuntimeException {
    public RecordingNotFoundException(String id) {
        super("no recording with id '" + id + "'");
    }
}
