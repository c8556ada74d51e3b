package io.schedlab.experiments;

/** A request with the same Idempotency-Key is still being processed (409); retry once it has finished. */
public class IdempotencyConflictException extends RuntimeException {
    public IdempotencyConflictException(String key) {
        super("a request with Idempotency-Key '" + key + "' is still being processed; retry it once that one has answered");
    }
}
