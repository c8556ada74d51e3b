package io.schedlab.traceimport;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * The {@code trace_references} table (V22): the recorded samples of an imported experiment as JSON.
 * Statements take the caller's transaction, so a reference is stored with its experiment or not at all.
 */
@Repository
class TraceReferences {

    private final JdbcTemplate jdbc;

    TraceReferences(DataSource dataSource) {
        this.jdbc = new JdbcTemplate(dataSource);
    }

    void insert(UUID experimentId, String format, String json) {
        jdbc.update("insert into trace_references (experiment_id, source_format, reference) values (?, ?, ?)",
                experimentId, format, json);
    }

    /** The reference JSON of an experiment, when it was imported from a recorded trace. */
    Optional<String> find(UUID experimentId) {
        List<String> rows = jdbc.query("select reference from trace_references where experiment_id = ?",
                (rs, n) -> rs.getString(1), experimentId);
        return rows.stream().findFirst();
    }
}
