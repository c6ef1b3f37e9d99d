package org.jfrworkbench.server.torture;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import org.jfrworkbench.testkit.torture.JfrWriter;

/**
 * Generates the bad-input cases: case i is a pure function of (seed, i), so a failing case is reproduced by its
 * seed and number alone. Families: hand-written JFR with structural lies, flips and truncations of it and of the
 * real sample recordings, wrong magic and garbage, empty bodies, absurd collapsed text, corrupt gzip, gzip and zip
 * bombs (> 1000:1), and bad request parameters.
 */
final class BadInputs {
    /** One upload: raw body (or multipart with fileName when fileName is not null) plus a query string. */
    record Case(int index, String family, byte[] body, String query, String fileName, int expectedSamples) {
        @Override
        public String toString() {
            return "case " + index + " (" + family + ", " + body.length + " bytes" + (fileName != null ? ", multipart" : "")
                    + (query.isEmpty() ? "" : ", query " + query) + ")";
        }
    }

    /**
     * Family weights per 100 cases: the hostile families often; those that tend to stay valid recordings (and so
     * cost fsyncs and an index commit each) less, to keep the default run within its CI time.
     */
    private static final String[] FAMILIES = weighted("jfr-lie", 48, "jfr-flip", 6, "jfr-truncate", 13, "wrong-magic", 10,
            "garbage-compressed", 10, "collapsed", 5, "request", 7, "jfr-valid", 1);

    private final long seed;
    private final List<byte[]> samples;
    final byte[][] bombs;
    final double[] bombRatios;

    BadInputs(long seed, List<Path> sampleRecordings) throws IOException {
        this.seed = seed;
        this.samples = sampleRecordings.stream().map(p -> {
            try {
                return Files.readAllBytes(p);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }).toList();
        // zeros (no known format once expanded) and one letter repeated (text, so only the ratio limit stops it)
        byte[] letters = gzipFilled('a', 512 << 20);
        this.bombs = new byte[][] {gzipFilled(0, 96 << 20), gzip(letters), zip("bomb.jfr", new byte[96 << 20]),
            zip("inner.jfr.gz", letters), gzipFilled('a', 96 << 20), gzip(gzipFilled(0, 512 << 20))};
        long[] expanded = {96 << 20, 512 << 20, 96 << 20, 512 << 20, 96 << 20, 512 << 20};
        this.bombRatios = new double[bombs.length];
        for (int i = 0; i < bombs.length; i++) {
            bombRatios[i] = (double) expanded[i] / bombs[i].length;
        }
    }

    Case get(int index) {
        Random r = new Random(seed * 1_000_003L + index);
        int expected = -1;
        // every 400th case is a real-recording mutation and every 500th a bomb: they are large, so fewer of them
        String family = index % 500 == 7 ? "bomb" : index % 400 == 3 ? "sample-truncate" : index % 400 == 203 ? "sample-flip"
                : index % 1000 == 11 ? "empty" : FAMILIES[r.nextInt(FAMILIES.length)];
        byte[] body = switch (family) {
            case "jfr-lie" -> {
                JfrWriter.Lie[] lies = JfrWriter.Lie.values();
                JfrWriter.Lie lie = lies[1 + r.nextInt(lies.length - 1)];
                while (lie.tolerated() && r.nextInt(10) != 0) {
                    lie = lies[1 + r.nextInt(lies.length - 1)]; // tolerated lies make valid recordings: fewer of them
                }
                family = "jfr-lie " + lie;
                yield new JfrWriter(lie, r).write();
            }
            case "jfr-valid" -> {
                JfrWriter w = new JfrWriter(JfrWriter.Lie.NONE, r);
                expected = w.samples;
                yield w.write();
            }
            case "jfr-flip" -> flip(new JfrWriter(JfrWriter.Lie.NONE, r).write(), r, 1 + r.nextInt(8));
            case "jfr-truncate" -> {
                byte[] jfr = new JfrWriter(JfrWriter.Lie.NONE, r).write();
                yield Arrays.copyOf(jfr, r.nextInt(jfr.length));
            }
            case "sample-truncate" -> {
                byte[] s = samples.get(r.nextInt(samples.size()));
                yield Arrays.copyOf(s, r.nextInt(s.length));
            }
            case "sample-flip" -> flip(samples.get(r.nextInt(samples.size())), r, 1 + r.nextInt(20));
            case "collapsed" -> {
                int variant = r.nextInt(Collapsed.VARIANTS);
                family = "collapsed " + variant;
                yield Collapsed.absurd(variant, r);
            }
            case "wrong-magic" -> wrongMagic(r);
            case "garbage-compressed" -> garbageCompressed(r);
            case "bomb" -> {
                int b = (index / 500) % bombs.length;
                family = "bomb " + b + String.format(" (%.0f:1)", bombRatios[b]);
                yield bombs[b];
            }
            case "empty" -> new byte[0];
            default -> "com.acme.A.a;com.acme.B.b 1\n".getBytes(StandardCharsets.UTF_8);
        };
        String query = "";
        if (family.equals("request")) {
            String[] bad = {"?labels=novalue", "?labels=%3Cscript%3E=1", "?kind=heat", "?kind=", "?labels=" + labels(70),
                "?labels=k=" + "v".repeat(300)};
            query = bad[r.nextInt(bad.length)];
            if (query.equals("?kind=")) {
                body = new byte[] {1, 2, 3}; // a blank kind is allowed, so make the body the bad part
            }
        }
        String fileName = query.isEmpty() && r.nextInt(10) == 0 ? "case-" + index + ".bin" : null;
        return new Case(index, family, body, query, fileName, expected);
    }

    private static String[] weighted(Object... familyAndWeight) {
        List<String> out = new java.util.ArrayList<>();
        for (int i = 0; i < familyAndWeight.length; i += 2) {
            for (int w = 0; w < (Integer) familyAndWeight[i + 1]; w++) {
                out.add((String) familyAndWeight[i]);
            }
        }
        return out.toArray(String[]::new);
    }

    private static String labels(int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append("k").append(i).append("=v,");
        }
        return sb.toString();
    }

