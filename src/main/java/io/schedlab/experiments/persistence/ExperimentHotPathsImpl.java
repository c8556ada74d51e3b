package io.schedlab.experiments.persistence;

import io.schedlab.experiments.status.ExperimentStatus;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@link ExperimentHotPaths} as JDBC statements. Through JPA, a submission's insert (persist, then a
 * flush with dirty-checking snapshot and version) was ~28% of its CPU, and a job's JPQL updates
 * (re-translated on every call: an {@code in :from} list parameter keeps Hibernate from caching the
 * plan) took more of a worker's CPU than simulating a small experiment, in JFR profiles of wrk
 * POSTs on H2. JdbcTemplate takes the connection of the surrounding Spring transaction (JDBC or
 * JPA), so these statements commit or roll back with the caller's work.
 */
class ExperimentHotPathsImpl implements ExperimentHotPaths {

    private final JdbcTemplate jdbc;
    /** The statements with a JSON parameter, written once for this database (see {@link #jsonSql}). */
    private volatile JsonSql jsonSql;

    ExperimentHotPathsImpl(DataSource dataSource) {
        this.jdbc = new JdbcTemplate(dataSource);
    }

    @Override
    public void insertQueued(NewExperiment e) {
        jdbc.update(jsonSql().insertQueued(), ps -> bindQueued(ps, e));
    }

    @Override
    public void insertQueuedAll(List<NewExperiment> experiments) {
        if (experiments.size() == 1) {
            insertQueued(experiments.get(0));
        } else if (!experiments.isEmpty()) {
            // one statement sent with all the rows (JDBC batch): a sweep's 500 children in one round trip
            jdbc.batchUpdate(jsonSql().insertQueued(), experiments, experiments.size(), ExperimentHotPathsImpl::bindQueued);
        }
    }

    private static void bindQueued(PreparedStatement ps, NewExperiment e) throws SQLException {
        ps.setObject(1, e.id());
        ps.setString(2, e.name());
        ps.setString(3, e.labelsJson());
        ps.setString(4, e.policy());
        ps.setString(5, ExperimentStatus.QUEUED.name());
        ps.setObject(6, timestamp(e.createdAt()));
        ps.setString(7, e.inputRaw());
        ps.setString(8, e.inputNormalized());
        ps.setString(9, e.engineVersion());
        ps.setString(10, e.owner());
    }

    @Override
    public Optional<String> findInputNormalized(UUID id) {
        return one(jdbc.query("select input_normalized from experiments where id = ?", (rs, n) -> rs.getString(1), id));
    }

    @Override
    public Optional<String> findResult(UUID id) {
        return one(jdbc.query("select result from experiments where id = ?", (rs, n) -> rs.getString(1), id));
    }

    @Override
    public Optional<Boolean> findCancelRequested(UUID id) {
        return one(jdbc.query("select cancel_requested from experiments where id = ?", (rs, n) -> rs.getBoolean(1),
                id));
    }

    @Override
    public int start(UUID id, Collection<ExperimentStatus> from, ExperimentStatus to, Instant now, String runner) {
        List<Object> first = runner == null ? List.of(to.name(), timestamp(now), id)
                : List.of(to.name(), timestamp(now), runner, id);
        return jdbc.update("update experiments set status = ?, started_at = ?," + (runner == null ? "" : " run_by = ?,")
                + " progress = 0, simulated_nanos = 0, version = version + 1 where id = ? and status in ("
                + placeholders(from) + ") and cancel_requested = false", args(first, from));
    }

    @Override
    public void commitWithoutFlushWait() {
        if (jsonSql().postgres()) {
            jdbc.execute("set local synchronous_commit to off");
        }
    }

    @Override
    public int progress(UUID id, ExperimentStatus status, double progress, long simulatedNanos) {
        return jdbc.update("update experiments set progress = ?, simulated_nanos = ?, version = version + 1"
                + " where id = ? and status = ?", progress, simulatedNanos, id, status.name());
    }

    @Override
    public int finish(UUID id, Collection<ExperimentStatus> from, ExperimentStatus to, String reason, Instant now) {
        return jdbc.update("update experiments set status = ?, finished_at = ?, failure_reason = ?,"
                + " version = version + 1 where id = ? and status in (" + placeholders(from) + ")",
                args(java.util.Arrays.asList(to.name(), timestamp(now), reason, id), from));
    }

    @Override
    public int finishCancelRequested(UUID id, Collection<ExperimentStatus> from, ExperimentStatus to, Instant now) {
        return jdbc.update("update experiments set status = ?, finished_at = ?, version = version + 1"
                + " where id = ? and status in (" + placeholders(from) + ") and cancel_requested = true",
                args(List.of(to.name(), timestamp(now), id), from));
    }

    @Override
    public int requestCancel(UUID id, ExperimentStatus status) {
        return jdbc.update("update experiments set cancel_requested = true, version = version + 1"
                + " where id = ? and status = ?", id, status.name());
    }

