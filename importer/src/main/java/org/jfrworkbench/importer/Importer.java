package org.jfrworkbench.importer;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipInputStream;

import org.jfrworkbench.importer.jfr.JfrImporter;
import org.jfrworkbench.importer.jfr.RunImport;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.SampleLimitExceededException;

/**
 * The importer's entry point: recognises the format by its first bytes (JFR, gzip, zip of .jfr, collapsed text)
 * and reads it into a {@link Profile}. Bad input ends in {@link InvalidRecordingException}.
 */
public final class Importer {
    private final ImportLimits limits;

    public Importer(ImportLimits limits) {
        this.limits = limits;
    }

    public Importer() {
        this(ImportLimits.DEFAULT);
    }

    /** Reads a file; collapsed text is read as cpu samples. */
    public Profile read(Path file) throws IOException {
        return read(file, Kind.CPU);
    }

    /** Reads a file; collapsed text becomes samples of collapsedKind. */
    public Profile read(Path file, Kind collapsedKind) throws IOException {
        return read(file, collapsedKind, 0);
    }

    /**
     * Reads a run: the JFR chunks of its parts concatenated in order, read like one multi-chunk file. originNanos
     * (epoch ns, 0 = none), when earlier than the first chunk, is where the run's time starts, so that times relative
     * to its start keep their meaning whichever part arrived first.
     */
    public Profile readRun(Path concatenated, long originNanos) throws IOException {
        return read(concatenated, Kind.CPU, originNanos);
    }

    /** A run to be read part by part ({@link RunImport}), within this importer's sample limit. */
    public RunImport startRun() {
        Profile profile = new Profile();
        profile.limitSamples(limits.maxSamples());
        return RunImport.start(profile);
    }

    /** A run that goes on from its open profile and the state kept beside it, within this importer's sample limit. */
    public RunImport resumeRun(Profile open, java.io.DataInput state) throws IOException {
        open.limitSamples(limits.maxSamples());
        return RunImport.resume(open, state);
    }

    /** Reads a part (a JFR file) into the run; past the sample limit, {@link RecordingTooLargeException}. */
    public void readRunPart(RunImport run, Path part) throws IOException {
        try {
            run.read(part);
        } catch (RuntimeException e) {
            throw tooLarge(e);
        }
    }

    /** The run's profile, completed and sealed, exactly as {@link #readRun} gives for its parts' chunks concatenated. */
    public Profile finishRun(RunImport run, long originNanos) throws IOException {
        Profile profile;
        try {
            profile = run.finish();
        } catch (RuntimeException e) {
            throw tooLarge(e);
        }
        return sealed(profile, originNanos);
    }

    private Profile read(Path file, Kind collapsedKind, long originNanos) throws IOException {
        Profile profile = new Profile();
        profile.limitSamples(limits.maxSamples());
        try {
            // one expansion budget for all layers: gzip inside gzip must not multiply the ratio per layer
            readInto(file, collapsedKind, profile, 0, expansionLimit(Files.size(file)));
        } catch (RuntimeException e) {
            throw tooLarge(e);
        }
        return sealed(profile, originNanos);
    }

    /** A profile read whole, its time from originNanos on where given (0 = its own), made read-only. */
    private static Profile sealed(Profile profile, long originNanos) {
        if (originNanos > 0 && profile.chunks() > 0) {
            profile.coverTime(originNanos);
        }
        profile.heap().sort();
        profile.seal();
        return profile;
    }

    private void readInto(Path file, Kind collapsedKind, Profile profile, int nesting, long budget) throws IOException {
        byte[] magic = new byte[4];
        int n;
        try (InputStream in = Files.newInputStream(file)) {
            n = in.readNBytes(magic, 0, 4);
        }
        if (n == 0) {
            throw new InvalidRecordingException(0, "empty file");
        }
        if (n >= 4 && magic[0] == 'F' && magic[1] == 'L' && magic[2] == 'R' && magic[3] == 0) {
            JfrImporter.read(file, profile);
        } else if (n >= 2 && (magic[0] & 0xff) == 0x1f && (magic[1] & 0xff) == 0x8b) {
            if (nesting > 2) {
                throw new InvalidRecordingException(0, "compressed data nested too deeply");
            }
            Path plain = tempFile("workbench-gunzip");
            try {
                long expanded;
                CountingInputStream counted = new CountingInputStream(Files.newInputStream(file));
                try (MeteredGzip in = new MeteredGzip(counted)) {
                    expanded = copyBounded(in, in::compressedRead, plain, budget, "gzip");
                } catch (ZipException | java.io.EOFException e) {
                    throw new InvalidRecordingException(-1, "corrupt gzip data: " + e.getMessage(), e);
                }
                readInto(plain, collapsedKind, profile, nesting + 1, budget - expanded);
            } finally {
                Files.deleteIfExists(plain);
            }
        } else if (n >= 4 && magic[0] == 'P' && magic[1] == 'K' && magic[2] == 3 && magic[3] == 4) {
            if (nesting > 2) {
                throw new InvalidRecordingException(0, "compressed data nested too deeply");
            }
            readZip(file, collapsedKind, profile, nesting, budget);
        } else if (looksLikeText(magic, n)) {
            try (InputStream in = Files.newInputStream(file)) {
                new CollapsedReader(profile, collapsedKind).read(in);
            }
        } else {
            throw new InvalidRecordingException(0, String.format(
                    "unknown format (first bytes %02x %02x %02x %02x): expected JFR, gzip, zip or collapsed stacks",
                    magic[0], n > 1 ? magic[1] : 0, n > 2 ? magic[2] : 0, n > 3 ? magic[3] : 0));
        }
    }

