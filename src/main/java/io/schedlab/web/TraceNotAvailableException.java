package io.schedlab.web;

/** The experiment finished but no trace file exists (tracing was off, or the file was removed). */
public class TraceNotAvailableException extends RuntimeException {
    public TraceNotAvailableException(String message) {
        super(message);
    }
}
