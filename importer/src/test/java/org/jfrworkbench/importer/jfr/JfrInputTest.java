package org.jfrworkbench.importer.jfr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Random;

import org.jfrworkbench.importer.InvalidRecordingException;
import org.junit.jupiter.api.Test;

class JfrInputTest {
    /** Compressed integers of every length (1 to 9 bytes), read back from a heap copy, also in its last 9 bytes. */
    @Test
    void readsCompressedIntegersOfEveryLength() throws Exception {
        Random random = new Random(7);
        int n = 20_000;
        long[] values = new long[n];
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < n; i++) {
            int bits = i % 65;   // 0 to 64 significant bits
            long v = bits == 0 ? 0 : random.nextLong() >>> (64 - bits) | 1L << (bits - 1);
            values[i] = v;
            write(out, v);
        }
        byte[] bytes = out.toByteArray();
        for (byte[] chunk : new byte[][] {bytes, java.util.Arrays.copyOf(bytes, bytes.length + 64)}) {
            JfrInput in = new JfrInput(ByteBuffer.wrap(chunk, 0, bytes.length).slice(), chunk, 0, true);
            for (int i = 0; i < n; i++) {
                assertEquals(values[i], in.varLong(), "value " + i);
            }
            assertEquals(bytes.length, in.pos);
        }
    }

    /**
     * Skipping any number of compressed integers of every length (nine-byte ones whose last byte has the high bit set
     * too) lands where reading them would, from the heap copy and from a buffer alone (the mapped file's case).
     */
    @Test
    void skipsCompressedIntegersWhereReadingThemEnds() throws Exception {
        Random random = new Random(11);
        int n = 5_000;
        int[] ends = new int[n + 1];
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < n; i++) {
            int bits = random.nextInt(4) == 0 ? 57 + random.nextInt(8) : random.nextInt(22);
            write(out, bits == 0 ? 0 : random.nextLong() >>> (64 - bits) | 1L << (bits - 1));
            ends[i + 1] = out.size();
        }
        byte[] bytes = out.toByteArray();
        for (boolean heap : new boolean[] {true, false}) {
            for (int t = 0; t < 2_000; t++) {
                int from = random.nextInt(n);
                int count = random.nextInt(Math.min(40, n - from) + 1);
                JfrInput in = new JfrInput(ByteBuffer.wrap(bytes), heap ? bytes : null, 0, true);
                in.pos = ends[from];
                in.skipVarints(count);
                assertEquals(ends[from + count], in.pos, "skip " + count + " from value " + from + (heap ? "" : ", mapped"));
            }
        }
    }

    /** Skipping past the end of the chunk fails like reading past it. */
    @Test
    void skippingPastTheEndFails() {
        byte[] bytes = {1, 2, (byte) 0x81, 3};
        JfrInput in = new JfrInput(ByteBuffer.wrap(bytes), bytes, 0, true);
        assertThrows(InvalidRecordingException.class, () -> in.skipVarints(4));
    }

    /** JFR's compressed integer: 7 bits per byte, low first, high bit set while more follow; the 9th byte has 8 bits. */
    private static void write(ByteArrayOutputStream out, long v) {
        for (int i = 0; i < 8; i++) {
            if ((v & ~0x7fL) == 0) {
                out.write((int) v);
                return;
            }
            out.write((int) (v & 0x7f) | 0x80);
            v >>>= 7;
        }
        out.write((int) v);
    }
}