    private void readZip(Path file, Kind collapsedKind, Profile profile, int nesting, long budget) throws IOException {
        long left = budget;
        int entries = 0;
        int seen = 0;
        String firstProblem = null;
        CountingInputStream counted = new CountingInputStream(Files.newInputStream(file));
        try (MeteredZip zip = new MeteredZip(counted)) {
            ZipEntry entry;
            while ((entry = zip.getNextEntry()) != null) {
                // every entry costs a header read and, for a recording, a temporary file and a parse
                if (++seen > limits.maxZipEntries()) {
                    throw new RecordingTooLargeException("the zip holds more than " + limits.maxZipEntries() + " entries");
                }
                String name = entry.getName();
                if (entry.isDirectory() || name.startsWith("__MACOSX/") || !isRecordingName(name)) {
                    // skipped entries are inflated too (the next entry's header lies behind them): within the budget
                    left -= copyBounded(zip, zip::compressedRead, null, left, "zip");
                    continue;
                }
                Path part = tempFile("workbench-unzip");
                try {
                    left -= copyBounded(zip, zip::compressedRead, part, left, "zip");
                    readEntry(part, collapsedKind, profile, nesting, left);
                    entries++;
                } catch (InvalidRecordingException e) {
                    if (e instanceof ExpansionLimitException || e instanceof RecordingTooLargeException) {
                        throw e;
                    }
                    // a README.txt or a broken chunk beside good recordings: the rest is still worth reading
                    String problem = "zip entry " + printable(name) + " skipped: " + e.getMessage();
                    profile.warnings().add(problem);
                    firstProblem = firstProblem == null ? problem : firstProblem;
                    left -= copyBounded(zip, zip::compressedRead, null, left, "zip"); // what is left of it
                } finally {
                    Files.deleteIfExists(part);
                }
            }
        } catch (ZipException | java.io.EOFException e) {
            throw new InvalidRecordingException(-1, "corrupt zip data: " + e.getMessage(), e);
        }
        if (entries == 0) {
            throw new InvalidRecordingException(-1, firstProblem != null ? "the zip holds no readable recording: " + firstProblem
                    : "the zip holds no .jfr, .jfr.gz or collapsed-stack (.txt/.collapsed) entry");
        }
    }

    /**
     * One zip entry, read whole or not at all: collapsed text is parsed on its own first, since a bad line in the
     * middle would otherwise leave the lines before it in the profile; JFR is refused by its header before anything
     * of it is read, and a torn chunk later on is a warning, not an error.
     */
    private void readEntry(Path part, Kind collapsedKind, Profile profile, int nesting, long left) throws IOException {
        byte[] magic = new byte[4];
        int n;
        try (InputStream in = Files.newInputStream(part)) {
            n = in.readNBytes(magic, 0, 4);
        }
        if (n > 0 && looksLikeText(magic, n)) {
            Profile trial = new Profile();
            trial.limitSamples(limits.maxSamples());
            try (InputStream in = Files.newInputStream(part)) {
                new CollapsedReader(trial, collapsedKind).read(in);
            }
        }
        readInto(part, collapsedKind, profile, nesting + 1, left);
    }

    private static String printable(String name) {
        String s = name.replaceAll("[^\\x20-\\x7e]", "?");
        return s.length() > 120 ? s.substring(0, 120) + "..." : s;
    }

    private Path tempFile(String prefix) throws IOException {
        return limits.tempDir() == null ? Files.createTempFile(prefix, ".tmp")
                : Files.createTempFile(Files.createDirectories(limits.tempDir()), prefix, ".tmp");
    }

