package io.schedlab.sweeps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.schedlab.jobs.support.FreshPostgresDatabase;
import io.schedlab.jobs.support.JobsApp;
import io.schedlab.engine.sweepgrid.SweepTable;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;
import org.apache.commons.math3.stat.descriptive.SummaryStatistics;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A sweep on the real PostgreSQL (a fresh database per run) through the real job queue and engine:
 * its children run on the lock-and-fetch pool, each child's final state and the removal of its job
 * commit together (never a finished child with a job row, never a job row gone before its result),
 * and the stored table agrees with the children's jsonb results.
 */
class SweepPostgresTest {

    private static FreshPostgresDatabase database;
    private static ConfigurableApplicationContext app;

    @BeforeAll
    static void start() {
        database = FreshPostgresDatabase.create();
        String[] db = database.springProperties();
        app = JobsApp.startReal(db[0], db[1], db[2], "schedlab.jobs.workers=2",
                "schedlab.data-dir=target/test-data/sweeps-pg");
    }

    @AfterAll
    static void stop() {
        FreshPostgresDatabase.closeAfter(app, database);
    }

    @Test
    void aSweepRunsOnPostgresAndEveryFinalStateCommitsWithItsJobsRemoval() throws Exception {
        SweepService sweeps = app.getBean(SweepService.class);
        JdbcTemplate jdbc = new JdbcTemplate(app.getBean(DataSource.class));
        String body = "{\"name\": \"pg sweep\", \"seed\": 5, \"repetitions\": 6, \"base\": " + SweepApiTest.BASE + ","
                + " \"axes\": [{\"name\": \"policy\", \"pointer\": \"/scheduler/policy\", \"values\": [\"credit\","
                + " \"credit2\"]}], \"metrics\": " + SweepApiTest.METRICS + ", \"baseline\": {\"policy\": \"credit\"}}";
        Sweep submitted = sweeps.submit(body.getBytes(StandardCharsets.UTF_8));
        assertThat(submitted.total()).isEqualTo(12);

        // one snapshot per query: a finished child with its job still there, or a RUNNING child without
        // one, would show a final write split over two commits
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        Sweep sweep = sweeps.get(submitted.id());
        int polls = 0;
        while (!sweep.status().finished() && System.nanoTime() < deadline) {
            assertThat(jdbc.queryForObject("select count(*) from sweep_experiments se join experiments e on e.id ="
                    + " se.experiment_id left join scheduled_tasks t on t.task_instance = cast(e.id as text)"
                    + " where se.sweep_id = ? and ((e.status in ('SUCCEEDED', 'FAILED', 'CANCELLED') and"
                    + " t.task_instance is not null) or (e.status in ('QUEUED', 'RUNNING') and t.task_instance"
                    + " is null))", Long.class, submitted.id())).as("children whose state and job disagree").isZero();
            polls++;
            sweep = sweeps.get(submitted.id());
        }
        assertThat(sweep.status()).as(sweep.toString()).isEqualTo(SweepStatus.SUCCEEDED);
        assertThat(polls).as("the invariant was checked while children ran").isPositive();
        assertThat(jdbc.queryForObject("select count(*) from scheduled_tasks", Long.class)).isZero();
        assertThat(jdbc.queryForObject("select count(*) from sweep_experiments se join experiments e on e.id ="
                + " se.experiment_id where se.sweep_id = ? and e.status = 'SUCCEEDED' and e.run_by is not null"
                + " and e.started_at is not null", Long.class, submitted.id())).isEqualTo(12L);

        SweepTable table = sweep.table();
        assertThat(table.complete()).isTrue();
        for (SweepTable.Row row : table.rows()) {
            List<Double> values = jdbc.queryForList("select cast(e.result #>> cast(? as text[]) as double precision) from"
                    + " sweep_experiments se join experiments e on e.id = se.experiment_id where se.sweep_id = ?"
                    + " and se.cell_index = ?", Double.class, pgPath(row.pointer()), submitted.id(), row.cell());
            SummaryStatistics s = new SummaryStatistics();
            values.forEach(s::addValue);
            assertThat(row.n()).isEqualTo(6);
            assertThat(row.mean()).isCloseTo(s.getMean(), within(1e-9));
            assertThat(row.sd()).isCloseTo(s.getStandardDeviation(), within(1e-9));
        }
        assertThat(jdbc.queryForObject("select table_json is not null and finished_at is not null from sweeps"
                + " where id = ?", Boolean.class, submitted.id())).isTrue();
        assertThat(sweeps.get(submitted.id()).table()).isEqualTo(table);
    }

    /** A JSON pointer as a PostgreSQL text-array path for {@code #>>}: /summary/events -> {summary,events}. */
    private static String pgPath(String pointer) {
        return "{" + String.join(",", pointer.substring(1).split("/")) + "}";
    }
}
