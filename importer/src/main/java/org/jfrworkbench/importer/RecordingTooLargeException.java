package org.jfrworkbench.importer;

/** The input may be a fine recording, but it needs more than this importer's limits allow (HTTP 413, not 400). */
public class RecordingTooLargeException extends InvalidRecordingException {
    public RecordingTooLargeException(String reason) {
        super(-1, reason);
    }
}
