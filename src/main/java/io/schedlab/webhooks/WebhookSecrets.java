package io.schedlab.webhooks;

import java.security.SecureRandom;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HexFormat;
import javax.sql.DataSource;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The signing secret of each API key (table webhook_secrets): 32 random bytes as 64 hex characters,
 * made on first use, replaced by a rotation. Without API keys there is one secret (the empty key name).
 */
@Component
public class WebhookSecrets {

    /** Secret size in bytes: the HMAC-SHA256 block is 64 bytes, its output 32 (RFC 2104 section 3: at least L = 32). */
    private static final int SECRET_BYTES = 32;
    private final JdbcTemplate jdbc;
    private final SecureRandom random = new SecureRandom();

    public WebhookSecrets(DataSource dataSource) {
        this.jdbc = new JdbcTemplate(dataSource);
    }

    /** A key's secret and when it was made. */
    public record Secret(String value, Instant createdAt) {
    }

    /** The secret of {@code owner} (null: no API keys), made now if it has none. */
    public Secret current(String owner) {
        return ensure(key(owner));
    }

    private Secret ensure(String key) {
        Secret existing = find(key);
        if (existing != null) {
            return existing;
        }
        try {
            jdbc.update("insert into webhook_secrets (owner, secret, created_at) values (?, ?, ?)", key, fresh(),
                    OffsetDateTime.now(ZoneOffset.UTC));
        } catch (DuplicateKeyException madeMeanwhile) {
            // another request made it first: that one holds
        }
        return find(key);
    }

    /** Replaces the secret of {@code owner} with a new one; events sent from now on are signed with it. */
    public Secret rotate(String owner) {
        String key = key(owner);
        ensure(key);
        jdbc.update("update webhook_secrets set secret = ?, created_at = ? where owner = ?", fresh(),
                OffsetDateTime.now(ZoneOffset.UTC), key);
        return find(key);
    }

    private Secret find(String key) {
        return jdbc.query("select secret, created_at from webhook_secrets where owner = ?",
                (rs, n) -> new Secret(rs.getString(1), rs.getObject(2, OffsetDateTime.class).toInstant()), key)
                .stream().findFirst().orElse(null);
    }

    private String fresh() {
        byte[] bytes = new byte[SECRET_BYTES];
        random.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    private static String key(String owner) {
        return owner == null ? "" : owner;
    }
}
