package io.schedlab.experiments;

import io.schedlab.experiments.status.ExperimentStatus;

/** The experiment exists but has no result yet: it is QUEUED or RUNNING. */
public class ResultsNotReadyException extends RuntimeException {
    private final ExperimentStatus status;

    public ResultsNotReadyException(String message, ExperimentStatus status) {
        super(message);
        this.status = status;
    }

    public ExperimentStatus status() {
        return status;
    }
}
