package io.schedlab.engine.sweepgrid;

/**
 * Size limits of a sweep: child experiments (cells x repetitions), axes, metrics, and the JSON its
 * children may hold together (children x one child's size; each child is validated and stored, so
 * a large base times many cells would otherwise fill the heap). The service takes them from
 * {@code schedlab.sweeps.*}; the command line from {@link #DEFAULTS}.
 */
public record SweepLimits(int maxExperiments, int maxAxes, int maxMetrics, long maxExpandedBytes) {

    /** The service's defaults (schedlab.sweeps.max-experiments 1000, max-axes 8, max-metrics 32, max-expanded-bytes 32 MiB). */
    public static final SweepLimits DEFAULTS = new SweepLimits(1000, 8, 32, 32L << 20);
}
