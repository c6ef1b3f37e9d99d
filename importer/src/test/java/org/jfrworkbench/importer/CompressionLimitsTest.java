package org.jfrworkbench.importer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import org.jfrworkbench.model.Kind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Compression bombs are cut off at the ratio to the upload's own size, whatever the nesting; torn archives are 400s. */
class CompressionLimitsTest {
    @TempDir
    Path tmp;

    private static byte[] gzip(byte[] data) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputStream gz = new GZIPOutputStream(out)) {
            gz.write(data);
        }
        return out.toByteArray();
    }

    @Test
    void gzipInsideGzipIsLimitedByTheOuterFilesSizeNotPerLayer() throws Exception {
        // 64 MB of one letter (text, so the format sniff lets it through), gzipped twice: each layer alone stays
        // near 1000:1, together they are far beyond it
        byte[] letters = new byte[64 << 20];
        Arrays.fill(letters, (byte) 'a');
        byte[] inner = gzip(letters);
        byte[] outer = gzip(inner);
        assertTrue((64L << 20) / outer.length > 1000, "the bomb's overall ratio: " + (64L << 20) / outer.length);
        Path bomb = Files.write(tmp.resolve("bomb.gz"), outer);
        InvalidRecordingException e = assertThrows(InvalidRecordingException.class, () -> new Importer().read(bomb));
        // per layer, the inner one could write 1000 x 62 kB = 62 MB to disk before it was stopped; now 1 MB in all
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("gzip data expands beyond (\\d+) bytes").matcher(e.getMessage());
        assertTrue(m.find(), e.getMessage());
        assertTrue(Long.parseLong(m.group(1)) <= 1 << 20, e.getMessage());
    }

    @Test
    void bombIsRefusedAfter16MbWhenItKeepsExpandingBeyondTheRatioNotAfterTheWholeBudget() throws Exception {
        byte[] letters = new byte[48 << 20];
        Arrays.fill(letters, (byte) 'a');
        byte[] bomb = gzip(letters);
        assertTrue(letters.length / bomb.length > 1000, "the bomb's ratio: " + letters.length / bomb.length);
        Path file = Files.write(tmp.resolve("letters.gz"), bomb);
        InvalidRecordingException e = assertThrows(InvalidRecordingException.class, () -> new Importer().read(file));
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("gzip data expands beyond 1000x its compressed size \\((\\d+) bytes")
                .matcher(e.getMessage());
        assertTrue(m.find(), e.getMessage());
        // the budget alone (1000 x 47 kB) would have let 46 MB through to disk first
        assertTrue(Long.parseLong(m.group(1)) < 17 << 20, e.getMessage());
    }

    @Test
    void aLargeFileThatCompressesLikeRealRecordingsIsNotABomb() throws Exception {
        // 24 MB of collapsed lines that differ (a counter in every line): about 30:1, well within the limit
        StringBuilder text = new StringBuilder();
        for (int i = 0; text.length() < 24 << 20; i++) {
            text.append("com.acme.Service.handle;com.acme.Repo.load").append(i % 50_000).append(' ').append(1 + i % 7).append('\n');
        }
        byte[] plain = text.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        Path file = Files.write(tmp.resolve("big.txt.gz"), gzip(plain));
        assertTrue(new Importer().read(file, Kind.CPU).samples(Kind.CPU).size() > 500_000);
    }

    @Test
    void bombOfZerosIsRefusedByItsFirstBytesBeforeItExpands() throws Exception {
        Path bomb = Files.write(tmp.resolve("zeros.gz"), gzip(new byte[64 << 20]));
        InvalidRecordingException e = assertThrows(InvalidRecordingException.class, () -> new Importer().read(bomb));
        assertTrue(e.getMessage().contains("unknown format inside the gzip data (first bytes 00 00 00 00)"), e.getMessage());
    }

    @Test
    void zipEntriesShareOneExpansionBudget() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        byte[] text = "a;b 1\n".repeat(100_000).getBytes();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            for (int i = 0; i < 3; i++) {
                zip.putNextEntry(new ZipEntry("part" + i + ".txt"));
                zip.write(text);
            }
        }
        Path file = Files.write(tmp.resolve("parts.zip"), bytes.toByteArray());
        // each 600 kB entry fits a 1 MB budget alone, but not all three together
        Importer importer = new Importer(new ImportLimits(1L << 20, 1));
        InvalidRecordingException e = assertThrows(InvalidRecordingException.class, () -> importer.read(file, Kind.CPU));
        assertTrue(e.getMessage().contains("zip data expands beyond"), e.getMessage());
        assertEquals(300_000, new Importer().read(file, Kind.CPU).samples(Kind.CPU).size());
    }

    @Test
    void zipEntryNameLongerThanTheFileIsACorruptZipNotAnInternalError() throws Exception {
        // a local file header (30 bytes) whose name length (offset 26) says 1000 bytes, followed by 5
        byte[] header = Arrays.copyOf(new byte[] {'P', 'K', 3, 4, 20}, 35);
        header[26] = (byte) 0xe8;
        header[27] = 0x03;
        Path torn = Files.write(tmp.resolve("torn.zip"), header);
        InvalidRecordingException e = assertThrows(InvalidRecordingException.class, () -> new Importer().read(torn));
        assertTrue(e.getMessage().contains("corrupt zip data"), e.getMessage());
    }
}
