package io.schedlab.experiments;

/** An Idempotency-Key header value that is not 1-255 visible ASCII characters (400). */
public class InvalidIdempotencyKeyException extends RuntimeException {
    public InvalidIdempotencyKeyException() {
        super("Idempotency-Key must be 1-" + IdempotencyRules.MAX_KEY_LENGTH + " visible ASCII characters");
    }
}
