package io.schedlab.experiments;

/** The Idempotency-Key was already used with another request body or operation (422). */
public class IdempotencyKeyReusedException extends RuntimeException {
    public IdempotencyKeyReusedException(String key, String how) {
        super("Idempotency-Key '" + key + "' was already used " + how + "; use a new key for a different request");
    }
}
