package org.jfrworkbench.analysis;

/** The few statistics the diff needs: two tests as z scores and two-sided p-values. */
final class Statistics {
    private Statistics() {
    }

    /** z of the pooled two-proportion test of x1 of n1 against x2 of n2 (0 when it cannot be computed). */
    static double twoProportionZ(long x1, long n1, long x2, long n2) {
        if (n1 == 0 || n2 == 0) {
            return 0;
        }
        double p1 = (double) x1 / n1;
        double p2 = (double) x2 / n2;
        double pooled = (double) (x1 + x2) / (n1 + n2);
        double se = Math.sqrt(pooled * (1 - pooled) * (1.0 / n1 + 1.0 / n2));
        if (se == 0) {
            return p1 == p2 ? 0 : Double.POSITIVE_INFINITY;
        }
        return Math.abs(p1 - p2) / se;
    }

    /**
     * z of the comparison of two Poisson rates, x1 events in t1 seconds against x2 in t2: given x1 + x2 events,
     * x1 is binomial with p = t1 / (t1 + t2) when the rates are equal (normal approximation).
     */
    static double poissonRateZ(long x1, double t1, long x2, double t2) {
        long n = x1 + x2;
        if (n == 0 || t1 <= 0 || t2 <= 0) {
            return 0;
        }
        double p = t1 / (t1 + t2);
        return Math.abs(x1 - n * p) / Math.sqrt(n * p * (1 - p));
    }

    /** Two-sided p-value of a z score. */
    static double pValue(double z) {
        return Double.isInfinite(z) ? 0 : erfc(z / Math.sqrt(2));
    }

    /** The z score whose two-sided p-value is alpha (bisection: called once per diff). */
    static double criticalZ(double alpha) {
        double lo = 0;
        double hi = 40;
        for (int i = 0; i < 100; i++) {
            double mid = (lo + hi) / 2;
            if (pValue(mid) > alpha) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return hi;
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
