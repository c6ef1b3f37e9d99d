package org.jfrworkbench.server.index;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.miscellaneous.TruncateTokenFilter;
import org.apache.lucene.analysis.miscellaneous.WordDelimiterGraphFilter;
import org.apache.lucene.analysis.util.CharTokenizer;
import org.apache.lucene.util.AttributeFactory;

/**
 * Analyzers for Java frame names such as {@code java.util.HashMap$TreeNode.putTreeVal}.
 * {@link #names()} splits on everything that is not part of an identifier ({@code . $ / ( ) ; < > :} ...), so
 * {@code HashMap}, {@code resize}, {@code HashMap.resize} and {@code java.util.HashMap.resize} all match as
 * terms or phrases. {@link #parts()} additionally splits camel case and digits ({@code Hash}, {@code Map}), in a
 * separate field so that each field keeps a linear token stream and phrase positions stay exact.
 */
public final class JavaNameAnalyzer {
    /**
     * Longer identifiers are indexed by their first 1,024 characters: Lucene refuses a term over 32,766 bytes (an
     * "immense term" fails the whole document), and no one searches for the rest of a name that long.
     */
    static final int MAX_TERM_CHARS = 1024;
    /**
     * The longest run of identifier characters taken as one token before it is cut to {@link #MAX_TERM_CHARS}: a
     * longer run goes on as further tokens (a name of that length is only a hostile one).
     */
    private static final int MAX_RUN_CHARS = 1 << 16;

    private JavaNameAnalyzer() {
    }

    /**
     * Runs of identifier characters (letters, numbers and {@code _}, the regex {@code [\p{L}\p{N}_]+}): the
     * tokens a pattern tokenizer splitting on {@code [^\p{L}\p{N}_]+} gives, without a regex engine, which took a
     * sixth of indexing a recording's methods at upload.
     */
    static Tokenizer identifiers() {
        return new CharTokenizer(AttributeFactory.DEFAULT_ATTRIBUTE_FACTORY, MAX_RUN_CHARS) {
            @Override
            protected boolean isTokenChar(int c) {
                if (c == '_' || Character.isLetter(c)) {
                    return true;
                }
                int type = Character.getType(c);
                return type == Character.DECIMAL_DIGIT_NUMBER || type == Character.LETTER_NUMBER
                        || type == Character.OTHER_NUMBER;
            }
        };
    }

    public static Analyzer names() {
        return new Analyzer() {
            @Override
            protected TokenStreamComponents createComponents(String field) {
                Tokenizer source = identifiers();
                return new TokenStreamComponents(source, new LowerCaseFilter(new TruncateTokenFilter(source, MAX_TERM_CHARS)));
            }

            @Override
            protected TokenStream normalize(String field, TokenStream in) {
                return new LowerCaseFilter(in); // wildcard and prefix terms (Service*) meet lowercased tokens
            }

            @Override
            public int getPositionIncrementGap(String field) {
                return 100; // phrases never span two method names
            }
        };
    }

    public static Analyzer parts() {
        return new Analyzer() {
            @Override
            protected TokenStreamComponents createComponents(String field) {
                Tokenizer source = identifiers();
                int flags = WordDelimiterGraphFilter.GENERATE_WORD_PARTS | WordDelimiterGraphFilter.GENERATE_NUMBER_PARTS
                        | WordDelimiterGraphFilter.SPLIT_ON_CASE_CHANGE | WordDelimiterGraphFilter.SPLIT_ON_NUMERICS;
                TokenStream stream = new WordDelimiterGraphFilter(new TruncateTokenFilter(source, MAX_TERM_CHARS), flags, null);
                return new TokenStreamComponents(source, new LowerCaseFilter(stream));
            }

            @Override
            protected TokenStream normalize(String field, TokenStream in) {
                return new LowerCaseFilter(in); // wildcard and prefix terms (Service*) meet lowercased tokens
            }

            @Override
            public int getPositionIncrementGap(String field) {
                return 100;
            }
        };
    }
}
