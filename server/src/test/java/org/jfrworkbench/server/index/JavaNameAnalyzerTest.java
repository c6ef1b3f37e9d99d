package org.jfrworkbench.server.index;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.pattern.PatternTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.junit.jupiter.api.Test;

/**
 * The frame-name tokenizer gives the tokens of the regex it replaced, a pattern tokenizer splitting on
 * {@code [^\p{L}\p{N}_]+} (what the index held before, and what searches were written against): the same terms, offsets
 * and positions on Java names, on every kind of Unicode letter and number, on supplementary characters, and on random
 * mixtures of them.
 */
class JavaNameAnalyzerTest {
    private static final Pattern NON_IDENTIFIER = Pattern.compile("[^\\p{L}\\p{N}_]+");

    private static List<String> tokens(Tokenizer tokenizer, String text) throws IOException {
        tokenizer.setReader(new StringReader(text));
        return read(tokenizer);
    }

    private static List<String> read(TokenStream stream) throws IOException {
        CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
        OffsetAttribute offset = stream.addAttribute(OffsetAttribute.class);
        PositionIncrementAttribute position = stream.addAttribute(PositionIncrementAttribute.class);
        List<String> out = new ArrayList<>();
        stream.reset();
        while (stream.incrementToken()) {
            out.add(term + "@" + offset.startOffset() + "-" + offset.endOffset() + "+" + position.getPositionIncrement());
        }
        stream.end();
        out.add("end@" + offset.endOffset());
        stream.close();
        return out;
    }

    private static void sameAsTheRegex(String text) throws IOException {
        assertEquals(tokens(new PatternTokenizer(NON_IDENTIFIER, -1), text), tokens(JavaNameAnalyzer.identifiers(), text),
                () -> "tokens of " + text);
    }

    @Test
    void javaNamesSplitAsTheRegexSplitThem() throws IOException {
        for (String name : List.of("java.util.HashMap$TreeNode.putTreeVal", "com/acme/Foo.lambda$run$0(Ljava/lang/String;)V",
                "Interpreter", "[unknown_Java]", "__GI___libc_write", "java.lang.invoke.LambdaForm$MH/0x000001.invoke",
                "scala.collection.immutable.List.$colon$colon", "std::vector<int>::push_back", "  leading and trailing  ",
                "", "...", "a", "_", "x2y3", "Ⅻ.ⅸ", "٣٤.foo", "x²", "Привет.мир", "日本語.メソッド", "𝒜𝒷.𝓬", "a\uD835", "\uDC00b",
                "café.naïve", "tab\tnew\nline", "$$$", "Foo_Bar.baz_1")) {
            sameAsTheRegex(name);
        }
    }

    @Test
    void randomMixturesOfLettersNumbersAndSeparatorsSplitAsTheRegexSplitThem() throws IOException {
        // letters and numbers of every kind, supplementary ones, lone surrogates, separators, marks and symbols
        int[] alphabet = {'a', 'Z', '_', '0', '9', '.', '$', '/', '(', ')', ';', '<', '>', ':', ' ', '-', 'é', 'Ж', '日',
                '²', '٣', 'Ⅻ', '½', 0x1D49C, 0x1D7D8, 0x10400, 0x0301, 0x20AC, 0xD835, 0xDC00, 0xFEFF, 0x200B};
        Random random = new Random(7);
        for (int i = 0; i < 3_000; i++) {
            StringBuilder text = new StringBuilder();
            for (int n = random.nextInt(40); n > 0; n--) {
                text.appendCodePoint(alphabet[random.nextInt(alphabet.length)]);
            }
            sameAsTheRegex(text.toString());
        }
    }

    @Test
    void aNameLongerThanTheTermLimitIsIndexedByItsFirstCharacters() throws IOException {
        String longName = "com.acme.Generated" + "X".repeat(40_000) + ".call";
        sameAsTheRegex(longName);
        try (Analyzer names = JavaNameAnalyzer.names()) {
            List<String> tokens = read(names.tokenStream("method", longName));
            assertEquals(List.of("com@0-3+1", "acme@4-8+1",
                    ("generated" + "x".repeat(40_000)).substring(0, JavaNameAnalyzer.MAX_TERM_CHARS) + "@9-40018+1",
                    "call@40019-40023+1", "end@40023"), tokens);
        }
    }
}