    @Override
    public int succeed(UUID id, ExperimentStatus from, ExperimentStatus to, Instant now, long simulatedNanos,
            String result, double wallSeconds, long events, long contextSwitches, long migrations,
            Double jainFairness, String engineVersion) {
        return jdbc.update(jsonSql().succeed(), to.name(), timestamp(now), simulatedNanos, result, wallSeconds,
                events, contextSwitches, migrations, jainFairness, engineVersion, id, from.name());
    }

    @Override
    public int finishWithResult(UUID id, Collection<ExperimentStatus> from, ExperimentStatus to, String reason,
            Instant now, long simulatedNanos, String result, double wallSeconds, long events, long contextSwitches,
            long migrations, Double jainFairness) {
        return jdbc.update(jsonSql().finishWithResult() + " where id = ? and status in (" + placeholders(from) + ")",
                args(java.util.Arrays.asList(to.name(), timestamp(now), reason, simulatedNanos, result, wallSeconds,
                        events, contextSwitches, migrations, jainFairness, id), from));
    }

    @Override
    public Optional<String> findOwner(UUID id) {
        return one(jdbc.query("select owner from experiments where id = ?", (rs, n) -> rs.getString(1), id));
    }

    @Override
    public boolean lockQuotaOwner(String owner) {
        return !jdbc.query("select owner from quota_owners where owner = ? for update", (rs, n) -> rs.getString(1),
                owner).isEmpty();
    }

    @Override
    public void insertQuotaOwner(String owner) {
        jdbc.update("insert into quota_owners (owner) values (?)", owner);
    }

    @Override
    public long countRunning(String owner, UUID except) {
        Long n = jdbc.queryForObject("select count(*) from experiments where owner = ? and status = ? and id <> ?",
                Long.class, owner, ExperimentStatus.RUNNING.name(), except);
        return n == null ? 0 : n;
    }

    @Override
    public List<UUID> oldestQueued(String owner, int limit) {
        return jdbc.query("select id from experiments where owner = ? and status = ? order by created_at, id"
                + " fetch first " + Math.max(1, limit) + " rows only", (rs, n) -> rs.getObject(1, UUID.class), owner,
                ExperimentStatus.QUEUED.name());
    }

    @Override
    public int delete(UUID id) {
        return jdbc.update("delete from experiments where id = ?", id);
    }

    private static OffsetDateTime timestamp(Instant instant) {
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    private static String placeholders(Collection<ExperimentStatus> statuses) {
        if (statuses.isEmpty()) {
            throw new IllegalArgumentException("at least one status to change from");
        }
        return statuses.stream().map(s -> "?").collect(Collectors.joining(", "));
    }

    private static Object[] args(List<Object> first, Collection<ExperimentStatus> statuses) {
        return java.util.stream.Stream.concat(first.stream(), statuses.stream().map(ExperimentStatus::name)).toArray();
    }

    private static <T> Optional<T> one(List<T> rows) {
        return rows.isEmpty() ? Optional.empty() : Optional.ofNullable(rows.get(0));
    }

    /** Whether this is PostgreSQL, and the statements binding a JSON document: INSERT of a queued experiment, UPDATE to SUCCEEDED and to a final status with a partial result. */
    private record JsonSql(boolean postgres, String insertQueued, String succeed, String finishWithResult) {

        /** {@code json}: how this database takes a JSON text parameter. */
        static JsonSql with(boolean postgres, String json) {
            return new JsonSql(postgres, "insert into experiments (id, name, labels, policy, status, created_at, input_raw,"
                    + " input_normalized, engine_version, owner, progress, simulated_nanos, cancel_requested, version)"
                    + " values (?, ?, ?, ?, ?, ?, ?, " + json + ", ?, ?, 0, 0, false, 0)",
                    "update experiments set status = ?, finished_at = ?, progress = 1, simulated_nanos = ?,"
                    + " result = " + json + ", wall_seconds = ?, events = ?, context_switches = ?,"
                    + " migrations = ?, jain_fairness = ?, engine_version = ?, version = version + 1"
                    + " where id = ? and status = ?",
                    "update experiments set status = ?, finished_at = ?, failure_reason = ?, simulated_nanos = ?,"
                    + " result = " + json + ", wall_seconds = ?, events = ?, context_switches = ?,"
                    + " migrations = ?, jain_fairness = ?, version = version + 1");
        }
    }

    /**
     * The JSON statements for this database, built on first use (it needs a connection): PostgreSQL
     * casts the parameter to jsonb; H2 keeps JSON documents as text (migration h2/V5), so the
     * parameter is bound as it is.
     */
    private JsonSql jsonSql() {
        JsonSql sql = jsonSql;
        if (sql == null) {
            String product = jdbc.execute((Connection c) -> productName(c));
            boolean postgres = product != null && product.toLowerCase(Locale.ROOT).contains("postgres");
            sql = JsonSql.with(postgres, postgres ? "cast(? as jsonb)" : "?");
            jsonSql = sql;
        }
        return sql;
    }

    private static String productName(Connection c) throws SQLException {
        return c.getMetaData().getDatabaseProductName();
    }
}
