package org.jfrworkbench.server.torture;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;

/** Collapsed-stack text that no profiler would write: each variant attacks one assumption of a line parser. */
final class Collapsed {
    static final int VARIANTS = 16;

    private Collapsed() {
    }

    static byte[] absurd(int variant, Random r) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        switch (variant) {
            case 0 -> line(out, "java.lang.Thread.run;" + "x".repeat((1 << 20) + r.nextInt(1 << 20)) + " 1");
            case 1 -> line(out, "a.A.a;b.B.b " + "9".repeat(19 + r.nextInt(40)));
            case 2 -> line(out, "a.A.a;b.B.b -" + (1 + r.nextInt(Integer.MAX_VALUE)));
            case 3 -> out.writeBytes(("a.A.a\0;b\0.B.b\0 1\n\0\0\0 2\n").getBytes(StandardCharsets.ISO_8859_1));
            case 4 -> {
                out.writeBytes("a.A.a;".getBytes(StandardCharsets.US_ASCII));
                byte[][] bad = {{(byte) 0xc3, 0x28}, {(byte) 0xff}, {(byte) 0xed, (byte) 0xa0, (byte) 0x80}, {(byte) 0xf8, (byte) 0x88}};
                out.writeBytes(bad[r.nextInt(bad.length)]);
                out.writeBytes(" 3\n".getBytes(StandardCharsets.US_ASCII));
            }
            case 5 -> {
                // a million frames or more in one stack; rare because each is megabytes
                int frames = r.nextInt(20) == 0 ? 1_000_000 + r.nextInt(500_000) : 10_000 + r.nextInt(50_000);
                line(out, "f;".repeat(frames) + "leaf 1");
            }
            case 6 -> {
                line(out, "a.A.a;b.B.b " + Long.MAX_VALUE);
                line(out, "a.A.a;c.C.c " + Long.MAX_VALUE);
                line(out, "a.A.a;b.B.b " + Long.MAX_VALUE);
            }
            case 7 -> line(out, "a.A.a;b.B.b;c.C.c");
            case 8 -> {
                String[] odd = {";;;; 1", " 1", ";", "   ", "\t\t5", "; 7", ";;a;; 2"};
                line(out, odd[r.nextInt(odd.length)]);
            }
            case 9 -> {
                for (int i = 0, n = 2_000 + r.nextInt(20_000); i < n; i++) {
                    line(out, "t.T.run;m.M" + r.nextInt(5000) + ".f" + r.nextInt(50) + " " + (1 + r.nextInt(9)));
                }
            }
            case 10 -> line(out, "a b c;d\te f 1\r\nx.X.x;y.Y.y 2\r");
            case 11 -> {
                String[] counts = {"1e9", "0x10", "1.5", "+3", "１２", "NaN", "Infinity", "1_000"};
                line(out, "a.A.a;b.B.b " + counts[r.nextInt(counts.length)]);
            }
            case 12 -> {
                out.writeBytes(new byte[] {(byte) 0xef, (byte) 0xbb, (byte) 0xbf});
                line(out, "a.A.a;b.B.b 4");
            }
            case 13 -> line(out, "a.A.a;b.B.b 0");
            case 14 -> {
                byte[] b = new byte[1 + r.nextInt(5000)];
                for (int i = 0; i < b.length; i++) {
                    b[i] = (byte) (0x20 + r.nextInt(0x5f));
                }
                out.writeBytes(b);
            }
            default -> {
                // a line break every few bytes: hundreds of thousands of one-frame lines
                for (int i = 0, n = 10_000 + r.nextInt(200_000); i < n; i++) {
                    out.writeBytes("a 1\n".getBytes(StandardCharsets.US_ASCII));
                }
            }
        }
        return out.toByteArray();
    }

    private static void line(ByteArrayOutputStream out, String s) {
        out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
        out.write('\n');
    }
}
