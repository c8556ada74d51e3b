package io.schedlab.engine.result;

/** A run queue's time-averaged number of runnable, not running vCPUs assigned to it. */
public record RunqueueResult(int runqueue, double averageLength) {
}
