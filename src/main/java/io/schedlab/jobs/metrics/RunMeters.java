package io.schedlab.jobs.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;

/** The meters of one scheduler policy (tag {@code policy}); created once per policy by {@link JobMetrics}. */
public final class RunMeters {

    private static final double NANOS_PER_SECOND = 1e9;

    private final Timer queueWait;
    private final Counter simulatedEvents;
    private final Counter simulatedTime;
    private final DistributionSummary simulationSpeed;

    RunMeters(Timer queueWait, Counter simulatedEvents, Counter simulatedTime, DistributionSummary simulationSpeed) {
        this.queueWait = queueWait;
        this.simulatedEvents = simulatedEvents;
        this.simulatedTime = simulatedTime;
        this.simulationSpeed = simulationSpeed;
    }

    /** Time a job spent queued before a worker started it. */
    public void queueWait(Duration wait) {
        queueWait.record(wait.isNegative() ? Duration.ZERO : wait);
    }

    /** Simulated work done since the last call (deltas, never negative). */
    public void simulated(long events, long simulatedNanos) {
        if (events > 0) {
            simulatedEvents.increment(events);
        }
        if (simulatedNanos > 0) {
            simulatedTime.increment(simulatedNanos / NANOS_PER_SECOND);
        }
    }

    /** Simulated seconds per wall second of a completed run. */
    public void speed(double simulatedSeconds, Duration wall) {
        double wallSeconds = wall.toNanos() / NANOS_PER_SECOND;
        if (wallSeconds > 0 && simulatedSeconds >= 0) {
            simulationSpeed.record(simulatedSeconds / wallSeconds);
        }
    }
}
