package org.jfrworkbench.server.library;

import java.nio.file.Path;

/**
 * Bytes received into the scratch area, not yet a recording: the file, its SHA-256 in hex, its size and how long
 * receiving it took.
 */
public record StagedUpload(Path file, String sha256, long size, long nanos) {
}
