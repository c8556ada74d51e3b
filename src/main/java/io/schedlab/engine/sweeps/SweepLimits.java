package io.schedlab.engine.sweeps;

/**
 * Size limits of a sweep: child experiments (cells x repetitions), axes and metrics. The service
 * takes them from {@code schedlab.sweeps.*}; the command line from {@link #DEFAULTS}.
 */
public record SweepLimits(int maxExperiments, int maxAxes, int maxMetrics) {

    /** The service's defaults (schedlab.sweeps.max-experiments 1000, max-axes 8, max-metrics 32). */
    public static final SweepLimits DEFAULTS = new SweepLimits(1000, 8, 32);
}
