package org.jfrworkbench.testkit.process;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * {@code jcmd PID GC.class_histogram}: the exact heap by class after the full GC it runs, the truth the live-heap
 * estimate is measured against (the integration test and the accuracy benchmark).
 */
public final class ClassHistogram {
    /** The key of the histogram's total bytes. */
    public static final String TOTAL = "<total>";

    private ClassHistogram() {
    }

    /** Bytes per class (the importer's Java names, {@code byte[]}) and the total under {@link #TOTAL}. */
    public static Map<String, Long> of(Path javaHome, String pid) throws Exception {
        Process p = new ProcessBuilder(javaHome.resolve("bin/jcmd").toString(), pid, "GC.class_histogram")
                .redirectErrorStream(true).start();
        Map<String, Long> bytes = new HashMap<>();
        try (BufferedReader h = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = h.readLine(); line != null; line = h.readLine()) {
                String[] f = line.trim().split("\\s+");
                if (f.length >= 4 && f[0].endsWith(":")) {
                    bytes.merge(javaName(f[3]), Long.parseLong(f[2]), Long::sum);
                } else if (f.length >= 3 && f[0].equals("Total")) {
                    bytes.put(TOTAL, Long.parseLong(f[2]));
                }
            }
        }
        if (p.waitFor() != 0 || !bytes.containsKey(TOTAL)) {
            throw new IllegalStateException("jcmd GC.class_histogram failed: " + bytes.size() + " classes read");
        }
        return bytes;
    }

    /** "[B" -> "byte[]", "[Ljava.lang.Object;" -> "java.lang.Object[]", others unchanged (the importer's names). */
    public static String javaName(String jvm) {
        int dims = 0;
        while (dims < jvm.length() && jvm.charAt(dims) == '[') {
            dims++;
        }
        if (dims == 0) {
            return jvm;
        }
        String base = switch (jvm.charAt(dims)) {
            case 'B' -> "byte";
            case 'C' -> "char";
            case 'S' -> "short";
            case 'I' -> "int";
            case 'J' -> "long";
            case 'F' -> "float";
            case 'D' -> "double";
            case 'Z' -> "boolean";
            default -> jvm.substring(dims + 1, jvm.length() - 1);
        };
        return base + "[]".repeat(dims);
    }
}
