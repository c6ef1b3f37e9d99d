package org.jfrworkbench.testkit;

import java.util.Random;

/**
 * A large, deterministic collapsed-stack profile for the flame graph benchmark: many distinct stacks over a
 * vocabulary of plausible Java method names, so the merged tree has well over 100 000 nodes.
 */
public final class SyntheticProfile {
    private SyntheticProfile() {
    }

    public static String collapsed(int stacks, long seed) {
        Random random = new Random(seed);
        String[] packages = {"java.util", "java.util.concurrent", "com.acme.checkout", "com.acme.catalog", "io.netty.channel",
            "org.eclipse.jetty.server", "com.fasterxml.jackson.databind", "org.apache.lucene.index", "jdk.internal.misc"};
        StringBuilder out = new StringBuilder(stacks * 200);
        StringBuilder stack = new StringBuilder();
        for (int s = 0; s < stacks; s++) {
            stack.setLength(0);
            stack.append("java.lang.Thread.run;com.acme.Worker.loop");
            int depth = 6 + random.nextInt(34);
            for (int d = 0; d < depth; d++) {
                // skewed choices: shallow frames repeat a lot, deep frames spread out (like real profiles)
                int spread = 2 + d * 3;
                String pkg = packages[Math.min(packages.length - 1, (int) (Math.abs(random.nextGaussian()) * 3))];
                stack.append(';').append(pkg).append(".C").append(random.nextInt(spread)).append(".m").append(random.nextInt(1 + d / 2));
            }
            out.append(stack).append(' ').append(1 + random.nextInt(50)).append('\n');
        }
        return out.toString();
    }
}
