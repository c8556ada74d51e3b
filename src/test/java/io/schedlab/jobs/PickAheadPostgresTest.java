package io.schedlab.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.schedlab.jobs.support.FreshPostgresDatabase;
import io.schedlab.jobs.support.InMemoryExperiments;
import io.schedlab.jobs.support.JobsApp;
import io.schedlab.jobs.support.JobsTestConfiguration;
import io.schedlab.jobs.support.Specs;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Pick-ahead on PostgreSQL: a job locked while the only worker is busy waits in this process, keeps a
 * heartbeat of its own for longer than the dead time, is never revived or run twice, and runs here next.
 */
class PickAheadPostgresTest {

    private static final Duration DEAD_AFTER = Duration.ofMillis(800); // 200 ms heartbeat x 4 missed

    private static FreshPostgresDatabase database;
    private static ConfigurableApplicationContext app;

    private final InMemoryExperiments experiments = JobsTestConfiguration.EXPERIMENTS;

    @BeforeAll
    static void start() {
        database = FreshPostgresDatabase.create();
        List<String> properties = new ArrayList<>(List.of(database.springProperties()));
        properties.addAll(List.of("schedlab.jobs.workers=1", "schedlab.jobs.pick-ahead=1",
                "schedlab.jobs.heartbeat-interval=200ms", "schedlab.jobs.missed-heartbeats=4",
                "schedlab.jobs.replica-name=ahead", "schedlab.data-dir=target/test-data/pick-ahead-pg"));
        app = JobsApp.start(properties.toArray(String[]::new));
    }

    @AfterAll
    static void stop() {
        FreshPostgresDatabase.closeAfter(app, database);
    }

    @Test
    void aJobPickedBehindALongRunKeepsItsHeartbeatPastTheDeadTimeAndRunsOnceWhenTheWorkerFrees()
            throws InterruptedException {
        UUID longRun = experiments.create(Specs.spec("long-run", 3.0));
        app.getBean(JobQueue.class).enqueue(longRun);
        awaitStatus(longRun, "RUNNING");
        UUID behind = experiments.create(Specs.spec("behind", 0.01));
        app.getBean(JobQueue.class).enqueue(behind);

        Map<String, Object> picked = awaitPicked(behind);
        assertThat(picked.get("picked_by")).isEqualTo("ahead");
        assertThat(experiments.get(behind).status).as("waits for the busy worker").isEqualTo("QUEUED");
        assertThat(app.getBean(PickedAhead.class).waiting()).isEqualTo(1);

        Thread.sleep(DEAD_AFTER.multipliedBy(2).toMillis()); // twice the dead time, the long run still running
        Map<String, Object> later = row(behind);
        assertThat(experiments.get(longRun).status).isEqualTo("RUNNING");
        assertThat(later).as("still picked by this process, never revived (a revival bumps the version)")
                .containsEntry("picked", true).containsEntry("picked_by", "ahead")
                .containsEntry("version", picked.get("version"));
        assertThat(((Timestamp) later.get("last_heartbeat")).toInstant())
                .isAfter(((Timestamp) picked.get("last_heartbeat")).toInstant().plus(DEAD_AFTER));

        assertThat(experiments.awaitFinished(longRun, Duration.ofSeconds(10)).status).isEqualTo("SUCCEEDED");
        assertThat(experiments.awaitFinished(behind, Duration.ofSeconds(10)).status).isEqualTo("SUCCEEDED");
        assertThat(experiments.get(behind).markRunningCalls).as("ran once").isEqualTo(1);
        assertThat(experiments.get(behind).replica).isEqualTo("ahead");
        assertThat(app.getBean(PickedAhead.class).waiting()).isZero();
        Timer pool = app.getBean(MeterRegistry.class).get("executor").tag("name", JobsConfiguration.WORKER_POOL).timer();
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (pool.count() < 2 && System.nanoTime() < deadline) {
            Thread.sleep(10); // the pool's task ends just after the final write the experiment shows
        }
        assertThat(pool.count()).as("both jobs ran through the monitored worker pool").isGreaterThanOrEqualTo(2);
        assertThat(pool.totalTime(TimeUnit.SECONDS)).as("the pool's busy time includes the long run")
                .isGreaterThanOrEqualTo(3.0);
    }

    private Map<String, Object> row(UUID id) {
        return jdbc().queryForMap("select picked, picked_by, version, last_heartbeat from scheduled_tasks"
                + " where task_instance = ?", id.toString());
    }

    private Map<String, Object> awaitPicked(UUID id) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (System.nanoTime() < deadline) {
            List<Map<String, Object>> rows = jdbc().queryForList("select picked, picked_by, version, last_heartbeat"
                    + " from scheduled_tasks where task_instance = ? and picked", id.toString());
            if (!rows.isEmpty()) {
                return rows.get(0);
            }
            Thread.sleep(10);
        }
        throw new AssertionError("job " + id + " was not picked ahead within 5 s");
    }

    private void awaitStatus(UUID id, String status) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!experiments.get(id).status.equals(status)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("experiment " + id + " never reached " + status);
            }
            Thread.sleep(10);
        }
    }

    private static JdbcTemplate jdbc() {
        return new JdbcTemplate(app.getBean(DataSource.class));
    }
}
