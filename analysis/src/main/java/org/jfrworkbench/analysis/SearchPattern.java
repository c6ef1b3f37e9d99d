package org.jfrworkbench.analysis;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;

/**
 * A user's search over frame names: a regular expression found anywhere in the name (RE2 syntax, run in time
 * linear in the name's length whatever the pattern, so a pattern cannot stall the server) or plain text;
 * case-insensitive unless matchCase.
 */
public record SearchPattern(String pattern, boolean matchCase, boolean literal) {
    /** Longer patterns are refused: nobody types them, and each costs compile time and memory. */
    static final int MAX_LENGTH = 1000;

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
}
