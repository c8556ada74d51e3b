package io.schedlab.webhooks;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/** The webhook_deliveries and webhook_attempts tables (Flyway V21); writes join the caller's transaction. */
@Repository
public class DeliveryStore {

    private static final String COLUMNS = "id, subject_kind, subject_id, owner, url, state, event, created_at,"
            + " finished_at";
    private final JdbcTemplate jdbc;

    public DeliveryStore(DataSource dataSource) {
        this.jdbc = new JdbcTemplate(dataSource);
    }

    void insertWaiting(UUID id, String kind, UUID subject, String owner, String url, Instant now) {
        jdbc.update("insert into webhook_deliveries (" + COLUMNS + ") values (?, ?, ?, ?, ?, ?, null, ?, null)", id,
                kind, subject, owner, url, DeliveryState.WAITING.name(), timestamp(now));
    }

    /** The deliveries of an experiment or sweep, oldest first. */
    public List<Delivery> forSubject(UUID subject) {
        return jdbc.query("select " + COLUMNS + " from webhook_deliveries where subject_id = ? order by created_at, id",
                DeliveryStore::delivery, subject);
    }

    Delivery find(UUID id) {
        return jdbc.query("select " + COLUMNS + " from webhook_deliveries where id = ?", DeliveryStore::delivery, id)
                .stream().findFirst().orElse(null);
    }

    /** A delivery's attempts, first first. */
    public List<Attempt> attempts(UUID deliveryId) {
        return jdbc.query("select attempt, started_at, duration_ms, status_code, outcome, error from webhook_attempts"
                + " where delivery_id = ? order by attempt", (rs, n) -> new Attempt(rs.getInt(1),
                        instant(rs.getObject(2, OffsetDateTime.class)), rs.getLong(3), (Integer) rs.getObject(4),
                        AttemptOutcome.valueOf(rs.getString(5)), rs.getString(6)), deliveryId);
    }

    /** Up to {@code limit} WAITING deliveries of experiments now SUCCEEDED, FAILED or CANCELLED, with that status. */
    List<Finished> finishedExperiments(int limit) {
        return jdbc.query("select d.id, d.subject_id, e.status, e.finished_at from webhook_deliveries d"
                + " join experiments e on e.id = d.subject_id where d.state = 'WAITING' and d.subject_kind = 'experiment'"
                + " and e.status in ('SUCCEEDED', 'FAILED', 'CANCELLED') order by d.created_at"
                + " fetch first ? rows only", (rs, n) -> new Finished(rs.getObject(1, UUID.class),
                        rs.getObject(2, UUID.class), rs.getString(3), instant(rs.getObject(4, OffsetDateTime.class))),
                limit);
    }

    /** Up to {@code limit} WAITING deliveries of sweeps none of whose children is QUEUED or RUNNING any more. */
    List<Finished> finishedSweeps(int limit) {
        return jdbc.query("select d.id, d.subject_id from webhook_deliveries d where d.state = 'WAITING'"
                + " and d.subject_kind = 'sweep' and not exists (select 1 from sweep_experiments se"
                + " join experiments e on e.id = se.experiment_id where se.sweep_id = d.subject_id"
                + " and e.status in ('QUEUED', 'RUNNING')) order by d.created_at fetch first ? rows only",
                (rs, n) -> new Finished(rs.getObject(1, UUID.class), rs.getObject(2, UUID.class), null, null), limit);
    }

    /** WAITING deliveries of experiments deleted before they finished become DROPPED; returns how many. */
    int dropDeleted() {
        return jdbc.update("update webhook_deliveries set state = 'DROPPED' where state = 'WAITING'"
                + " and subject_kind = 'experiment' and not exists (select 1 from experiments e"
                + " where e.id = webhook_deliveries.subject_id)");
    }

    /** WAITING -> SENDING with the event to post; false when another process did it first. */
    boolean startSending(UUID id, String event) {
        return jdbc.update("update webhook_deliveries set state = 'SENDING', event = ? where id = ? and state = 'WAITING'",
                event, id) > 0;
    }

    /** SENDING -> DELIVERED or GAVE_UP. */
    void finish(UUID id, DeliveryState state, Instant at) {
        jdbc.update("update webhook_deliveries set state = ?, finished_at = ? where id = ? and state = 'SENDING'",
                state.name(), timestamp(at), id);
    }

    /** Appends an attempt (numbered after the last one recorded) and returns its number. */
    int addAttempt(UUID deliveryId, Instant startedAt, long durationMs, Integer statusCode, AttemptOutcome outcome,
            String error) {
        Integer last = jdbc.queryForObject("select max(attempt) from webhook_attempts where delivery_id = ?",
                Integer.class, deliveryId);
        int attempt = last == null ? 1 : last + 1;
        jdbc.update("insert into webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code, outcome,"
                + " error) values (?, ?, ?, ?, ?, ?, ?)", deliveryId, attempt, timestamp(startedAt), durationMs,
                statusCode, outcome.name(), error);
        return attempt;
    }

    /** A WAITING delivery whose subject has finished: the experiment's status and end (null for a sweep). */
    record Finished(UUID deliveryId, UUID subjectId, String status, Instant finishedAt) {
    }

    private static Delivery delivery(ResultSet rs, int n) throws SQLException {
        return new Delivery(rs.getObject(1, UUID.class), rs.getString(2), rs.getObject(3, UUID.class), rs.getString(4),
                rs.getString(5), DeliveryState.valueOf(rs.getString(6)), rs.getString(7),
                instant(rs.getObject(8, OffsetDateTime.class)), instant(rs.getObject(9, OffsetDateTime.class)));
    }

    private static Instant instant(OffsetDateTime t) {
        return t == null ? null : t.toInstant();
    }

    private static OffsetDateTime timestamp(Instant instant) {
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }
}
