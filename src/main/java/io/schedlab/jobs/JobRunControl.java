package io.schedlab.jobs;

import io.schedlab.database.DatabaseOutage;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.recording.TraceSink;
import io.schedlab.experiments.ExperimentLifecycle;
import io.schedlab.jobs.metrics.RunMeters;
import java.time.Duration;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's view of one job: writes progress at most every {@code progress-interval}, reads the
 * cancel flag from the database at most every {@code cancel-poll-interval} (the engine polls far
 * more often), enforces the wall-clock timeout and stops on process shutdown. After a failed progress
 * write or cancel-flag read it leaves the database alone for {@link #AFTER_FAILURE}: each failed call
 * waits for a pool connection first ({@code spring.datasource.hikari.connection-timeout}), so with the
 * database away the engine would otherwise spend the outage waiting instead of simulating. Not
 * thread-safe: used by the one engine thread running the job.
 */
final class JobRunControl implements RunControl {

    private static final Logger log = LoggerFactory.getLogger(JobRunControl.class);
    /** Pause of database calls after one failed: the API's Retry-After, what a client is told to wait. */
    static final Duration AFTER_FAILURE = DatabaseOutage.RETRY_AFTER;

    private final UUID experimentId;
    private final ExperimentLifecycle lifecycle;
    private final RunMeters meters;
    private final BooleanSupplier shuttingDown;
    private final LongSupplier nanoClock;
    private final TraceSink traceSink;
    private final long progressIntervalNanos;
    private final long cancelPollIntervalNanos;
    private final long startNanos;
    private final long deadlineNanos;

    private long lastProgressWriteNanos;
    private long lastCancelPollNanos;
    private StopReason stopReason = StopReason.NONE;
    private long eventsReported;
    private long simulatedNanosReported;
    private long lastEvents;
    private long lastSimulatedNanos;
    private int progressWrites;
    /** No database call before this (nano clock): the last one failed. */
    private long quietUntilNanos;

    JobRunControl(UUID experimentId, ExperimentLifecycle lifecycle, JobsProperties properties, RunMeters meters,
            BooleanSupplier shuttingDown, LongSupplier nanoClock, TraceSink traceSink) {
        this.experimentId = experimentId;
        this.lifecycle = lifecycle;
        this.meters = meters;
        this.shuttingDown = shuttingDown;
        this.nanoClock = nanoClock;
        this.traceSink = traceSink;
        this.progressIntervalNanos = properties.progressInterval().toNanos();
        this.cancelPollIntervalNanos = properties.cancelPollInterval().toNanos();
        this.startNanos = nanoClock.getAsLong();
        this.deadlineNanos = startNanos + properties.timeout().toNanos();
        this.lastProgressWriteNanos = startNanos;
        this.lastCancelPollNanos = startNanos;
        this.quietUntilNanos = startNanos;
    }

    @Override
    public void progress(double fraction, long simulatedNanos, long eventsProcessed) {
        lastEvents = eventsProcessed;
        lastSimulatedNanos = simulatedNanos;
        long now = nanoClock.getAsLong();
        if (now - lastProgressWriteNanos >= progressIntervalNanos && now - quietUntilNanos >= 0) {
            lastProgressWriteNanos = now;
            progressWrites++;
            publishSimulatedWork(eventsProcessed, simulatedNanos);
            try {
                lifecycle.updateProgress(experimentId, clamp(fraction), simulatedNanos);
            } catch (RuntimeException e) {
                // progress is best effort: a database blip must not fail the simulation
                log.warn("progress write for experiment {} failed: {}", experimentId, e.toString());
                quietUntilNanos = nanoClock.getAsLong() + AFTER_FAILURE.toNanos();
            }
        }
    }

    @Override
    public boolean cancelRequested() {
        if (stopReason != StopReason.NONE) {
            return true;
        }
        long now = nanoClock.getAsLong();
        if (shuttingDown.getAsBoolean()) {
            stopReason = StopReason.SHUTDOWN;
        } else if (now - deadlineNanos >= 0) {
            stopReason = StopReason.TIMEOUT;
        } else if (now - lastCancelPollNanos >= cancelPollIntervalNanos && now - quietUntilNanos >= 0) {
            lastCancelPollNanos = now;
            if (readCancelFlag()) {
                stopReason = StopReason.CANCEL_REQUESTED;
            }
        }
        return stopReason != StopReason.NONE;
    }

    @Override
    public TraceSink traceSink() {
        return traceSink;
    }

    /** Why the run was asked to stop, or NONE. */
    StopReason stopReason() {
        return stopReason;
    }

    /** Wall time since the job started, in nanoseconds. */
    long elapsedNanos() {
        return nanoClock.getAsLong() - startNanos;
    }

    /** Progress writes made so far (each at least {@code progress-interval} apart). */
    int progressWrites() {
        return progressWrites;
    }

    /** Adds the work done since the last report to the simulated-work counters (call once at the end). */
    void publishFinal(long eventsProcessed, long simulatedNanos) {
        publishSimulatedWork(Math.max(eventsProcessed, lastEvents), Math.max(simulatedNanos, lastSimulatedNanos));
    }

    /** Last simulated time the engine reported, in nanoseconds. */
    long lastSimulatedNanos() {
        return lastSimulatedNanos;
    }

    private boolean readCancelFlag() {
        try {
            return lifecycle.cancelRequested(experimentId);
        } catch (RuntimeException e) {
            // read again at the next poll; the timeout still bounds the run
            log.warn("cancel-flag read for experiment {} failed: {}", experimentId, e.toString());
            quietUntilNanos = nanoClock.getAsLong() + AFTER_FAILURE.toNanos();
            return false;
        }
    }

    private void publishSimulatedWork(long events, long simulatedNanos) {
        meters.simulated(events - eventsReported, simulatedNanos - simulatedNanosReported);
        eventsReported = Math.max(eventsReported, events);
        simulatedNanosReported = Math.max(simulatedNanosReported, simulatedNanos);
    }

    private static double clamp(double fraction) {
        if (Double.isNaN(fraction)) {
            return 0;
        }
        return Math.max(0, Math.min(1, fraction));
    }
}
