package io.schedlab.engine.sweepgrid;

import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.descriptive.SummaryStatistics;

/**
 * Mean, sample standard deviation, min, max and the Student-t 95% confidence interval of the mean
 * (mean +- t(0.975, n-1) x sd / sqrt(n)) of one cell's values, by Apache Commons Math.
 */
record CellStatistics(long n, Double mean, Double sd, Double ci95Low, Double ci95High, Double min, Double max) {

    private static final double CONFIDENCE = 0.95;

    static CellStatistics of(SummaryStatistics values) {
        long n = values.getN();
        if (n == 0) {
            return new CellStatistics(0, null, null, null, null, null, null);
        }
        double mean = values.getMean();
        if (n < 2) {
            return new CellStatistics(n, mean, null, null, null, values.getMin(), values.getMax());
        }
        double sd = values.getStandardDeviation();
        double t = new TDistribution(null, n - 1).inverseCumulativeProbability(1 - (1 - CONFIDENCE) / 2);
        double half = t * sd / Math.sqrt(n);
        return new CellStatistics(n, mean, sd, mean - half, mean + half, values.getMin(), values.getMax());
    }
}
