package io.schedlab.experiments;

/** The experiment exists but has no result (yet, or ever: failed or cancelled). */
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
