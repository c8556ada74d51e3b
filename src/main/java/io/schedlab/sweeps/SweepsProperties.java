package io.schedlab.sweeps;

import io.schedlab.engine.sweeps.SweepLimits;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/** Size limits of a sweep ({@code schedlab.sweeps.*}): child experiments, axes and metrics. */
@ConfigurationProperties("schedlab.sweeps")
public record SweepsProperties(
        @DefaultValue("1000") int maxExperiments,
        @DefaultValue("8") int maxAxes,
        @DefaultValue("32") int maxMetrics) {

    /** The limits the engine's sweep planner checks. */
    public SweepLimits limits() {
        return new SweepLimits(maxExperiments, maxAxes, maxMetrics);
    }
}
