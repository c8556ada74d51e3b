package io.schedlab.experiments;

/** The requested change does not fit the experiment's current state (e.g. cancelling a finished one). */
public class ExperimentConflictException extends RuntimeException {
    public ExperimentConflictException(String message) {
        super(message);
    }
}
