package org.jfrworkbench.importer;

/**
 * Bounds on what an import may expand to: the largest decompressed size and the largest ratio of decompressed
 * to compressed bytes (zip/gzip bombs).
 */
public record ImportLimits(long maxDecompressedBytes, long maxCompressionRatio) {
    public static final ImportLimits DEFAULT = new ImportLimits(8L << 30, 1000);
}
