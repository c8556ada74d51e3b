package io.schedlab.sweeps;

import io.schedlab.engine.sweepgrid.SweepLimits;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Size limits of a sweep ({@code schedlab.sweeps.*}): child experiments, axes, metrics and the JSON
 * all its children hold together. A scenario run is held to the same limits per table.
 */
@ConfigurationProperties("schedlab.sweeps")
public record SweepsProperties(
        @DefaultValue("1000") int maxExperiments,
        @DefaultValue("8") int maxAxes,
        @DefaultValue("32") int maxMetrics,
        @DefaultValue("33554432") long maxExpandedBytes) {

    /** The limits the engine's sweep planner checks. */
    public SweepLimits limits() {
        return new SweepLimits(maxExperiments, maxAxes, maxMetrics, maxExpandedBytes);
    }
}
