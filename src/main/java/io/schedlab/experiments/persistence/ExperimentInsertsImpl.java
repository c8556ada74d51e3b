package io.schedlab.experiments.persistence;

import io.schedlab.experiments.ExperimentStatus;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Locale;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@link ExperimentInserts} as one JDBC INSERT. The JPA path (persist, then a flush of the whole
 * entity with its dirty-checking snapshot and version) was ~28% of the CPU of a submission in a JFR
 * profile of wrk POSTs on H2. JdbcTemplate takes the connection of the surrounding Spring
 * transaction, so the row and its db-scheduler job still commit or roll back together.
 */
class ExperimentInsertsImpl implements ExperimentInserts {

    private final JdbcTemplate jdbc;
    private volatile String insertSql;

    ExperimentInsertsImpl(DataSource dataSource) {
        this.jdbc = new JdbcTemplate(dataSource);
    }

    @Override
    public void insertQueued(NewExperiment e) {
        jdbc.update(insertSql(), ps -> {
            ps.setObject(1, e.id());
            ps.setString(2, e.name());
            ps.setString(3, e.labelsJson());
            ps.setString(4, e.policy());
            ps.setString(5, ExperimentStatus.QUEUED.name());
            ps.setObject(6, OffsetDateTime.ofInstant(e.createdAt(), ZoneOffset.UTC));
            ps.setString(7, e.inputRaw());
            ps.setString(8, e.inputNormalized());
            ps.setString(9, e.engineVersion());
        });
    }

    private String insertSql() {
        String sql = insertSql;
        if (sql == null) {
            sql = "insert into experiments (id, name, labels, policy, status, created_at, input_raw, input_normalized,"
                    + " engine_version, progress, simulated_nanos, cancel_requested, version)"
                    + " values (?, ?, ?, ?, ?, ?, ?, " + jsonParameter() + ", ?, 0, 0, false, 0)";
            insertSql = sql;
        }
        return sql;
    }

    /**
     * How a JSON text parameter is written for this database: PostgreSQL casts it to jsonb; H2 needs
     * FORMAT JSON, or it would store the text as a JSON string value instead of parsing it.
     */
    private String jsonParameter() {
        String product = jdbc.execute((Connection c) -> productName(c));
        return product != null && product.toLowerCase(Locale.ROOT).contains("postgres") ? "cast(? as jsonb)"
                : "? FORMAT JSON";
    }

    private static String productName(Connection c) throws SQLException {
        return c.getMetaData().getDatabaseProductName();
    }
}
