package io.schedlab.sweeps.persistence;

import io.schedlab.experiments.status.ExperimentStatus;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * The sweeps and sweep_experiments tables (Flyway V10). Writes join the caller's transaction, so a
 * sweep, its children and their jobs are stored together or not at all.
 */
@Repository
public class SweepStore {

    private static final String COLUMNS = "id, name, definition, layout, total, created_at, cancel_requested,"
            + " finished_at, table_json, owner";
    private final JdbcTemplate jdbc;

    public SweepStore(DataSource dataSource) {
        this.jdbc = new JdbcTemplate(dataSource);
    }

    /** Inserts the sweep row (in the caller's transaction). */
    public void insert(SweepRow s) {
        jdbc.update("insert into sweeps (" + COLUMNS + ") values (?, ?, ?, ?, ?, ?, false, null, null, ?)",
                s.id(), s.name(), s.definition(), s.layoutJson(), s.total(), timestamp(s.createdAt()), s.owner());
    }

    /** Links child experiments to their sweep (in the caller's transaction). */
    public void link(UUID sweepId, List<NewSweepChild> children) {
        jdbc.batchUpdate("insert into sweep_experiments (experiment_id, sweep_id, cell_index, repetition)"
                + " values (?, ?, ?, ?)", children, 500, (ps, c) -> {
                    ps.setObject(1, c.experimentId());
                    ps.setObject(2, sweepId);
                    ps.setInt(3, c.cellIndex());
                    ps.setInt(4, c.repetition());
                });
    }

    public Optional<SweepRow> find(UUID id) {
        return jdbc.query("select " + COLUMNS + " from sweeps where id = ?", SweepStore::row, id).stream().findFirst();
    }

    /**
     * Newest first, without the large columns (definition, cells, table are null); only {@code owner}'s
     * sweeps unless it is null.
     */
    public List<SweepRow> page(String owner, int page, int size) {
        String columns = "select id, name, null, null, total, created_at, cancel_requested, finished_at, null, owner"
                + " from sweeps";
        String order = " order by created_at desc, id desc offset ? rows fetch next ? rows only";
        if (owner == null) {
            return jdbc.query(columns + order, SweepStore::row, (long) page * size, size);
        }
        return jdbc.query(columns + " where owner = ?" + order, SweepStore::row, owner, (long) page * size, size);
    }

    /** How many sweeps there are; only {@code owner}'s unless it is null. */
    public long count(String owner) {
        Long n = owner == null ? jdbc.queryForObject("select count(*) from sweeps", Long.class)
                : jdbc.queryForObject("select count(*) from sweeps where owner = ?", Long.class, owner);
        return n == null ? 0 : n;
    }

    /** How many children are in each status. */
    public Map<ExperimentStatus, Long> statusCounts(UUID sweepId) {
        Map<ExperimentStatus, Long> counts = new EnumMap<>(ExperimentStatus.class);
        jdbc.query("select e.status, count(*) from sweep_experiments se join experiments e on e.id = se.experiment_id"
                + " where se.sweep_id = ? group by e.status",
                rs -> {
                    counts.put(ExperimentStatus.valueOf(rs.getString(1)), rs.getLong(2));
                }, sweepId);
        return counts;
    }

    /** Children still QUEUED or RUNNING. */
    public List<UUID> activeChildren(UUID sweepId) {
        return jdbc.query("select se.experiment_id from sweep_experiments se join experiments e on e.id = se.experiment_id"
                + " where se.sweep_id = ? and e.status in ('QUEUED', 'RUNNING')",
                (rs, n) -> rs.getObject(1, UUID.class), sweepId);
    }

    /** Marks the sweep as being cancelled; true when it exists. */
    public boolean requestCancel(UUID sweepId) {
        return jdbc.update("update sweeps set cancel_requested = true where id = ?", sweepId) > 0;
    }

    /** Calls back with each SUCCEEDED child's cell and result document, one row at a time (streamed, not held). */
    public void forEachResult(UUID sweepId, ResultConsumer consumer) {
        jdbc.query("select se.cell_index, se.repetition, e.result from sweep_experiments se"
                + " join experiments e on e.id = se.experiment_id where se.sweep_id = ? and e.status = 'SUCCEEDED'"
                + " order by se.cell_index, se.repetition",
                rs -> {
                    consumer.accept(rs.getInt(1), rs.getInt(2), rs.getString(3));
                }, sweepId);
    }

    /** Stores the final table once, when every child has finished; later calls change nothing. */
    public void finish(UUID sweepId, String tableJson, Instant finishedAt) {
        jdbc.update("update sweeps set table_json = ?, finished_at = ? where id = ? and table_json is null", tableJson,
                timestamp(finishedAt), sweepId);
    }

    /** Receives one child's result. */
    @FunctionalInterface
    public interface ResultConsumer {
        void accept(int cellIndex, int repetition, String resultJson);
    }

    private static SweepRow row(ResultSet rs, int n) throws SQLException {
        return new SweepRow(rs.getObject(1, UUID.class), rs.getString(2), rs.getString(3), rs.getString(4),
                rs.getInt(5), instant(rs.getObject(6, OffsetDateTime.class)), rs.getBoolean(7),
                instant(rs.getObject(8, OffsetDateTime.class)), rs.getString(9), rs.getString(10));
    }

    private static Instant instant(OffsetDateTime t) {
        return t == null ? null : t.toInstant();
    }

    private static OffsetDateTime timestamp(Instant instant) {
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }
}
