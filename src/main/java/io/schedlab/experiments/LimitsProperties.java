package io.schedlab.experiments;

import io.schedlab.engine.spec.Limits;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Size limits on what a client may submit ({@code schedlab.limits.*}), handed to the engine validator
 * as {@link Limits}. {@code maxBodyBytes} is enforced by the web layer before any parsing;
 * {@code maxEvents} and {@code maxRunHeapMb} also bound the cost estimate at admission
 * ({@link io.schedlab.engine.admission.CostEstimator}).
 */
@ConfigurationProperties("schedlab.limits")
public record LimitsProperties(
        @DefaultValue("1048576") long maxBodyBytes,
        @DefaultValue("1024") int maxPcpus,
        @DefaultValue("8192") int maxVcpus,
        @DefaultValue("512") int maxVms,
        @DefaultValue("3600") double maxDurationSeconds,
        @DefaultValue("500000000") long maxEvents,
        @DefaultValue("1000") int maxTimelineActions,
        @DefaultValue("1000000") long maxTraceEvents,
        @DefaultValue("512") long maxRunHeapMb) {

    /** The heap one run may be estimated to need ({@code max-run-heap-mb}), in bytes. */
    public long maxRunHeapBytes() {
        return maxRunHeapMb << 20;
    }


    /** The engine's view of these limits. */
    public Limits toEngineLimits() {
        return new Limits(maxPcpus, maxVcpus, maxVms, maxDurationSeconds, maxEvents, maxTimelineActions,
                maxTraceEvents);
    }
}
