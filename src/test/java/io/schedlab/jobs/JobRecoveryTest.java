package io.schedlab.jobs;

import io.schedlab.experiments.JobQueue;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.jobs.support.InMemoryExperiments.Record;
import io.schedlab.jobs.support.InMemoryExperiments;
import io.schedlab.jobs.support.JobsApp;
import io.schedlab.jobs.support.JobsTestConfiguration;
import io.schedlab.jobs.support.Specs;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/** Nothing accepted is lost: jobs survive a process restart, and a dead process's job is picked up again. */
class JobRecoveryTest {

    private final InMemoryExperiments experiments = JobsTestConfiguration.EXPERIMENTS;
    private final String dbUrl = "jdbc:h2:file:./target/test-data/recovery-" + UUID.randomUUID() + "/schedlab";

    @AfterEach
    void restoreFakeSpeed() {
        JobsTestConfiguration.wallPerSimulated = 1.0;
    }

    @Test
    void jobsRunningOrQueuedWhenTheProcessStopsAreFinishedAfterARestart() throws InterruptedException {
        UUID running;
        UUID queued;
        long stopMillis;
        try (ConfigurableApplicationContext first = start("schedlab.jobs.workers=1")) {
            JobQueue queue = first.getBean(JobQueue.class);
            running = experiments.create(Specs.spec("long", 30));
            queued = experiments.create(Specs.spec("waiting", 1));
            queue.enqueue(running);
            experiments.awaitRunning(running, Duration.ofSeconds(10));
            queue.enqueue(queued);
            Thread.sleep(200);
            assertThat(experiments.get(queued).status).as("one worker, so the second job waits").isEqualTo("QUEUED");
            long stopStart = System.nanoTime();
            first.close();
            stopMillis = (System.nanoTime() - stopStart) / 1_000_000;
        }
        System.out.println("context close with a running job (ms): " + stopMillis);
        assertThat(stopMillis).as("the running job hands its work back instead of finishing").isLessThan(5_000);
        assertThat(experiments.get(running).status).isEqualTo("RUNNING");
        assertThat(experiments.get(queued).status).isEqualTo("QUEUED");

        assertThat(jobsInDatabaseFile()).as("both jobs wait in the table, none marked as taken")
                .containsExactlyInAnyOrder(running + ":false", queued + ":false");

        JobsTestConfiguration.wallPerSimulated = 0.01;
        try (ConfigurableApplicationContext restarted = start("schedlab.jobs.workers=1")) {
            Record runningRecord = experiments.awaitFinished(running, Duration.ofSeconds(20));
            Record queuedRecord = experiments.awaitFinished(queued, Duration.ofSeconds(20));
            assertThat(runningRecord.status).isEqualTo("SUCCEEDED");
            assertThat(queuedRecord.status).isEqualTo("SUCCEEDED");
            assertThat(runningRecord.markRunningCalls).as("RUNNING -> RUNNING after the restart").isEqualTo(2);
            assertThat(queuedRecord.markRunningCalls).isEqualTo(1);
        }
    }

    @Test
    void aJobWhoseProcessDiedIsPickedUpAgainAfterTheMissedHeartbeats() throws InterruptedException {
        JobsTestConfiguration.wallPerSimulated = 0.01;
        // dead after 4 x 250 ms = 1 s; production: 6 x 1 s = 6 s (+ up to 2 heartbeats until the check runs)
        try (ConfigurableApplicationContext app = start("schedlab.jobs.heartbeat-interval=250ms",
                "schedlab.jobs.missed-heartbeats=4")) {
            UUID id = experiments.create(Specs.spec("orphan", 1));
            experiments.markRunning(id); // the crashed process had started it
            Instant diedAt = Instant.now();
            new JdbcTemplate(app.getBean(DataSource.class)).update("insert into scheduled_tasks (task_name,"
                    + " task_instance, task_data, execution_time, picked, picked_by, last_heartbeat, version)"
                    + " values (?, ?, ?, ?, true, 'crashed-replica', ?, 1)", JobsConfiguration.TASK_NAME,
                    id.toString(), id.toString().getBytes(StandardCharsets.UTF_8), Timestamp.from(diedAt),
                    Timestamp.from(diedAt));
            long start = System.nanoTime();
            Record record = experiments.awaitFinished(id, Duration.ofSeconds(30));
            long pickupMillis = (record.runningAtNanos - start) / 1_000_000;
            System.out.println("dead execution picked up after (ms): " + pickupMillis);
            assertThat(record.status).isEqualTo("SUCCEEDED");
            assertThat(record.markRunningCalls).isEqualTo(2);
            // dead after 1 s; the check runs every 2 heartbeats (500 ms), plus scheduling slack on a busy machine
            assertThat(pickupMillis).isBetween(900L, 3_000L);
        }
    }

