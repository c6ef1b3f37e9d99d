package org.jfrworkbench.importer;

import java.io.IOException;

/** The input is not a recording we can use. Carries the byte offset (-1 when not positional) and the reason. */
public class InvalidRecordingException extends IOException {
    private final long offset;
    private final String reason;

    public InvalidRecordingException(long offset, String reason) {
        super(offset >= 0 ? "at offset " + offset + ": " + reason : reason);
        this.offset = offset;
        this.reason = reason;
    }

    public InvalidRecordingException(long offset, String reason, Throwable cause) {
        this(offset, reason);
        initCause(cause);
    }

    public long offset() {
        return offset;
    }

    public String reason() {
        return reason;
    }
}
