package io.schedlab.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.schedlab.jobs.support.FreshPostgresDatabase;
import io.schedlab.jobs.support.InMemoryExperiments;
import io.schedlab.jobs.support.JobsApp;
import io.schedlab.jobs.support.JobsTestConfiguration;
import io.schedlab.jobs.support.Specs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Pick-ahead on PostgreSQL: a job locked while its replica's only worker is busy goes back to the queue
 * after a heartbeat interval (never left to be revived as dead while held), is not run by the replica that
 * handed it back, and is taken by an idle replica at once.
 */
class PickAheadPostgresTest {

    private static final Duration LONG_RUN = Duration.ofSeconds(6);
    /** heartbeat-interval: the longest a picked job waits before it goes back (checked every half interval). */
    private static final Duration MAX_WAIT = Duration.ofMillis(200);
    /** Dead after 20 missed heartbeats (4 s): a hand-back is told from db-scheduler reviving the job as dead. */
    private static final int MISSED_HEARTBEATS = 20;

    private final InMemoryExperiments experiments = JobsTestConfiguration.EXPERIMENTS;
    private final List<ConfigurableApplicationContext> apps = new ArrayList<>();
    private FreshPostgresDatabase database;

    @BeforeEach
    void createDatabase() {
        database = FreshPostgresDatabase.create();
    }

    @AfterEach
    void stop() {
        for (int i = apps.size() - 1; i >= 0; i--) {
            apps.get(i).close();
        }
        database.close();
    }

    @Test
    void aJobPickedBehindALongRunGoesBackToTheQueueAndRunsOnceWhenTheWorkerFrees() throws InterruptedException {
        ConfigurableApplicationContext app = start("ahead");
        UUID longRun = experiments.create(Specs.spec("long-run", LONG_RUN.toSeconds()));
        app.getBean(JobQueue.class).enqueue(longRun);
        await("the long run starts", () -> experiments.get(longRun).status.equals("RUNNING"));
        UUID behind = experiments.create(Specs.spec("behind", 0.01));
        app.getBean(JobQueue.class).enqueue(behind);

        Map<String, Object> picked = await("the job is picked ahead", () -> row(behind).get("picked").equals(true))
                ? row(behind) : Map.of();
        long pickedAt = System.nanoTime();
        assertThat(picked.get("picked_by")).isEqualTo("ahead");
        await("handed back", () -> row(behind).get("picked").equals(false));
        assertThat(Duration.ofNanos(System.nanoTime() - pickedAt)).as("handed back, long before the 4 s dead time")
                .isLessThan(Duration.ofMillis(1_500));
        assertThat((long) row(behind).get("version")).as("un-picked with a new version")
                .isGreaterThan((long) picked.get("version"));
        assertThat(experiments.get(longRun).status).isEqualTo("RUNNING");
        assertThat(experiments.get(behind).status).isEqualTo("QUEUED");

        assertThat(experiments.awaitFinished(longRun, Duration.ofSeconds(15)).status).isEqualTo("SUCCEEDED");
        assertThat(experiments.awaitFinished(behind, Duration.ofSeconds(15)).status).isEqualTo("SUCCEEDED");
        assertThat(experiments.get(behind).markRunningCalls).as("ran once").isEqualTo(1);
        assertThat(app.getBean(PickedAhead.class).waiting()).isZero();
        Timer pool = app.getBean(MeterRegistry.class).get("executor").tag("name", JobsConfiguration.WORKER_POOL).timer();
        await("the pool's tasks ended", () -> pool.count() >= 2);
        assertThat(pool.totalTime(TimeUnit.SECONDS)).as("the pool's busy time includes the long run")
                .isGreaterThanOrEqualTo(LONG_RUN.toSeconds() * 0.9);
    }

    @Test
    void aJobHandedBackByABusyReplicaRunsOnAnIdleOneWhileTheLongRunGoesOn() throws InterruptedException {
        ConfigurableApplicationContext busy = start("busy");
        UUID longRun = experiments.create(Specs.spec("long-run-2", LONG_RUN.toSeconds()));
        UUID behind = experiments.create(Specs.spec("behind-2", 0.01));
        busy.getBean(JobQueue.class).enqueueAll(List.of(longRun, behind));
        await("the long run starts and the other job is picked ahead by the same replica",
                () -> experiments.get(longRun).status.equals("RUNNING") && "busy".equals(row(behind).get("picked_by")));

        long idleStarted = System.nanoTime();
        start("idle");
        assertThat(experiments.awaitFinished(behind, Duration.ofSeconds(10)).status).isEqualTo("SUCCEEDED");
        assertThat(Duration.ofNanos(experiments.get(behind).runningAtNanos - idleStarted))
                .as("taken over at once, not after the 4 s dead time").isLessThan(Duration.ofMillis(2_500));
        assertThat(experiments.get(behind).replica).isEqualTo("idle");
        assertThat(experiments.get(longRun).status).as("handed over while the long run goes on").isEqualTo("RUNNING");
        assertThat(experiments.awaitFinished(longRun, Duration.ofSeconds(15)).status).isEqualTo("SUCCEEDED");
        assertThat(experiments.get(behind).markRunningCalls).as("ran once").isEqualTo(1);
    }

    private ConfigurableApplicationContext start(String name) {
        List<String> properties = new ArrayList<>(List.of(database.springProperties()));
        properties.addAll(List.of("schedlab.jobs.workers=1", "schedlab.jobs.pick-ahead=1",
                "schedlab.jobs.heartbeat-interval=" + MAX_WAIT.toMillis() + "ms",
                "schedlab.jobs.missed-heartbeats=" + MISSED_HEARTBEATS,
                "schedlab.jobs.replica-name=" + name, "schedlab.data-dir=target/test-data/pick-ahead-pg"));
        ConfigurableApplicationContext app = JobsApp.start(properties.toArray(String[]::new));
        apps.add(app);
        return app;
    }

    private Map<String, Object> row(UUID id) {
        List<Map<String, Object>> rows = new JdbcTemplate(apps.get(0).getBean(DataSource.class)).queryForList(
                "select picked, picked_by, version from scheduled_tasks where task_instance = ?", id.toString());
        return rows.isEmpty() ? Map.of("picked", "gone") : rows.get(0);
    }

    private static boolean await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(5);
        }
        return true;
    }
}