    @Test
    void aRevivedJobStartsBeforeTheNewerJobsQueuedBehindIt() throws InterruptedException {
        JobsTestConfiguration.wallPerSimulated = 0.1;
        int queuedJobs = 20;
        // one worker, dead after 4 x 250 ms = 1 s; each queued job runs 0.3 s, so the queue takes 6 s
        try (ConfigurableApplicationContext app = start("schedlab.jobs.workers=1",
                "schedlab.jobs.heartbeat-interval=250ms", "schedlab.jobs.missed-heartbeats=4")) {
            JobQueue queue = app.getBean(JobQueue.class);
            UUID orphan = experiments.create(Specs.spec("orphan", 1));
            experiments.markRunning(orphan); // the crashed process had started it, before the others were queued
            Instant now = Instant.now();
            new JdbcTemplate(app.getBean(DataSource.class)).update("insert into scheduled_tasks (task_name,"
                    + " task_instance, task_data, execution_time, picked, picked_by, last_heartbeat, version)"
                    + " values (?, ?, ?, ?, true, 'crashed-replica', ?, 1)", JobsConfiguration.TASK_NAME,
                    orphan.toString(), orphan.toString().getBytes(StandardCharsets.UTF_8),
                    Timestamp.from(now.minusSeconds(60)), Timestamp.from(now));
            long start = System.nanoTime();
            List<UUID> newer = new java.util.ArrayList<>();
            for (int i = 0; i < queuedJobs; i++) {
                UUID id = experiments.create(Specs.spec("newer-" + i, 3));
                newer.add(id);
                queue.enqueue(id);
            }
            Record revived = experiments.awaitFinished(orphan, Duration.ofSeconds(30));
            for (UUID id : newer) {
                assertThat(experiments.awaitFinished(id, Duration.ofSeconds(30)).status).isEqualTo("SUCCEEDED");
            }
            long pickupMillis = (revived.runningAtNanos - start) / 1_000_000;
            long startedAfter = newer.stream().filter(id -> experiments.get(id).runningAtNanos > revived.runningAtNanos)
                    .count();
            System.out.printf("revived job restarted after %d ms, before %d of %d newer queued jobs%n", pickupMillis,
                    startedAfter, queuedJobs);
            assertThat(revived.status).isEqualTo("SUCCEEDED");
            assertThat(revived.markRunningCalls).isEqualTo(2);
            // dead after 1 s, checked every 500 ms, then the running 0.3 s job ends: the revived one is next, not
            // behind the 6 s of queue (db-scheduler's ReviveDeadExecution made it due "now", after all of them)
            assertThat(pickupMillis).isLessThan(3_000L);
            assertThat(startedAfter).as("newer jobs started after the revived one").isGreaterThanOrEqualTo(queuedJobs / 2);
        }
    }

    @Test
    void productionHeartbeatDefaultsPickUpADeadJobWithinFifteenSeconds() {
        JobsProperties defaults = new org.springframework.boot.context.properties.bind.Binder(
                new org.springframework.boot.context.properties.source.MapConfigurationPropertySource(java.util.Map.of()))
                .bindOrCreate("schedlab.jobs", JobsProperties.class);
        // db-scheduler Scheduler: dead when last_heartbeat older than interval x missed (the last one written up
        // to an interval before the death); checked every 2 x interval; then due at its place in the queue
        // (RevivedFirst) and taken by the next fetch: revived within 9 s, leaving 6 s for a worker to free up
        Duration worstCase = defaults.heartbeatInterval().plus(defaults.deadAfter())
                .plus(defaults.heartbeatInterval().multipliedBy(2)).plus(defaults.pollingInterval());
        assertThat(worstCase).isLessThanOrEqualTo(Duration.ofSeconds(10));
        // and not so tight that a worker's GC or CPU stall reads as death: four heartbeats may be missed
        assertThat(defaults.missedHeartbeats()).isGreaterThanOrEqualTo(4);
    }

    private List<String> jobsInDatabaseFile() {
        try (Connection connection = DriverManager.getConnection(dbUrl, "sa", "")) {
            return new JdbcTemplate(new SingleConnectionDataSource(connection, true)).queryForList(
                    "select task_instance || ':' || lower(cast(picked as varchar)) from scheduled_tasks", String.class);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private ConfigurableApplicationContext start(String... extra) {
        String[] properties = new String[extra.length + 4];
        properties[0] = "spring.datasource.url=" + dbUrl;
        properties[1] = "spring.datasource.username=sa";
        properties[2] = "spring.datasource.password=";
        properties[3] = "schedlab.data-dir=target/test-data/recovery";
        System.arraycopy(extra, 0, properties, 4, extra.length);
        return JobsApp.start(properties);
    }
}
