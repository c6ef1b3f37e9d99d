package org.jfrworkbench.importer;

/** Compressed data expands beyond the import's budget: a bomb, never skipped as one bad zip entry among good ones. */
public final class ExpansionLimitException extends InvalidRecordingException {
    public ExpansionLimitException(String reason) {
        super(-1, reason);
    }
}
