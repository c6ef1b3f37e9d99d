package org.jfrworkbench.analysis;

/** The few statistics the diff needs. */
final class Statistics {
    private Statistics() {
    }

    /** Two-sided p-value of the pooled two-proportion z-test for x1/n1 versus x2/n2. */
    static double twoProportionPValue(long x1, long n1, long x2, long n2) {
        if (n1 == 0 || n2 == 0) {
            return 1.0;
        }
        double p1 = (double) x1 / n1;
        double p2 = (double) x2 / n2;
        double pooled = (double) (x1 + x2) / (n1 + n2);
        double se = Math.sqrt(pooled * (1 - pooled) * (1.0 / n1 + 1.0 / n2));
        if (se == 0) {
            return p1 == p2 ? 1.0 : 0.0;
        }
        double z = Math.abs(p1 - p2) / se;
        return erfc(z / Math.sqrt(2));
    }

    /** Complementary error function (Numerical Recipes' Chebyshev fit, relative error < 1.2e-7). */
    static double erfc(double x) {
        double z = Math.abs(x);
        double t = 1 / (1 + 0.5 * z);
        double r = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418
                + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587
                + t * (-0.82215223 + t * 0.17087277)))))))));
        return x >= 0 ? r : 2 - r;
    }
}
