package io.schedlab.experiments;

/** The Idempotency-Key was already used with another request body (422). */
public class IdempotencyKeyReusedException extends RuntimeException {
    public IdempotencyKeyReusedException(String key) {
        super("Idempotency-Key '" + key + "' was already used with a different request body;"
                + " use a new key for a different experiment");
    }
}
