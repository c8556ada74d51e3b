package io.schedlab.experiments.persistence;

import io.schedlab.experiments.ExperimentStatus;
import java.time.Instant;
import java.util.UUID;

/** An experiment without its large JSON columns (input, result): what lists and status views need. */
public record ExperimentRow(UUID id, String name, String labelsJson, String policy, ExperimentStatus status,
        double progress, long simulatedNanos, Instant createdAt, Instant startedAt, Instant finishedAt,
        String failureReason, boolean cancelRequested, String engineVersion, Double wallSeconds, Long events,
        Long contextSwitches, Long migrations, Double jainFairness) {

    /** The light columns of a loaded entity. */
    public static ExperimentRow of(ExperimentEntity e) {
        return new ExperimentRow(e.getId(), e.getName(), e.getLabels(), e.getPolicy(), e.getStatus(), e.getProgress(),
                e.getSimulatedNanos(), e.getCreatedAt(), e.getStartedAt(), e.getFinishedAt(), e.getFailureReason(),
                e.isCancelRequested(), e.getEngineVersion(), e.getWallSeconds(), e.getEvents(),
                e.getContextSwitches(), e.getMigrations(), e.getJainFairness());
    }
}
