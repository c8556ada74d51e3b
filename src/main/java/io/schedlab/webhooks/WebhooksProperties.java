package io.schedlab.webhooks;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code schedlab.webhooks.*}: where completion events may be posted and how their delivery is retried.
 * Attempt n (n >= 2) starts {@code firstRetry x backoffRate^(n-2)} after attempt n-1 failed
 * (db-scheduler's ExponentialBackoffFailureHandler); after {@code maxAttempts} the delivery is given up.
 *
 * @param allowedHosts   host names (or IP literals) a notify URL may name, compared case-insensitively;
 *                       none by default, so every notify URL is refused until hosts are listed
 * @param connectTimeout longest wait for the receiver's TCP (and TLS) connection
 * @param requestTimeout longest wait for the receiver's answer once connected
 * @param maxAttempts    attempts per delivery, the first included (1..{@value #MAX_ATTEMPTS})
 * @param firstRetry     wait between the first failed attempt and the second
 * @param backoffRate    factor by which each further wait grows (1.0 = a fixed wait; at most {@value #MAX_RATE})
 * @param pollInterval   how often finished experiments and sweeps are looked for and due retries picked up
 * @param threads        delivery threads per process
 */
@ConfigurationProperties("schedlab.webhooks")
public record WebhooksProperties(
        @DefaultValue List<String> allowedHosts,
        @DefaultValue("5s") Duration connectTimeout,
        @DefaultValue("10s") Duration requestTimeout,
        @DefaultValue("10") int maxAttempts,
        @DefaultValue("10s") Duration firstRetry,
        @DefaultValue("2.0") double backoffRate,
        @DefaultValue("1s") Duration pollInterval,
        @DefaultValue("2") int threads) {

    /** Upper bound of {@code schedlab.webhooks.max-attempts}. */
    public static final int MAX_ATTEMPTS = 100;
    /** Upper bound of {@code schedlab.webhooks.backoff-rate}. */
    public static final double MAX_RATE = 10.0;

    public WebhooksProperties {
        allowedHosts = allowedHosts == null ? List.of()
                : allowedHosts.stream().map(String::trim).filter(h -> !h.isEmpty())
                        .map(h -> h.toLowerCase(Locale.ROOT)).toList();
        requirePositive("schedlab.webhooks.connect-timeout", connectTimeout);
        requirePositive("schedlab.webhooks.request-timeout", requestTimeout);
        requirePositive("schedlab.webhooks.first-retry", firstRetry);
        requirePositive("schedlab.webhooks.poll-interval", pollInterval);
        if (maxAttempts < 1 || maxAttempts > MAX_ATTEMPTS) {
            throw new IllegalArgumentException("schedlab.webhooks.max-attempts must be between 1 and " + MAX_ATTEMPTS
                    + ", was " + maxAttempts);
        }
        if (!(backoffRate >= 1.0 && backoffRate <= MAX_RATE)) {
            throw new IllegalArgumentException("schedlab.webhooks.backoff-rate must be between 1.0 and " + MAX_RATE
                    + ", was " + backoffRate);
        }
        if (threads < 1) {
            throw new IllegalArgumentException("schedlab.webhooks.threads must be positive, was " + threads);
        }
    }

    /** Whether a notify URL may name {@code host}. */
    public boolean allows(String host) {
        return host != null && allowedHosts.contains(host.toLowerCase(Locale.ROOT));
    }

    private static void requirePositive(String name, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
    }
}
