package io.schedlab.jobs.metrics;

import java.util.function.LongSupplier;

/**
 * Worker time spent holding a job, summed over workers, the jobs held now counted up to the instant
 * it is read: a counter whose {@code rate()} over the pool size is the pool's use, exact between two
 * scrapes (no sampling of the busy gauge). Held time = sum of (end - start) over ended holds plus
 * sum of (now - start) over current ones = {@code net + holding * now}, where {@code net} adds each
 * end and subtracts each start, so no per-worker state is kept.
 */
final class BusyTime {

    private final LongSupplier nanoClock;
    private final long origin;
    private long net;
    private int holding;

    BusyTime(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
        this.origin = nanoClock.getAsLong();
    }

    /** A worker took a job. */
    synchronized void began() {
        net -= now();
        holding++;
    }

    /** A worker let its job go (after {@link #began}). */
    synchronized void ended() {
        net += now();
        holding--;
    }

    /** Workers holding a job now. */
    synchronized int holding() {
        return holding;
    }

    /** Seconds of worker time held so far. */
    synchronized double seconds() {
        return (net + holding * now()) / 1e9;
    }

    private long now() {
        return nanoClock.getAsLong() - origin;
    }
}
