package org.jfrworkbench.model;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Frame names with the parts that change from run to run of the same code taken out: the numbers and addresses of
 * lambda and other hidden classes, dynamic proxies, reflection accessors, method-handle forms and CGLIB classes.
 * Two runs' diffs, method statistics and searches compare these; the recorded name stays what frames show.
 */
public final class StableNames {
    /**
     * Each pattern's group 1 is kept, the rest of the match dropped. Hidden classes (JDK 15+): {@code Foo$$Lambda.0x800000026},
     * {@code Foo$$Lambda$75.0x0000000800c22a28}, {@code LambdaForm$MH.0x00000008000c4c00}; JDK 8 anonymous classes:
     * {@code Foo$$Lambda$27.872627152}, {@code LambdaForm$MH.1234567}; then numbered generated classes.
     */
    private static final Pattern[] PATTERNS = {
        Pattern.compile("(\\$\\$Lambda)(?:\\$\\d+)?(?:[./](?:0x[0-9a-fA-F]+|\\d+))?"),
        Pattern.compile("(LambdaForm\\$[A-Za-z]+)(?:[./](?:0x[0-9a-fA-F]+|\\d+))"),
        Pattern.compile("(\\$Proxy)\\d+"),
        Pattern.compile("(jdk\\.proxy)\\d+"),
        Pattern.compile("(Generated(?:Serialization)?(?:Method|Constructor)Accessor)\\d+"),
        Pattern.compile("(\\$\\$(?:EnhancerBy[A-Za-z]*CGLIB|FastClassBy[A-Za-z]*CGLIB|SpringCGLIB))\\$\\$[0-9a-fA-F]+"),
        // any other hidden class: a class name followed by its address
        Pattern.compile("([A-Za-z_$][\\w$]*)[./]0x[0-9a-fA-F]{6,}"),
    };

    private StableNames() {
    }

    /** The name with run-specific numbers removed; the same string when there are none. */
    public static String of(String name) {
        if (name.indexOf('$') < 0 && name.indexOf("0x") < 0 && name.indexOf("Accessor") < 0 && name.indexOf("proxy") < 0) {
            return name;
        }
        String out = name;
        for (Pattern p : PATTERNS) {
            Matcher m = p.matcher(out);
            if (m.find()) {
                out = m.replaceAll(r -> Matcher.quoteReplacement(r.group(1)));
            }
        }
        return out;
    }
}
