package org.jfrworkbench.analysis;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;

/**
 * A user's search over frame names: a regular expression found anywhere in the name (RE2 syntax, run in time
 * linear in the name's length whatever the pattern, so a pattern cannot stall the server) or plain text;
 * case-insensitive unless matchCase. Patterns that need backtracking (back-references, look-around) are refused.
 * RE2/J still expands counted repetition into copies ({@code ((a{1000}){1000}){1000}} is a billion instructions, an
 * OutOfMemoryError), so the expanded size is estimated and bounded before it compiles.
 */
public record SearchPattern(String pattern, boolean matchCase, boolean literal) {
    /** Longer patterns are refused: nobody types them, and each costs compile time and memory. */
    static final int MAX_LENGTH = 1000;
    /** Largest expanded size: atoms after repetitions are multiplied out. */
    static final long MAX_SIZE = 10_000;

    /** Checks the pattern, so that a malformed one is a BadQueryException before any work. */
    public static SearchPattern of(String pattern, boolean matchCase, boolean literal) {
        if (pattern == null || pattern.isEmpty()) {
            throw new BadQueryException("search pattern is empty");
        }
        if (pattern.length() > MAX_LENGTH) {
            throw new BadQueryException("search pattern is longer than " + MAX_LENGTH + " characters");
        }
        SearchPattern p = new SearchPattern(pattern, matchCase, literal);
        if (!literal) {
            if (new Estimate(pattern).sequence(0) > MAX_SIZE) {
                throw new BadQueryException("search repeats too much: it expands to more than " + MAX_SIZE
                        + " steps (nested {n} repetitions multiply)");
            }
            p.compile();
        }
        return p;
    }

    private Pattern compile() {
        try {
            return Pattern.compile(pattern, matchCase ? 0 : Pattern.CASE_INSENSITIVE);
        } catch (PatternSyntaxException e) {
            throw new BadQueryException("search is not a valid regular expression: " + e.getDescription()
                    + (e.getIndex() >= 0 ? " at position " + e.getIndex() : ""));
        } catch (RuntimeException e) {
            // RE2 refuses patterns whose program would be too large (huge repeat counts) this way
            throw new BadQueryException("search is not a usable regular expression: " + e.getMessage());
        }
    }

    /** Whether the pattern is found in each name. */
    boolean[] matchAll(String[] names) {
        boolean[] out = new boolean[names.length];
        if (literal) {
            for (int i = 0; i < names.length; i++) {
                out[i] = containsLiteral(names[i]);
            }
        } else {
            Pattern p = compile();
            for (int i = 0; i < names.length; i++) {
                out[i] = p.matcher(names[i]).find();
            }
        }
        return out;
    }

    public boolean matches(String name) {
        return literal ? containsLiteral(name) : compile().matcher(name).find();
    }

    private boolean containsLiteral(String name) {
        if (matchCase) {
            return name.contains(pattern);
        }
        for (int at = 0, last = name.length() - pattern.length(); at <= last; at++) {
            if (name.regionMatches(true, at, pattern, 0, pattern.length())) {
                return true;
            }
        }
        return false;
    }

    /** A forgiving scan of the pattern's structure; syntax errors are left to the real parser. */
    private static final class Estimate {
        private final String p;
        private int i;

        Estimate(String p) {
            this.p = p;
        }

        /** Size of the alternatives up to the group's end; a depth over 1000 is refused by RE2/J's parser anyway. */
        long sequence(int depth) {
            long total = 0;
            long branch = 0;
            while (i < p.length()) {
                char c = p.charAt(i);
                if (c == ')') {
                    break;
                }
                if (c == '|') {
                    i++;
                    total = add(total, branch);
                    branch = 0;
                    continue;
                }
                long atom = atom(depth);
                branch = add(branch, multiply(atom, repeat()));
            }
            return add(total, branch);
        }

        private long atom(int depth) {
            char c = p.charAt(i++);
            if (c == '\\') {
                i = Math.min(p.length(), i + 1);
                return 1;
            }
            if (c == '[') {
                if (i < p.length() && p.charAt(i) == '^') {
                    i++;
                }
                if (i < p.length() && p.charAt(i) == ']') {
                    i++;
                }
                while (i < p.length() && p.charAt(i) != ']') {
                    i += p.charAt(i) == '\\' ? 2 : 1;
                }
                i++;
                return 1;
            }
            if (c == '(') {
                if (depth > 1000) {
                    i = p.length();
                    return 1;
                }
                long inner = sequence(depth + 1);
                i++;
                return Math.max(1, inner);
            }
            return 1;
        }

        /** The multiplier of a following quantifier: {n}, {n,}, {n,m}; 1 for *, +, ? and none. */
        private long repeat() {
            long times = 1;
            while (i < p.length()) {
                char c = p.charAt(i);
                if (c == '*' || c == '+' || c == '?') {
                    i++;
                } else if (c == '{') {
                    int close = p.indexOf('}', i);
                    String body = close < 0 ? "" : p.substring(i + 1, close);
                    if (!body.matches("\\d{1,6}(,\\d{0,6})?")) {
                        return times;
                    }
                    String[] parts = body.split(",", -1);
                    long n = Long.parseLong(parts[0]);
                    long m = parts.length == 1 ? n : parts[1].isEmpty() ? n + 1 : Long.parseLong(parts[1]);
                    times = multiply(times, Math.max(1, Math.max(n, m)));
                    i = close + 1;
                } else {
                    break;
                }
            }
            return times;
        }

        private static long add(long a, long b) {
            return Math.min(Long.MAX_VALUE / 4, a + b);
        }

        private static long multiply(long a, long b) {
            return a > Long.MAX_VALUE / 4 / Math.max(1, b) ? Long.MAX_VALUE / 4 : a * b;
        }
    }
}
