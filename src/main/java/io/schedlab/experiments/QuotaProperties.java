package io.schedlab.experiments;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Per-API-key quotas ({@code schedlab.quotas.*}); 0 = no quota. They apply only when API keys are
 * on (without keys there is no owner to count).
 *
 * @param maxQueuedPerKey  QUEUED experiments one key may have, a sweep's or scenario run's children
 *                         included; a submission that would go over is refused whole (429 quota-exceeded)
 * @param maxRunningPerKey RUNNING experiments one key may have: a job over it is not started but put
 *                         back in the queue until one of the key's runs ends, so other keys' work goes first
 * @param maxActivePerKey  QUEUED plus RUNNING experiments one key may have (the single quota of
 *                         earlier versions; kept working, off by default)
 * @param runningRecheck   how long a job put back by the running quota waits before it looks again
 *                         when no run of its key ends meanwhile (a run that ends wakes the key's oldest)
 */
@ConfigurationProperties("schedlab.quotas")
public record QuotaProperties(
        @DefaultValue("100") long maxQueuedPerKey,
        @DefaultValue("0") long maxRunningPerKey,
        @DefaultValue("0") long maxActivePerKey,
        @DefaultValue("10s") Duration runningRecheck) {

    public QuotaProperties {
        requireNotNegative("schedlab.quotas.max-queued-per-key", maxQueuedPerKey);
        requireNotNegative("schedlab.quotas.max-running-per-key", maxRunningPerKey);
        requireNotNegative("schedlab.quotas.max-active-per-key", maxActivePerKey);
        if (runningRecheck == null || runningRecheck.isNegative() || runningRecheck.isZero()) {
            throw new IllegalArgumentException("schedlab.quotas.running-recheck must be positive, was " + runningRecheck);
        }
    }

    /** No quota at all (the service without API keys, and tests that build services by hand). */
    public static final QuotaProperties NONE = new QuotaProperties(0, 0, 0, Duration.ofSeconds(10));

    private static void requireNotNegative(String name, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " must be >= 0 (0 = no quota), was " + value);
        }
    }
}
