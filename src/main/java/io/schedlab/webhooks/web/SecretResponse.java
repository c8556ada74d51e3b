package io.schedlab.webhooks.web;

import io.schedlab.webhooks.WebhookSecrets;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;

/** The caller's webhook signing secret. */
@Schema(name = "WebhookSecret", description = "the secret that signs the caller's webhook events")
record SecretResponse(
        @Schema(description = "64 hex characters; the HMAC-SHA256 key is this text as UTF-8 bytes",
                requiredMode = Schema.RequiredMode.REQUIRED)
        String secret,
        @Schema(description = "when it was made (a rotation makes a new one)", requiredMode = Schema.RequiredMode.REQUIRED)
        Instant createdAt,
        @Schema(description = "the header carrying the signature: sha256= and the hex HMAC-SHA256 of the body",
                requiredMode = Schema.RequiredMode.REQUIRED)
        String header) {

    static SecretResponse of(WebhookSecrets.Secret s) {
        return new SecretResponse(s.value(), s.createdAt(), io.schedlab.webhooks.EventSignature.HEADER);
    }
}
