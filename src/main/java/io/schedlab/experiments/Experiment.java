package io.schedlab.experiments;

import io.schedlab.experiments.status.ExperimentStatus;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/**
 * What a client sees of an experiment: identity, status with progress, timestamps and, once
 * SUCCEEDED, the result summary. {@code wallSeconds} is the simulation's wall time when finished,
 * else the time since it started. {@code owner}: the submitting API key's name (null without keys);
 * {@code replica}: the replica that last started the run (db-scheduler's picked_by).
 */
public record Experiment(UUID id, String name, Map<String, String> labels, String policy, ExperimentStatus status,
        double progress, double simulatedSeconds, Instant createdAt, Instant startedAt, Instant finishedAt,
        Double wallSeconds, String failureReason, boolean cancelRequested, String engineVersion, Summary summary,
        String owner, String replica) {

    /** Summary columns of an experiment with a result (names and units as the result document's summary). */
    public record Summary(long simulatedNanos, long wallNanos, long events, long contextSwitches,
            long migrations, Double jainIndex) {
    }
}
