package org.jfrworkbench.importer.jfr;

/** JVM internal class names to the forms people read. */
final class ClassNames {
    private ClassNames() {
    }

    /** {@code java/lang/String} -> {@code java.lang.String}; null -> "". */
    static String dotted(String internal) {
        return internal == null ? "" : internal.replace('/', '.');
    }

    /** Whether {@code dotted(internal).equals(name)}, without making the dotted name. */
    static boolean dottedEquals(String internal, String name) {
        int n = internal.length();
        if (n != name.length()) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            char c = internal.charAt(i);
            if ((c == '/' ? '.' : c) != name.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** Like {@link #dotted} but array descriptors become Java syntax: {@code [Ljava/lang/String;} -> {@code java.lang.String[]}. */
    static String pretty(String internal) {
        if (internal == null || internal.isEmpty() || internal.charAt(0) != '[') {
            return dotted(internal);
        }
        int dims = 0;
        while (dims < internal.length() && internal.charAt(dims) == '[') {
            dims++;
        }
        String rest = internal.substring(dims);
        String base = switch (rest) {
            case "Z" -> "boolean";
            case "B" -> "byte";
            case "C" -> "char";
            case "S" -> "short";
            case "I" -> "int";
            case "J" -> "long";
            case "F" -> "float";
            case "D" -> "double";
            default -> rest.startsWith("L") && rest.endsWith(";") ? rest.substring(1, rest.length() - 1) : rest;
        };
        return dotted(base) + "[]".repeat(dims);
    }
}
