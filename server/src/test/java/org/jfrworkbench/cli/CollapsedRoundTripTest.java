package org.jfrworkbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jfrworkbench.importer.CollapsedFormat;
import org.jfrworkbench.testkit.jfr.JfrWriter;
import org.jfrworkbench.testkit.jfr.JfrWriter.Field;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Frame names are data: collapsed text written by the CLI reads back to the same names, and writes out identical. */
class CollapsedRoundTripTest {
    /** Names that break naive collapsed text: separators, line breaks, NUL, controls, escapes, comments, suffixes. */
    static final List<String> HOSTILE = List.of("libpthread-2.17.so;649be141 (deleted)", "two\nlines", "nul\0byte",
            "tab\there", "cr\rhere", "ünïcödé→λ", "back\\slash", "\\;", "#hash", "ends_[j]", "bell\u0007", "line\u2028sep",
            "a b  c", "x_[i]_[j]");

    @TempDir
    Path dir;

    /** A JFR chunk with one cpu sample per hostile method name, each under main (a name without a class). */
    static byte[] hostileRecording() {
        JfrWriter w = new JfrWriter(JfrWriter.START_NANOS, 1_000_000_000L);
        w.stackTypes();
        w.type("jdk.ExecutionSample", "jdk.jfr.Event", Field.timestamp("startTime", "long", "TICKS"),
                Field.pool("sampledThread", "java.lang.Thread"), Field.pool("stackTrace", "jdk.types.StackTrace"));
        w.constant("java.lang.Thread", 5, "main", 1L);
        w.constant("jdk.types.Symbol", 1, "app/Main").constant("jdk.types.Symbol", 2, "main");
        w.constant("java.lang.Class", 10, 1L);
        w.constant("jdk.types.Method", 20, 10L, 2L);
        for (int i = 0; i < HOSTILE.size(); i++) {
            w.constant("jdk.types.Symbol", 100 + i, HOSTILE.get(i));
            // a class-less frame (key 0: no class) holding the hostile name
            w.constant("jdk.types.Method", 200 + i, 0L, 100L + i);
            w.constant("jdk.types.StackTrace", 300 + i, false,
                    List.<Object[]>of(new Object[] {200L + i, 1}, new Object[] {20L, 2}));
            for (int k = 0; k <= i; k++) {
                w.event("jdk.ExecutionSample", 1_000L + i * 100 + k, 5L, 300L + i);
            }
        }
        return w.chunk();
    }

    static String collapse(Path file) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine c = new CommandLine(new Workbench());
        c.setOut(new PrintWriter(out));
        c.setErr(new PrintWriter(err));
        assertEquals(0, c.execute("collapse", file.toString(), "--kind", "cpu"), err.toString());
        return out.toString();
    }

    @Test
    void hostileFrameNamesSurviveExportImportExport() throws Exception {
        Path jfr = Files.write(dir.resolve("hostile.jfr"), hostileRecording());
        String first = collapse(jfr);
        List<String> lines = first.lines().toList();
        assertEquals(HOSTILE.size(), lines.size(), "one line per stack, no name split a line:\n" + first);
        List<String> leaves = new ArrayList<>();
        for (String line : lines) {
            assertFalse(line.contains("\0") || line.contains("\r") || line.contains("\t"), line);
            String stack = line.substring(0, line.lastIndexOf(' '));
            int sep = -1;
            for (int i = 0; i < stack.length(); i++) {
                if (CollapsedFormat.isSeparator(stack, i)) {
                    assertEquals(-1, sep, "two frames per stack: " + line);
                    sep = i;
                }
            }
            assertEquals("app.Main.main", stack.substring(0, sep));
            leaves.add(CollapsedFormat.unescapeFrame(stack, sep + 1, stack.length()));
        }
        assertEquals(HOSTILE.stream().sorted().toList(), leaves.stream().sorted().toList(), "every name read back exactly");
        Path text = Files.writeString(dir.resolve("hostile.collapsed"), first, StandardCharsets.UTF_8);
        assertEquals(first, collapse(text), "export -> import -> export is identical");
        assertTrue(first.contains("libpthread-2.17.so\\;649be141 (deleted)"), first);
    }
}
