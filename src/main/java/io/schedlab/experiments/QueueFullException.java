package io.schedlab.experiments;

import java.time.Duration;

/** The job queue already holds its configured maximum; the client should retry later. */
public class QueueFullException extends RuntimeException {
    private final Duration retryAfter;

    public QueueFullException(long depth, long maxQueued, Duration retryAfter) {
        super("the simulation queue is full (" + depth + " of " + maxQueued + " jobs waiting or running)");
        this.retryAfter = retryAfter;
    }

    public Duration retryAfter() {
        return retryAfter;
    }
}
