package io.schedlab.web;

/** The configured number of open progress streams is reached. */
public class TooManyStreamsException extends RuntimeException {
    public TooManyStreamsException(int max) {
        super("at most " + max + " progress streams may be open at once (schedlab.limits.max-event-streams); poll GET /api/v1/experiments/{id} instead");
    }
}
