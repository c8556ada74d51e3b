package io.schedlab.experiments.persistence;

import io.schedlab.experiments.status.ExperimentStatus;
import java.time.Instant;
import java.util.UUID;

/** An experiment without its large JSON columns (input, result): what lists and status views need. */
public record ExperimentRow(UUID id, String name, String labelsJson, String policy, ExperimentStatus status,
        double progress, long simulatedNanos, Instant createdAt, Instant startedAt, Instant finishedAt,
        String failureReason, boolean cancelRequested, String engineVersion, Double wallSeconds, Long events,
        Long contextSwitches, Long migrations, Double jainFairness, String owner, String runBy) {

    /** A row without owner and replica. */
    public ExperimentRow(UUID id, String name, String labelsJson, String policy, ExperimentStatus status,
            double progress, long simulatedNanos, Instant createdAt, Instant startedAt, Instant finishedAt,
            String failureReason, boolean cancelRequested, String engineVersion, Double wallSeconds, Long events,
            Long contextSwitches, Long migrations, Double jainFairness) {
        this(id, name, labelsJson, policy, status, progress, simulatedNanos, createdAt, startedAt, finishedAt,
                failureReason, cancelRequested, engineVersion, wallSeconds, events, contextSwitches, migrations,
                jainFairness, null, null);
    }
}
