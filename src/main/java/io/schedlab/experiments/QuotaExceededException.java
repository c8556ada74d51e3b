package io.schedlab.experiments;

import java.time.Duration;

/**
 * The submission would take the caller's API key over a quota (429 with Retry-After): {@code limit}
 * names the property, {@code current} is what the key has now, {@code requested} what the
 * submission adds (a sweep's children count each).
 */
public class QuotaExceededException extends RuntimeException {
    private final String limit;
    private final long current;
    private final long requested;
    private final long max;
    private final Duration retryAfter;

    public QuotaExceededException(String owner, String what, String limit, long current, long requested, long max,
            Duration retryAfter) {
        super("API key '" + owner + "' has " + current + " experiments " + what + ", this submission adds "
                + requested + " and the quota is " + max + " (" + limit + ")"
                + (requested > max ? "; it can never fit: split it into submissions of at most " + max
                        : "; retry once some have " + (what.equals("queued") ? "started" : "finished")));
        this.limit = limit;
        this.current = current;
        this.requested = requested;
        this.max = max;
        this.retryAfter = retryAfter;
    }

    /** The property of the quota that was reached. */
    public String limit() {
        return limit;
    }

    public long current() {
        return current;
    }

    public long requested() {
        return requested;
    }

    public long max() {
        return max;
    }

    public Duration retryAfter() {
        return retryAfter;
    }
}
