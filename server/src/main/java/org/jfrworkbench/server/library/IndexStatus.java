package org.jfrworkbench.server.library;

/**
 * Where a recording's search index entry stands: {@code indexed}; {@code pending} (made right after the upload's
 * answer); {@code retrying} (an attempt failed, the next comes at {@code nextAttemptMillis}); {@code failed} (every
 * attempt failed: the next start indexes it). attempts: those that failed; error: the last failure's type (the server's
 * log has the rest).
 */
public record IndexStatus(String state, int attempts, String error, long nextAttemptMillis) {
    public static final String RETRYING = "retrying";
    public static final String FAILED = "failed";
    static final IndexStatus INDEXED = new IndexStatus("indexed", 0, null, 0);
    static final IndexStatus PENDING = new IndexStatus("pending", 0, null, 0);
}
