package org.jfrworkbench.server.catalog;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Masks secrets in the JVM facts a recording states (its command line's {@code -Dapp.db.password=…},
 * {@code --api-key …}, environment-style {@code AWS_SECRET_ACCESS_KEY=…}): every value whose name contains
 * password, passwd, pwd, secret, token, credential, key or auth becomes {@code ****}. Recordings are shared with
 * everyone who can read the server; the original upload still holds the value, so guard reads with the token.
 */
public final class Secrets {
    public static final String MASK = "****";
    /** The fact names that hold command lines, property or environment lists. */
    private static final java.util.Set<String> FACTS = java.util.Set.of("jvmArguments", "javaArguments", "jvmFlags",
            "systemProperties", "environment", "commandLine");
    private static final String SECRET_WORD = "(?i:[\\w.\\-]*(?:password|passwd|pwd|secret|token|credential|key|auth)[\\w.\\-]*)";
    /** name=value or name:value, with an optional -D, -, -- or -XX: before the name. */
    private static final Pattern ASSIGNED = Pattern.compile("((?:^|(?<=[\\s,;=:\"']))(?:-D|--|-)?" + SECRET_WORD + "\\s?[=:])"
            + "(\"[^\"]*\"|'[^']*'|[^\\s,;\"']+)");
    /** --name value: an option named like a secret followed by its value as the next word. */
    private static final Pattern OPTION_VALUE = Pattern.compile("((?:^|(?<=\\s))--?" + SECRET_WORD + "\\s+)(?!-)(\\S+)");

    private static volatile boolean enabled = true;

    private Secrets() {
    }

    /** Off with {@code serve --show-secrets}: facts are kept as recorded. */
    public static void enabled(boolean on) {
        enabled = on;
    }

    public static Map<String, String> mask(Map<String, String> facts) {
        if (!enabled || facts == null || facts.isEmpty()) {
            return facts;
        }
        Map<String, String> out = new LinkedHashMap<>(facts);
        out.replaceAll((k, v) -> FACTS.contains(k) ? maskText(v) : v);
        return out;
    }

    /** The text with the value of every secret-named setting replaced by {@link #MASK}. */
    public static String maskText(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        String once = replace(ASSIGNED.matcher(text));
        return replace(OPTION_VALUE.matcher(once));
    }

    private static String replace(Matcher m) {
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(sb, Matcher.quoteReplacement(m.group(1) + MASK));
        }
        m.appendTail(sb);
        return sb.toString();
    }
}
