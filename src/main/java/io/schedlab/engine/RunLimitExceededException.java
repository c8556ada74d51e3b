package io.schedlab.engine;

/** Thrown when a run hits its bound on simulated events. */
public class RunLimitExceededException extends RuntimeException {
    public RunLimitExceededException(String message) {
        super(message);
    }
}
