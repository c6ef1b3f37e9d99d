package org.jfrworkbench.server.http;

/** An upload's body stopped arriving for longer than the server's idle timeout: 408, and nothing is stored. */
final class StalledUploadException extends RuntimeException {
    StalledUploadException() {
        super("the upload stalled: no bytes arrived within the server's idle timeout");
    }
}
