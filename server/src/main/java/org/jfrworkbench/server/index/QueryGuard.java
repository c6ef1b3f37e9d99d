package org.jfrworkbench.server.index;

import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.jfrworkbench.analysis.BadQueryException;

/**
 * Bounds on a search's cost, checked before Lucene sees the text and again on the parsed query: the parser recurses
 * per parenthesis (thousands of them overflow its stack), every fuzzy or regular-expression term builds an automaton
 * (some need seconds), and Lucene's own clause limit is an exception deep inside a search. Each bound is a 400 with
 * the reason, in microseconds.
 */
final class QueryGuard {
    static final int MAX_LENGTH = 2000;
    static final int MAX_NESTING = 16;
    /** Terms after parsing: a bare word is searched in nine fields, so this is about 30 words. */
    static final int MAX_CLAUSES = 300;
    /** Automata to build: about four fuzzy, wildcard or regular-expression words over the nine default fields. */
    static final int MAX_EXPENSIVE_TERMS = 40;
    /** The largest {n} or {n,m} in a regular-expression term: each repetition is a copy of the automaton. */
    static final int MAX_REPEAT = 16;
    /** States a regular expression may make when Lucene determinizes it (its default is 10,000). */
    static final int DETERMINIZE_WORK_LIMIT = 2000;

    private QueryGuard() {
    }

    /** Checks the text: length and parenthesis nesting (outside quotes). */
    static void checkText(String q) {
        if (q.length() > MAX_LENGTH) {
            throw new BadQueryException("query is " + q.length() + " characters long; at most " + MAX_LENGTH + " are allowed");
        }
        int depth = 0;
        boolean quoted = false;
        boolean regex = false;
        for (int i = 0; i < q.length(); i++) {
            char c = q.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '"' && !regex) {
                quoted = !quoted;
            } else if (c == '/' && !quoted) {
                regex = !regex;
            } else if (regex && c == '{') {
                checkRepeat(q, i + 1);
            } else if (regex || quoted) {
                continue;
            } else if (c == '(' && ++depth > MAX_NESTING) {
                throw new BadQueryException("query nests parentheses deeper than " + MAX_NESTING + " levels");
            } else if (c == ')') {
                depth--;
            }
        }
    }

    private static void checkRepeat(String q, int from) {
        int end = from;
        while (end < q.length() && end - from < 10 && (Character.isDigit(q.charAt(end)) || q.charAt(end) == ',')) {
            end++;
        }
        for (String n : q.substring(from, end).split(",")) {
            if (!n.isEmpty() && (n.length() > 3 || Integer.parseInt(n) > MAX_REPEAT)) {
                throw new BadQueryException("regular-expression terms may repeat at most " + MAX_REPEAT + " times ({" + n + "})");
            }
        }
    }

    /** Checks the parsed query: how many clauses, and how many terms that expand over the term dictionary. */
    static void checkParsed(Query query) {
        int[] counts = new int[2];
        query.visit(new QueryVisitor() {
            @Override
            public void visitLeaf(Query q) {
                counts[0]++;
            }

            @Override
            public void consumeTerms(Query q, org.apache.lucene.index.Term... terms) {
                counts[0] += terms.length;
            }

            @Override
            public void consumeTermsMatching(Query q, String field, java.util.function.Supplier<org.apache.lucene.util.automaton.ByteRunAutomaton> automaton) {
                counts[0]++;
                counts[1]++;
            }

            @Override
            public QueryVisitor getSubVisitor(org.apache.lucene.search.BooleanClause.Occur occur, Query parent) {
                return this;
            }
        });
        if (counts[0] > MAX_CLAUSES) {
            throw new BadQueryException("query has " + counts[0] + " terms; at most " + MAX_CLAUSES + " are allowed");
        }
        if (counts[1] > MAX_EXPENSIVE_TERMS) {
            throw new BadQueryException("query has " + counts[1] + " fuzzy, wildcard, range or regular-expression terms; at most "
                    + MAX_EXPENSIVE_TERMS + " are allowed");
        }
    }

    static String clip(String q) {
        return q.length() > 200 ? q.substring(0, 200) + "..." : q;
    }
}
