package io.schedlab.webhooks;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The {@value #HEADER} header: {@code sha256=} and the lower-case hex HMAC-SHA256 (RFC 2104, JDK
 * {@link Mac}) of the exact body bytes, keyed with the secret's text as UTF-8 bytes (the scheme of
 * GitHub's X-Hub-Signature-256, docs.github.com "Validating webhook deliveries").
 */
public final class EventSignature {

    public static final String HEADER = "X-SchedLab-Signature";
    static final String PREFIX = "sha256=";
    private static final String ALGORITHM = "HmacSHA256";

    private EventSignature() {
    }

    /** The header value for {@code body} signed with {@code secret}. */
    public static String of(String secret, byte[] body) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), ALGORITHM));
            return PREFIX + HexFormat.of().formatHex(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
        }
    }
}
