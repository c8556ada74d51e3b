package io.schedlab.jobs;

import io.schedlab.experiments.JobQueue;
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
    /** Long enough for a second replica to start on a loaded machine; cancelled once the test has seen the hand-over. */
    private static final Duration VERY_LONG_RUN = Duration.ofSeconds(60);
    /** heartbeat-interval: the longest a picked job waits before it goes back (checked every half interval). */
    private static final Duration MAX_WAIT = Duration.ofMillis(200);
    /** Dead after 50 missed heartbeats: a hand-back is told from db-scheduler reviving the job as dead. */
    private static final int MISSED_HEARTBEATS = 50;
    private static final Duration DEAD_AFTER = MAX_WAIT.multipliedBy(MISSED_HEARTBEATS);

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
        UUID behind = oneBehind(app, longRun, "behind");
        long enqueued = System.nanoTime();

        await("picked, then handed back", () -> handedBack(row(behind)));
        assertThat(Duration.ofNanos(System.nanoTime() - enqueued)).as("handed back, long before the dead time")
                .isLessThan(DEAD_AFTER.dividedBy(2));
        assertThat(experiments.get(longRun).status).isEqualTo("RUNNING");
        assertThat(experiments.get(behind).status).as("not run by the copy still queued here").isEqualTo("QUEUED");

        assertThat(experiments.awaitFinished(longRun, Duration.ofSeconds(15)).status).isEqualTo("SUCCEEDED");
        assertThat(experiments.awaitFinished(behind, Duration.ofSeconds(15)).status).isEqualTo("SUCCEEDED");
        Timer pool = app.getBean(MeterRegistry.class).get("executor").tag("name", JobsConfiguration.WORKER_POOL).timer();
        await("the long run, the stale copy and the re-picked job ended", () -> pool.count() >= 3);
        assertThat(experiments.get(behind).markRunningCalls).as("ran once").isEqualTo(1);
        assertThat(app.getBean(PickedAhead.class).waiting()).isZero();
        assertThat(pool.totalTime(TimeUnit.SECONDS)).as("the pool's busy time includes the long run")
                .isGreaterThanOrEqualTo(LONG_RUN.toSeconds() * 0.9);
    }

    @Test
    void aJobHandedBackByABusyReplicaRunsOnAnIdleOneWhileTheLongRunGoesOn() throws InterruptedException {
        ConfigurableApplicationContext busy = start("busy");
        UUID longRun = experiments.create(Specs.spec("long-run-2", VERY_LONG_RUN.toSeconds()));
        UUID behind = oneBehind(busy, longRun, "behind-2");
        await("picked by the busy replica, then handed back", () -> handedBack(row(behind)));

        ConfigurableApplicationContext idle = start("idle");
        long idleReady = System.nanoTime();
        assertThat(experiments.awaitFinished(behind, Duration.ofSeconds(10)).status).isEqualTo("SUCCEEDED");
        assertThat(Duration.ofNanos(experiments.get(behind).runningAtNanos - idleReady))
                .as("taken by the idle replica's first look").isLessThan(Duration.ofMillis(1_500));
        assertThat(experiments.get(behind).replica).isEqualTo("idle");
        assertThat(experiments.get(longRun).status).as("handed over while the long run goes on").isEqualTo("RUNNING");
        experiments.requestCancel(longRun);
        assertThat(experiments.awaitFinished(longRun, Duration.ofSeconds(15)).status).isEqualTo("CANCELLED");
        Timer busyPool = busy.getBean(MeterRegistry.class).get("executor").tag("name", JobsConfiguration.WORKER_POOL)
                .timer();
        await("the busy replica's stale copy ended", () -> busyPool.count() >= 2);
        assertThat(experiments.get(behind).markRunningCalls).as("ran once").isEqualTo(1);
        assertThat(idle.getBean(PickedAhead.class).waiting()).isZero();
    }

    /** Runs {@code longRun} on the app's only worker, then enqueues a short job behind it; returns that job. */
    private UUID oneBehind(ConfigurableApplicationContext app, UUID longRun, String name) throws InterruptedException {
        app.getBean(JobQueue.class).enqueue(longRun);
        await("the long run starts", () -> experiments.get(longRun).status.equals("RUNNING"));
        UUID behind = experiments.create(Specs.spec(name, 0.01));
        app.getBean(JobQueue.class).enqueue(behind);
        return behind;
    }

    /** Inserted at version 1, picked at 2, handed back at 3: un-picked with a later version and never started. */
    private boolean handedBack(Map<String, Object> row) {
        return row.get("picked").equals(false) && ((Number) row.get("version")).longValue() >= 3;
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
