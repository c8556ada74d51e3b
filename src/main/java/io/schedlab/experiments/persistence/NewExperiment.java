package io.schedlab.experiments.persistence;

import io.schedlab.experiments.status.ExperimentStatus;
import java.time.Instant;
import java.util.UUID;

/** A submission to store as a QUEUED experiment: the input as sent and normalized, and its list columns. */
public record NewExperiment(UUID id, String name, String labelsJson, String policy, String inputRaw,
        String inputNormalized, String engineVersion, Instant createdAt, String owner) {

    /** A submission without an owner (the service runs without API keys). */
    public NewExperiment(UUID id, String name, String labelsJson, String policy, String inputRaw,
            String inputNormalized, String engineVersion, Instant createdAt) {
        this(id, name, labelsJson, policy, inputRaw, inputNormalized, engineVersion, createdAt, null);
    }

    /** The row this submission becomes once inserted (QUEUED, nothing run yet). */
    public ExperimentRow toRow() {
        return new ExperimentRow(id, name, labelsJson, policy, ExperimentStatus.QUEUED, 0, 0, createdAt, null, null,
                null, false, engineVersion, null, null, null, null, null, owner, null);
    }
}
