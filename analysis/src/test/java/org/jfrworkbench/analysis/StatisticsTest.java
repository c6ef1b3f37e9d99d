package org.jfrworkbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Student's t p-values and the least-squares fit of the heap growth against values from statistical tables. */
class StatisticsTest {
    @Test
    void studentsTPValuesMatchTheTables() {
        // two-sided critical values: t(0.975; 1) = 12.706, t(0.975; 10) = 2.228, t(0.995; 27) = 2.771
        assertEquals(0.05, Statistics.tPValue(12.706, 1), 1e-4);
        assertEquals(0.05, Statistics.tPValue(2.228, 10), 1e-4);
        assertEquals(0.01, Statistics.tPValue(2.771, 27), 1e-4);
        assertEquals(1.0, Statistics.tPValue(0, 5), 1e-12);
        assertEquals(0.0, Statistics.tPValue(Double.POSITIVE_INFINITY, 5), 0);
        // with many degrees of freedom t is normal
        assertEquals(Statistics.pValue(1.96), Statistics.tPValue(1.96, 100_000), 1e-4);
    }

    @Test
    void theFitOfAnExactLineHasItsSlopeAndNoDoubtAndAFlatSeriesNoSlope() {
        double[] x = {0, 1, 2, 3, 4};
        HeapGrowthQuery.Fit line = HeapGrowthQuery.Fit.of(x, new double[] {10, 12, 14, 16, 18}, 5);
        assertEquals(2.0, line.slope(), 1e-12);
        assertEquals(1.0, line.rSquared(), 1e-12);
        assertEquals(0.0, line.pValue(), 0);
        HeapGrowthQuery.Fit flat = HeapGrowthQuery.Fit.of(x, new double[] {7, 7, 7, 7, 7}, 5);
        assertEquals(0.0, flat.slope(), 0);
        assertEquals(1.0, flat.pValue(), 0);
        // y = 1, 3, 2, 5, 4: slope 0.8, R^2 = 0.64, t = 2.309 on 3 degrees of freedom, p = 0.104
        HeapGrowthQuery.Fit noisy = HeapGrowthQuery.Fit.of(x, new double[] {1, 3, 2, 5, 4}, 5);
        assertEquals(0.8, noisy.slope(), 1e-12);
        assertEquals(0.64, noisy.rSquared(), 1e-12);
        assertEquals(0.104, noisy.pValue(), 1e-3);
    }
}
