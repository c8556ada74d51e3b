package io.schedlab.experiments;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Idempotency-Key values and request fingerprints (IETF httpapi draft "The Idempotency-Key HTTP
 * Header Field": the key is a client-chosen string, the fingerprint a digest of the payload).
 */
final class IdempotencyRules {

    static final int MAX_KEY_LENGTH = 255;

    private IdempotencyRules() {
    }

    /** The key, checked: 1-255 visible ASCII characters (quotes of an sf-string value are dropped). */
    static String check(String key) {
        String k = key.strip();
        if (k.length() >= 2 && k.startsWith("\"") && k.endsWith("\"")) {
            k = k.substring(1, k.length() - 1);
        }
        if (k.isEmpty() || k.length() > MAX_KEY_LENGTH || !k.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            throw new InvalidIdempotencyKeyException();
        }
        return k;
    }

    /** SHA-256 of the body bytes, lower-case hex. */
    static String fingerprint(byte[] body) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}
