package io.schedlab.jobs.metrics;

import java.time.Duration;
import java.util.function.LongSupplier;

/** A value read from a costly source (a database count) at most once per {@code maxAge}; scrape-safe. */
final class CachedLongSupplier {

    private final LongSupplier source;
    private final long maxAgeNanos;
    private final LongSupplier nanoClock;
    private long value;
    private long readAtNanos;
    private boolean read;

    CachedLongSupplier(LongSupplier source, Duration maxAge, LongSupplier nanoClock) {
        this.source = source;
        this.maxAgeNanos = maxAge.toNanos();
        this.nanoClock = nanoClock;
    }

    synchronized double getAsDouble() {
        long now = nanoClock.getAsLong();
        if (!read || now - readAtNanos >= maxAgeNanos) {
            try {
                value = source.getAsLong();
            } catch (RuntimeException e) {
                // keep the last value: a scrape must not fail because the database hiccupped
                if (!read) {
                    return Double.NaN;
                }
            }
            readAtNanos = now;
            read = true;
        }
        return value;
    }
}
