package org.jfrworkbench.importer;

import java.nio.file.Path;

/**
 * Bounds on what one import may take: the largest decompressed size over all layers (an absolute budget beside
 * the ratio, zip and gzip bombs), the largest ratio of decompressed to compressed bytes, the samples the profile
 * may hold (its memory), the entries of a zip, and where decompressed layers are spooled (null: the system's
 * temporary directory).
 */
public record ImportLimits(long maxDecompressedBytes, long maxCompressionRatio, long maxSamples, int maxZipEntries,
                           Path tempDir) {
    public static final int DEFAULT_ZIP_ENTRIES = 1024;
    public static final ImportLimits DEFAULT = new ImportLimits(8L << 30, 1000);

    public ImportLimits(long maxDecompressedBytes, long maxCompressionRatio) {
        this(maxDecompressedBytes, maxCompressionRatio, Long.MAX_VALUE, DEFAULT_ZIP_ENTRIES, null);
    }

    /**
     * The limits of a server whose heap is heapBytes: at most a quarter of it for one import's samples (about 16
     * bytes each, at least a million), and at most four heaps of decompressed bytes (at least 1 GB), spooled in
     * tempDir.
     */
    public static ImportLimits forHeap(long heapBytes, Path tempDir) {
        long samples = Math.max(1L << 20, heapBytes / 4 / 16);
        long expanded = Math.min(DEFAULT.maxDecompressedBytes(), Math.max(1L << 30, heapBytes * 4));
        return new ImportLimits(expanded, DEFAULT.maxCompressionRatio(), samples, DEFAULT_ZIP_ENTRIES, tempDir);
    }

    public ImportLimits withTempDir(Path dir) {
        return new ImportLimits(maxDecompressedBytes, maxCompressionRatio, maxSamples, maxZipEntries, dir);
    }
}