    /** The model's sample limit, hit somewhere in a reader, as the importer's 'too large' answer. */
    private RuntimeException tooLarge(RuntimeException e) throws RecordingTooLargeException {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SampleLimitExceededException limit) {
                throw new RecordingTooLargeException("the recording holds more than " + limit.limit()
                        + " samples, more than this server imports at once (the limit follows its heap size)");
            }
        }
        return e;
    }

    private static boolean isRecordingName(String name) {
        String lower = name.toLowerCase(java.util.Locale.ROOT);
        return lower.endsWith(".jfr") || lower.endsWith(".jfr.gz") || lower.endsWith(".txt")
                || lower.endsWith(".collapsed") || lower.endsWith(".folded");
    }

    /** How far an upload of this size may expand in all, over every compression layer and zip entry. */
    private long expansionLimit(long uploadSize) {
        long byRatio = uploadSize > Long.MAX_VALUE / Math.max(1, limits.maxCompressionRatio())
                ? Long.MAX_VALUE : uploadSize * limits.maxCompressionRatio();
        return Math.min(limits.maxDecompressedBytes(), Math.max(1L << 20, byRatio));
    }

    /**
     * Past this many expanded bytes a stream that has kept expanding faster than the ratio limit is refused at once:
     * a bomb is then stopped after 16 MB, not after the whole budget (1000x the upload's size, all written to disk).
     * No real recording compresses its first 16 MB by more than 1000:1 (JFR gzips by 5-20:1).
     */
    private static final long RATIO_CHECK_AFTER = 16L << 20;

    /**
     * Copies at most max bytes and answers how many; more is a bomb, and so is a stream that has expanded past
     * {@link #RATIO_CHECK_AFTER} at more than the ratio limit to the compressed bytes read from the file so far (for
     * a zip, over all its entries up to here). A null target reads the data to its end and drops it.
     */
    private long copyBounded(InputStream in, java.util.function.LongSupplier compressedRead, Path target, long max, String what)
            throws IOException {
        byte[] buf = new byte[1 << 16];
        long total = 0;
        long ratio = limits.maxCompressionRatio();
        try (OutputStream out = target == null ? OutputStream.nullOutputStream() : Files.newOutputStream(target)) {
            // sniff the first bytes: a bomb of zeros is refused at once, not after writing 1000x its size to disk
            int r = in.readNBytes(buf, 0, 4);
            if (target != null && r > 0 && !knownFormat(buf, r)) {
                throw new InvalidRecordingException(-1, String.format("unknown format inside the %s data (first bytes"
                        + " %02x %02x %02x %02x): expected JFR, gzip, zip or collapsed stacks", what, buf[0], buf[1], buf[2], buf[3]));
            }
            for (; r > 0; r = in.read(buf)) {
                total += r;
                if (total > max) {
                    throw new ExpansionLimitException(what + " data expands beyond " + max
                            + " bytes (limit: " + limits.maxCompressionRatio() + "x the upload's size over all layers, at most "
                            + limits.maxDecompressedBytes() + " bytes)");
                }
                if (total > RATIO_CHECK_AFTER && total / ratio > compressedRead.getAsLong()) {
                    throw new ExpansionLimitException(what + " data expands beyond " + ratio + "x its compressed size ("
                            + total + " bytes from the first " + compressedRead.getAsLong() + " bytes; limit: "
                            + ratio + "x the upload's size over all layers)");
                }
                out.write(buf, 0, r);
            }
        }
        return total;
    }

    /** gzip that tells how many compressed bytes it has used: those read from the file minus the inflater's unused input. */
    private static final class MeteredGzip extends GZIPInputStream {
        private final CountingInputStream counted;

        MeteredGzip(CountingInputStream counted) throws IOException {
            super(counted, 1 << 16);
            this.counted = counted;
        }

        long compressedRead() {
            return counted.count() - inf.getRemaining();
        }
    }

    /** The same for a zip, over all its entries so far. */
    private static final class MeteredZip extends ZipInputStream {
        private final CountingInputStream counted;

        MeteredZip(CountingInputStream counted) {
            super(counted);
            this.counted = counted;
        }

        long compressedRead() {
            return counted.count() - inf.getRemaining();
        }
    }

    /** Counts the bytes a decompressor has taken from the file. */
    private static final class CountingInputStream extends FilterInputStream {
        private long count;

        CountingInputStream(InputStream in) {
            super(in);
        }

        long count() {
            return count;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                count += n;
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long skipped = super.skip(n);
            count += Math.max(0, skipped);
            return skipped;
        }
    }

    private static boolean knownFormat(byte[] magic, int n) {
        return n >= 4 && magic[0] == 'F' && magic[1] == 'L' && magic[2] == 'R' && magic[3] == 0
                || n >= 2 && (magic[0] & 0xff) == 0x1f && (magic[1] & 0xff) == 0x8b
                || n >= 4 && magic[0] == 'P' && magic[1] == 'K' && magic[2] == 3 && magic[3] == 4
                || looksLikeText(magic, n);
    }

    private static boolean looksLikeText(byte[] magic, int n) {
        for (int i = 0; i < n; i++) {
            int b = magic[i] & 0xff;
            if (b < 0x09 || (b > 0x0d && b < 0x20 && b != 0x1b)) {
                return false;
            }
        }
        return true;
    }
}