    private static byte[] flip(byte[] original, Random r, int flips) {
        byte[] b = original.clone();
        for (int i = 0; i < flips; i++) {
            int at = r.nextInt(b.length);
            b[at] = (byte) (r.nextBoolean() ? b[at] ^ (1 << r.nextInt(8)) : r.nextInt(256));
        }
        return b;
    }

    private static byte[] wrongMagic(Random r) {
        byte[][] heads = {{'F', 'L', 'R', 1}, {'F', 'L', 'R', 0}, {'P', 'K', 3, 4}, {0x1f, (byte) 0x8b}, {'F', 'L'},
            {(byte) 0xca, (byte) 0xfe, (byte) 0xba, (byte) 0xbe}, {0}, {(byte) 0xff, (byte) 0xfe}, {'P', 'K', 5, 6}};
        byte[] head = heads[r.nextInt(heads.length)];
        byte[] b = new byte[head.length + r.nextInt(r.nextBoolean() ? 8 : 4000)];
        r.nextBytes(b);
        System.arraycopy(head, 0, b, 0, head.length);
        return b;
    }

    private static byte[] garbageCompressed(Random r) {
        byte[] junk = new byte[1 + r.nextInt(3000)];
        r.nextBytes(junk);
        return switch (r.nextInt(5)) {
            case 0 -> gzip(junk);
            case 1 -> {
                byte[] g = gzip(new JfrWriter(JfrWriter.Lie.NONE, r).write());
                yield Arrays.copyOf(g, 10 + r.nextInt(g.length - 10));
            }
            case 2 -> flip(gzip(Collapsed.absurd(r.nextInt(Collapsed.VARIANTS), r)), r, 1 + r.nextInt(4));
            case 3 -> zip(r.nextBoolean() ? "../../evil.jfr" : "/abs/x.txt", junk);
            default -> gzip(gzip(gzip(gzip(junk))));
        };
    }

    /** The deflated segment a bomb repeats: large enough that its few bytes of framing leave the ratio near 1030:1. */
    private static final int SEGMENT = 32 << 20;

    /**
     * gzip of n copies of one byte (a multiple of 32 MB) as one deflate stream, made in a fraction of the time deflating
     * n bytes takes: 32 MB are deflated once, ending with a full flush, which closes the segment on a byte boundary with
     * no reference to what came before it; copies of that segment, an empty final block and the trailer make a stream
     * that inflates to n bytes and is no larger than deflating all n would make it.
     */
    static byte[] gzipFilled(int value, long n) {
        if (n <= 0 || n % SEGMENT != 0) {
            throw new IllegalArgumentException("not a multiple of " + SEGMENT + ": " + n);
        }
        byte[] block = new byte[SEGMENT];
        Arrays.fill(block, (byte) value);
        Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION, true);
        deflater.setInput(block);
        ByteArrayOutputStream segment = new ByteArrayOutputStream();
        byte[] buf = new byte[1 << 16];
        int k;
        do {
            k = deflater.deflate(buf, 0, buf.length, Deflater.FULL_FLUSH);
            segment.write(buf, 0, k);
        } while (k == buf.length);
        deflater.finish();
        ByteArrayOutputStream last = new ByteArrayOutputStream();
        while (!deflater.finished()) {
            last.write(buf, 0, deflater.deflate(buf));
        }
        deflater.end();
        CRC32 crc = new CRC32();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff});
        byte[] deflated = segment.toByteArray();
        for (long i = 0; i < n / SEGMENT; i++) {
            out.writeBytes(deflated);
            crc.update(block);
        }
        out.writeBytes(last.toByteArray());
        for (long v : new long[] {crc.getValue(), n}) {
            for (int i = 0; i < 4; i++) {
                out.write((int) (v >>> (8 * i)));
            }
        }
        return out.toByteArray();
    }

    /** How many bytes a gzip stream inflates to, read through the JDK's own decoder. */
    static long gunzippedSize(byte[] gzip) throws IOException {
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip))) {
            return in.transferTo(OutputStream.nullOutputStream());
        }
    }

    static byte[] gzip(byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out, 1 << 16) {
            {
                def.setLevel(Deflater.BEST_COMPRESSION);
            }
        }) {
            gz.write(data);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    static byte[] zip(String entry, byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(out)) {
            zip.setLevel(Deflater.BEST_COMPRESSION);
            zip.putNextEntry(new ZipEntry(entry));
            zip.write(data);
            zip.closeEntry();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
