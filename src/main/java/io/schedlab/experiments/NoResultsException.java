package io.schedlab.experiments;

/** The experiment finished (cancelled or failed) before it ever ran, so it has no result and never will. */
public class NoResultsException extends RuntimeException {
    public NoResultsException(String message) {
        super(message);
    }
}
