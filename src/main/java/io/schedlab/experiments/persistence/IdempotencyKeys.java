package io.schedlab.experiments.persistence;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * The {@code idempotency_keys} table (V14): which experiment an (owner, Idempotency-Key) pair
 * created, with the fingerprint of the body that created it. Statements take the caller's
 * transaction (JdbcTemplate over the transaction-bound connection), so a key is stored with its
 * submission or not at all.
 */
@Repository
public class IdempotencyKeys {

    /** A stored key: the body fingerprint and the experiment it created. */
    public record Entry(String bodySha256, UUID experimentId) {
    }

    private final JdbcTemplate jdbc;

    public IdempotencyKeys(DataSource dataSource) {
        this.jdbc = new JdbcTemplate(dataSource);
    }

    /** The entry of a key created at or after {@code notBefore} (older ones have expired). */
    public Optional<Entry> find(String owner, String key, Instant notBefore) {
        List<Entry> rows = jdbc.query("select body_sha256, experiment_id from idempotency_keys"
                + " where owner_key = ? and idem_key = ? and created_at >= ?",
                (rs, n) -> new Entry(rs.getString(1), rs.getObject(2, UUID.class)), owner, key, timestamp(notBefore));
        return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
    }

    /** Stores a key; a live duplicate fails with a DuplicateKeyException. An expired row of the same key goes first. */
    public void insert(String owner, String key, String bodySha256, UUID experimentId, Instant now, Instant expiredBefore) {
        jdbc.update("delete from idempotency_keys where owner_key = ? and idem_key = ? and created_at < ?", owner, key,
                timestamp(expiredBefore));
        jdbc.update("insert into idempotency_keys (owner_key, idem_key, body_sha256, experiment_id, created_at)"
                + " values (?, ?, ?, ?, ?)", owner, key, bodySha256, experimentId, timestamp(now));
    }

    /** Deletes every key created before {@code before}; returns how many. */
    public int purge(Instant before) {
        return jdbc.update("delete from idempotency_keys where created_at < ?", timestamp(before));
    }

    private static OffsetDateTime timestamp(Instant instant) {
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }
}
