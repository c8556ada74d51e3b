package io.schedlab.jobs;

import io.schedlab.experiments.JobQueue;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.jobs.support.FreshPostgresDatabase;
import io.schedlab.jobs.support.InMemoryExperiments;
import io.schedlab.jobs.support.JobsApp;
import io.schedlab.jobs.support.JobsTestConfiguration;
import io.schedlab.jobs.support.Specs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Jobs enqueued on one replica wake another replica's idle workers at once (NOTIFY on enqueue, LISTEN per
 * replica), long before that replica's next poll.
 */
class ReplicaWakeUpsPostgresTest {

    private static final Duration POLLING_INTERVAL = Duration.ofSeconds(30);

    private static FreshPostgresDatabase database;
    private static ConfigurableApplicationContext api;
    private static ConfigurableApplicationContext worker;

    private final InMemoryExperiments experiments = JobsTestConfiguration.EXPERIMENTS;

    @BeforeAll
    static void start() {
        database = FreshPostgresDatabase.create();
        api = JobsApp.start(properties("schedlab.jobs.enabled=false", "schedlab.jobs.replica-name=api"));
        worker = JobsApp.start(properties("schedlab.jobs.workers=1", "schedlab.jobs.replica-name=worker",
                "schedlab.jobs.polling-interval=" + POLLING_INTERVAL.toSeconds() + "s"));
    }

    @AfterAll
    static void stop() {
        try {
            worker.close();
        } finally {
            FreshPostgresDatabase.closeAfter(api, database);
        }
    }

    @Test
    void aJobEnqueuedOnTheApiReplicaStartsOnTheWorkerReplicaWellBeforeItsNextPoll() throws InterruptedException {
        awaitWorkerIdleAfterStartUp();
        for (int i = 0; i < 3; i++) {
            UUID id = experiments.create(Specs.spec("woken-" + i, 0.01));
            long sent = System.nanoTime();
            // in a transaction, as a submission: the notification goes out on commit
            new TransactionTemplate(api.getBean(PlatformTransactionManager.class))
                    .executeWithoutResult(status -> api.getBean(JobQueue.class).enqueue(id));
            assertThat(experiments.awaitFinished(id, Duration.ofSeconds(10)).status).isEqualTo("SUCCEEDED");
            Duration startedAfter = Duration.ofNanos(experiments.get(id).runningAtNanos - sent);
            assertThat(startedAfter).as("job %d started on the worker replica", i)
                    .isLessThan(Duration.ofSeconds(2));
            assertThat(experiments.get(id).replica).isEqualTo("worker");
        }
    }

    /** The worker's start-up poll has run (a job enqueued before it would be found by that poll, not a wake-up). */
    private static void awaitWorkerIdleAfterStartUp() throws InterruptedException {
        Thread.sleep(1_000);
    }

    private static String[] properties(String... extra) {
        List<String> properties = new ArrayList<>(List.of(database.springProperties()));
        properties.add("schedlab.data-dir=target/test-data/wake-ups-pg");
        properties.addAll(List.of(extra));
        return properties.toArray(String[]::new);
    }
}
