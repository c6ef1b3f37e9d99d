package org.jfrworkbench.server.library;

/** An upload is larger than the configured limit; nothing of it is kept. */
public final class UploadTooLargeException extends RuntimeException {
    public UploadTooLargeException(long limit) {
        super("upload exceeds the limit of " + limit + " bytes");
    }
}
