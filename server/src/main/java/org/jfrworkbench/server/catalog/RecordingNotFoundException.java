package org.jfrworkbench.server.catalog;

/** No recording has this id. */
public final class RecordingNotFoundException extends RuntimeException {
    public RecordingNotFoundException(String id) {
        super("no recording with id '" + id + "'");
    }
}
