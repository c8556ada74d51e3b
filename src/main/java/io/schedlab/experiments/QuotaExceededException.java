package io.schedlab.experiments;

import java.time.Duration;

/** The caller's API key already has its quota of queued and running experiments (429 with Retry-After). */
public class QuotaExceededException extends RuntimeException {
    private final Duration retryAfter;

    public QuotaExceededException(String owner, long active, long max, Duration retryAfter) {
        super("API key '" + owner + "' has " + active + " experiments queued or running, its quota is " + max
                + " (schedlab.quotas.max-active-per-key); retry once some have finished");
        this.retryAfter = retryAfter;
    }

    public Duration retryAfter() {
        return retryAfter;
    }
}
