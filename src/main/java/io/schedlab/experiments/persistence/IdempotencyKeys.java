package io.schedlab.experiments.persistence;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * The {@code idempotency_keys} table (V14, V15): what an (owner, Idempotency-Key) pair created,
 * with the operation and the fingerprint of the body that created it. Statements take the
 * caller's transaction (JdbcTemplate over the transaction-bound connection), so a key is stored
 * with its submission or not at all.
 */
@Repository
public class IdempotencyKeys {

    /** Most ids one key may name (a scenario run's sweeps; the column holds 108). */
    public static final int MAX_RESOURCES = 100;

    /** A stored key: the operation and body fingerprint it was used with, and the ids it created, in order. */
    public record Entry(String operation, String bodySha256, List<UUID> resourceIds) {
    }

    private final JdbcTemplate jdbc;

    public IdempotencyKeys(DataSource dataSource) {
        this.jdbc = new JdbcTemplate(dataSource);
    }

    /** The entry of a key created at or after {@code notBefore} (older ones have expired). */
    public Optional<Entry> find(String owner, String key, Instant notBefore) {
        List<Entry> rows = jdbc.query("select operation, body_sha256, resource_ids from idempotency_keys"
                + " where owner_key = ? and idem_key = ? and created_at >= ?",
                (rs, n) -> new Entry(rs.getString(1), rs.getString(2), ids(rs.getString(3))), owner, key,
                timestamp(notBefore));
        return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
    }

    /** Stores a key; a live duplicate fails with a DuplicateKeyException. An expired row of the same key goes first. */
    public void insert(String owner, String key, Entry entry, Instant now, Instant expiredBefore) {
        if (entry.resourceIds().size() > MAX_RESOURCES) {
            throw new IllegalArgumentException("an idempotency key names at most " + MAX_RESOURCES + " resources, not "
                    + entry.resourceIds().size());
        }
        jdbc.update("delete from idempotency_keys where owner_key = ? and idem_key = ? and created_at < ?", owner, key,
                timestamp(expiredBefore));
        jdbc.update("insert into idempotency_keys (owner_key, idem_key, operation, body_sha256, resource_ids,"
                + " created_at) values (?, ?, ?, ?, ?, ?)", owner, key, entry.operation(), entry.bodySha256(),
                entry.resourceIds().stream().map(UUID::toString).collect(Collectors.joining(" ")), timestamp(now));
    }

    /** Deletes every key created before {@code before}; returns how many. */
    public int purge(Instant before) {
        return jdbc.update("delete from idempotency_keys where created_at < ?", timestamp(before));
    }

    private static List<UUID> ids(String column) {
        return column.isBlank() ? List.of() : Arrays.stream(column.trim().split(" +")).map(UUID::fromString).toList();
    }

    private static OffsetDateTime timestamp(Instant instant) {
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }
}
