package io.schedlab.experiments.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/** h2/V5 turns the JSON columns into text on a database that already holds experiments, keeping each document. */
class H2JsonAsTextMigrationTest {

    private static Flyway flyway(JdbcDataSource dataSource, String target) {
        return Flyway.configure().dataSource(dataSource)
                .locations("classpath:db/migration/common", "classpath:db/migration/h2").target(target).load();
    }

    @Test
    void documentsStoredAsH2JsonReadBackAsTheSameTextAfterTheMigration() {
        JdbcDataSource dataSource = new JdbcDataSource();
        dataSource.setURL("jdbc:h2:mem:json-as-text-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        flyway(dataSource, "4").migrate();
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        UUID id = UUID.randomUUID();
        String input = "{\"name\":\"café \\\"q\\\"\",\"seed\":7,\"nested\":{\"a\":[1,2.5,true,null]}}";
        String result = "{\"summary\":{\"events\":123456789012,\"jainFairness\":0.999},\"vms\":[]}";
        jdbc.update("insert into experiments (id, name, labels, policy, status, created_at, input_raw, input_normalized,"
                + " result, engine_version) values (?, 'old', '{}', 'credit', 'SUCCEEDED', current_timestamp, '{}',"
                + " ? FORMAT JSON, ? FORMAT JSON, '0.1.0')", id, input, result);

        assertThat(flyway(dataSource, "5").migrate().migrationsExecuted).isEqualTo(1);

        Map<String, Object> types = jdbc.queryForMap("select"
                + " max(case when column_name = 'INPUT_NORMALIZED' then data_type end) as input_type,"
                + " max(case when column_name = 'RESULT' then data_type end) as result_type"
                + " from information_schema.columns where table_name = 'EXPERIMENTS'");
        assertThat(types).containsEntry("INPUT_TYPE", "CHARACTER VARYING").containsEntry("RESULT_TYPE",
                "CHARACTER VARYING");
        Map<String, Object> row = jdbc.queryForMap("select input_normalized, result from experiments where id = ?", id);
        assertThat(row.get("INPUT_NORMALIZED")).isEqualTo(input);
        assertThat(row.get("RESULT")).isEqualTo(result);
    }
}
