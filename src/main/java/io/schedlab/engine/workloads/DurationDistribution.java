package io.schedlab.engine.workloads;

import java.util.List;
import java.util.Locale;
import java.util.random.RandomGenerator;

/**
 * A positive duration distribution given by its mean and coefficient of variation (stddev / mean),
 * sampled from a workload's own random stream. cv = 0 gives the mean every time.
 * <ul>
 * <li>lognormal: sigma^2 = ln(1 + cv^2), mu = ln(mean) - sigma^2 / 2 (moments of the lognormal).</li>
 * <li>gamma: shape k = 1 / cv^2, scale theta = mean * cv^2; sampled with Marsaglia and Tsang,
 * "A simple method for generating gamma variables", ACM TOMS 26(3), 2000 (k &lt; 1 via the k+1 boost).</li>
 * <li>exponential: cv is 1 by definition (the cv argument is ignored).</li>
 * </ul>
 */
public record DurationDistribution(Kind kind, double mean, double cv) {

    /** Distribution families. */
    public enum Kind { LOGNORMAL, GAMMA, EXPONENTIAL;

        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Kind of(String id) {
            return valueOf(id.toUpperCase(Locale.ROOT));
        }
    }

    /** The allowed values of a distribution-choice parameter, in JSON form. */
    public static final List<String> NAMES = List.of("lognormal", "gamma", "exponential");

    public DurationDistribution {
        if (!(mean >= 0) || !(cv >= 0) || Double.isInfinite(mean) || Double.isInfinite(cv)) {
            throw new IllegalArgumentException("mean and cv must be finite and >= 0");
        }
    }

    public static DurationDistribution lognormal(double mean, double cv) {
        return new DurationDistribution(Kind.LOGNORMAL, mean, cv);
    }

    public static DurationDistribution exponential(double mean) {
        return new DurationDistribution(Kind.EXPONENTIAL, mean, 1.0);
    }

    /** One sample, in the unit of the mean. */
    public double sample(RandomGenerator random) {
        if (mean == 0) {
            return 0;
        }
        return switch (kind) {
            case EXPONENTIAL -> mean * random.nextExponential();
            case LOGNORMAL -> cv == 0 ? mean : sampleLognormal(random);
            case GAMMA -> cv == 0 ? mean : sampleGamma(random, 1.0 / (cv * cv)) * mean * cv * cv;
        };
    }

    /** One sample scaled to nanoseconds (the mean is in units of {@code nanosPerUnit}), at least 1 ns when the mean is positive. */
    public long sampleNanos(RandomGenerator random, double nanosPerUnit) {
        if (mean == 0) {
            return 0;
        }
        return Math.max(1L, Math.round(sample(random) * nanosPerUnit));
    }

    private double sampleLognormal(RandomGenerator random) {
        double sigma2 = Math.log1p(cv * cv);
        double mu = Math.log(mean) - sigma2 / 2;
        return Math.exp(mu + Math.sqrt(sigma2) * random.nextGaussian());
    }

    /** Marsaglia-Tsang gamma(shape, 1). */
    static double sampleGamma(RandomGenerator random, double shape) {
        if (shape < 1) {
            // Boost: Gamma(k) = Gamma(k + 1) * U^(1/k) (Marsaglia-Tsang 2000, section 6).
            double u = random.nextDouble();
            return sampleGamma(random, shape + 1) * Math.pow(u, 1.0 / shape);
        }
        double d = shape - 1.0 / 3.0;
        double c = 1.0 / Math.sqrt(9 * d);
        while (true) {
            double x = random.nextGaussian();
            double v = 1 + c * x;
            if (v <= 0) {
                continue;
            }
            v = v * v * v;
            double u = random.nextDouble();
            if (u < 1 - 0.0331 * x * x * x * x || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) {
                return d * v;
            }
        }
    }
}
