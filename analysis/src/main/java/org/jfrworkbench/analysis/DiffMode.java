package org.jfrworkbench.analysis;

import java.util.Locale;

/**
 * What a diff compares. RELATIVE: each method's share of its side's weight (a two-proportion z-test on the sample
 * counts); ABSOLUTE: its weight per second of the selected time (a comparison of two Poisson rates), which shows a
 * method that got slower while everything else did too.
 */
public enum DiffMode {
    RELATIVE("two-sided two-proportion z-test (pooled variance) on sample counts"),
    ABSOLUTE("two-sided comparison of Poisson rates (sample counts per second; binomial given both counts, normal approximation)");

    private final String test;

    DiffMode(String test) {
        this.test = test;
    }

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The test that decides whether a change is significant in this mode. */
    public String test() {
        return test;
    }

    public static DiffMode parse(String s) {
        if (s == null || s.isBlank()) {
            return RELATIVE;
        }
        for (DiffMode m : values()) {
            if (m.id().equals(s.trim())) {
                return m;
            }
        }
        throw new BadQueryException("mode must be relative or absolute, got '" + s + "'");
    }

    /** |z| of a change from x1 (of n1 samples, t1 seconds) to x2 (of n2, t2). */
    double z(long x1, long n1, double t1, long x2, long n2, double t2) {
        return this == RELATIVE ? Statistics.twoProportionZ(x1, n1, x2, n2) : Statistics.poissonRateZ(x1, t1, x2, t2);
    }
}
