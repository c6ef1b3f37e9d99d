package org.jfrworkbench.analysis;

/** The few statistics the diff and the heap growth need: tests as z or t scores and their p-values. */
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

    /** Two-sided p-value of Student's t with df degrees of freedom: the regularized beta I(df / (df + t^2); df/2, 1/2). */
    static double tPValue(double t, int df) {
        if (df <= 0 || Double.isNaN(t)) {
            return 1;
        }
        if (Double.isInfinite(t)) {
            return 0;
        }
        return regularizedBeta(df / (df + t * t), df / 2.0, 0.5);
    }

    /** I_x(a, b) by its continued fraction (Numerical Recipes' betai), on the side where it converges fast. */
    static double regularizedBeta(double x, double a, double b) {
        if (x <= 0) {
            return 0;
        }
        if (x >= 1) {
            return 1;
        }
        double front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
        return x < (a + 1) / (a + b + 2) ? front * betaFraction(x, a, b) / a : 1 - front * betaFraction(1 - x, b, a) / b;
    }

    /** The continued fraction of the incomplete beta function (modified Lentz). */
    private static double betaFraction(double x, double a, double b) {
        double tiny = 1e-300;
        double c = 1;
        double d = 1 - (a + b) * x / (a + 1);
        d = 1 / (Math.abs(d) < tiny ? tiny : d);
        double h = d;
        for (int m = 1; m <= 300; m++) {
            int m2 = 2 * m;
            double even = m * (b - m) * x / ((a - 1 + m2) * (a + m2));
            d = 1 + even * d;
            d = 1 / (Math.abs(d) < tiny ? tiny : d);
            c = 1 + even / c;
            c = Math.abs(c) < tiny ? tiny : c;
            h *= d * c;
            double odd = -(a + m) * (a + b + m) * x / ((a + m2) * (a + 1 + m2));
            d = 1 + odd * d;
            d = 1 / (Math.abs(d) < tiny ? tiny : d);
            c = 1 + odd / c;
            c = Math.abs(c) < tiny ? tiny : c;
            double step = d * c;
            h *= step;
            if (Math.abs(step - 1) < 1e-12) {
                break;
            }
        }
        return h;
    }

    /** ln Gamma(x) for x > 0 (Lanczos, Numerical Recipes' gammln, relative error < 2e-10). */
    static double logGamma(double x) {
        double[] cof = {76.18009172947146, -86.50532032941677, 24.01409824083091, -1.231739572450155,
                0.1208650973866179e-2, -0.5395239384953e-5};
        double y = x;
        double tmp = x + 5.5;
        tmp -= (x + 0.5) * Math.log(tmp);
        double series = 1.000000000190015;
        for (double c : cof) {
            series += c / ++y;
        }
        return -tmp + Math.log(2.5066282746310005 * series / x);
    }
}
