package io.schedlab.engine.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DurationDistributionTest {

    private static double[] meanAndCv(DurationDistribution d) {
        SplittableRandom r = new SplittableRandom(5);
        int n = 200_000;
        double sum = 0;
        double sq = 0;
        for (int i = 0; i < n; i++) {
            double x = d.sample(r);
            assertThat(x).isGreaterThanOrEqualTo(0);
            sum += x;
            sq += x * x;
        }
        double mean = sum / n;
        double var = sq / n - mean * mean;
        return new double[] {mean, Math.sqrt(var) / mean};
    }

    @Test
    void lognormalHasTheRequestedMeanAndCv() {
        double[] m = meanAndCv(DurationDistribution.lognormal(72, 0.8));
        assertThat(m[0]).isCloseTo(72, within(1.0));
        assertThat(m[1]).isCloseTo(0.8, within(0.04));
    }

    @Test
    void gammaHasTheRequestedMeanAndCvAlsoBelowShapeOne() {
        double[] m = meanAndCv(new DurationDistribution(DurationDistribution.Kind.GAMMA, 10, 0.5));
        assertThat(m[0]).isCloseTo(10, within(0.1));
        assertThat(m[1]).isCloseTo(0.5, within(0.02));
        double[] wide = meanAndCv(new DurationDistribution(DurationDistribution.Kind.GAMMA, 10, 2.0));
        assertThat(wide[0]).isCloseTo(10, within(0.3));
        assertThat(wide[1]).isCloseTo(2.0, within(0.1));
    }

    @Test
    void exponentialHasCvOneAndZeroCvIsConstant() {
        double[] m = meanAndCv(DurationDistribution.exponential(3));
        assertThat(m[0]).isCloseTo(3, within(0.05));
        assertThat(m[1]).isCloseTo(1, within(0.02));
        assertThat(DurationDistribution.lognormal(7, 0).sample(new SplittableRandom(1))).isEqualTo(7);
    }
}
