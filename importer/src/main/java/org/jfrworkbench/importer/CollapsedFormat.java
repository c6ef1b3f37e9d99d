package org.jfrworkbench.importer;

import org.jfrworkbench.model.FrameNaming;
import org.jfrworkbench.model.Profile;
import org.jfrworkbench.model.StackTable;

/**
 * The collapsed-stack text format ({@code root;...;leaf weight}, one line per stack) as the workbench writes it and
 * {@link CollapsedReader} reads it: one definition of how a frame name is written, shared by every writer.
 */
public final class CollapsedFormat {
    /** The frame printed for samples that carry no stack trace. */
    public static final String NO_STACK = "[no stack]";

    private CollapsedFormat() {
    }

    /**
     * A frame name as it appears between the separators of a collapsed line. Frame names are data (async-profiler
     * reports {@code libpthread-2.17.so;649be141 (deleted)}; class and method names may hold any character), so every
     * character that would change how a line is read is escaped with a backslash: {@code \\} itself, {@code \;}
     * (the frame separator), {@code \n}, {@code \r}, {@code \t}, {@code \xHH} (above 0xff: backslash, u, four hex
     * digits) for other control characters and Unicode line separators, {@code \#} for a leading '#' (a comment line) and {@code \[} in a
     * trailing {@code _[x]} (a frame-type suffix). {@link #unescapeFrame} reverses it exactly.
     */
    public static String escapeFrame(String name) {
        int n = name.length();
        int i = 0;
        while (i < n && plain(name, i)) {
            i++;
        }
        if (i == n) {
            return name;
        }
        StringBuilder sb = new StringBuilder(n + 8).append(name, 0, i);
        for (; i < n; i++) {
            char c = name.charAt(i);
            if (plain(name, i)) {
                sb.append(c);
                continue;
            }
            switch (c) {
                case '\\' -> sb.append("\\\\");
                case ';' -> sb.append("\\;");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '#' -> sb.append("\\#");
                case '[' -> sb.append("\\[");
                default -> sb.append(c < 0x100 ? String.format("\\x%02x", (int) c) : String.format("\\u%04x", (int) c));
            }
        }
        return sb.toString();
    }

    /** Whether the character at i is written as it is. */
    private static boolean plain(String name, int i) {
        char c = name.charAt(i);
        if (c == '\\' || c == ';' || c < 0x20 || c == 0x7f || c == 0x85 || c == 0x2028 || c == 0x2029) {
            return false;
        }
        if (c == '#') {
            return i > 0;
        }
        if (c == '[') {
            int n = name.length();
            return !(i == n - 3 && i > 0 && name.charAt(i - 1) == '_' && name.charAt(n - 1) == ']');
        }
        return true;
    }

    /** The name {@link #escapeFrame} wrote; a backslash before any other character is kept as written. */
    public static String unescapeFrame(CharSequence text, int from, int to) {
        StringBuilder sb = null;
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c != '\\' || i + 1 == to) {
                if (sb != null) {
                    sb.append(c);
                }
                continue;
            }
            if (sb == null) {
                sb = new StringBuilder(to - from).append(text, from, i);
            }
            char e = text.charAt(i + 1);
            int hex = e == 'x' ? 2 : e == 'u' ? 4 : 0;
            if (hex > 0 && i + 2 + hex <= to && isHex(text, i + 2, i + 2 + hex)) {
                sb.append((char) Integer.parseInt(text.subSequence(i + 2, i + 2 + hex).toString(), 16));
                i += 1 + hex;
                continue;
            }
            switch (e) {
                case '\\', ';', '#', '[' -> sb.append(e);
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                default -> {
                    sb.append(c).append(e);
                }
            }
            i++;
        }
        return sb == null ? text.subSequence(from, to).toString() : sb.toString();
    }

    private static boolean isHex(CharSequence s, int from, int to) {
        for (int i = from; i < to; i++) {
            if (Character.digit(s.charAt(i), 16) < 0) {
                return false;
            }
        }
        return true;
    }

    /** Whether the ';' at i separates frames: it is not escaped by an odd number of backslashes before it. */
    public static boolean isSeparator(CharSequence line, int i) {
        if (line.charAt(i) != ';') {
            return false;
        }
        int backslashes = 0;
        for (int j = i - 1; j >= 0 && line.charAt(j) == '\\'; j--) {
            backslashes++;
        }
        return backslashes % 2 == 0;
    }

    /** Appends a stack root first, frames separated by ';' ({@link #NO_STACK} for stack id -1 or an empty stack). */
    public static StringBuilder appendStack(Profile p, int stack, FrameNaming naming, StringBuilder sb) {
        StackTable stacks = p.stacks();
        if (stack < 0 || stack >= stacks.size() || stacks.depth(stack) == 0) {
            return sb.append(NO_STACK);
        }
        for (int d = stacks.depth(stack) - 1; d >= 0; d--) {
            sb.append(escapeFrame(p.frameName(stacks.frame(stack, d), naming)));
            if (d > 0) {
                sb.append(';');
            }
        }
        return sb;
    }
}
