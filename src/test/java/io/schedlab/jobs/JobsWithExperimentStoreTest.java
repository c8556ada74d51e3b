package io.schedlab.jobs;

import io.schedlab.experiments.JobQueue;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.SchedLabApplication;
import io.schedlab.engine.Engine;
import io.schedlab.engine.Seconds;
import io.schedlab.experiments.Experiment;
import io.schedlab.experiments.ExperimentService;
import io.schedlab.experiments.ExperimentSpecReader;
import io.schedlab.experiments.status.ExperimentStatus;
import io.schedlab.experiments.persistence.ExperimentRepository;
import io.schedlab.experiments.persistence.NewExperiment;
import io.schedlab.jobs.support.AwaitExperiment;
import io.schedlab.jobs.support.FakeSimulator;
import io.schedlab.jobs.support.Specs;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Jobs against the real experiments table and the service's ExperimentLifecycle (only the engine
 * is a fake): the stored status, progress, timestamps, cancel and timeout as a client sees them.
 */
@SpringBootTest(classes = {SchedLabApplication.class, JobsWithExperimentStoreTest.FakeEngine.class}, properties = {
        "spring.datasource.url=jdbc:h2:mem:jobs-store-test;DB_CLOSE_DELAY=-1",
        "schedlab.jobs.workers=2",
        "schedlab.jobs.timeout=2s",
        "schedlab.data-dir=target/test-data/jobs-store"})
class JobsWithExperimentStoreTest {

    @TestConfiguration(proxyBeanMethods = false)
    static class FakeEngine {
        @Bean
        @Primary
        SimulationRunner fakeSimulator() {
            return new FakeSimulator(1.0);
        }
    }

    @Autowired
    ExperimentService experiments;
    @Autowired
    ExperimentRepository repository;
    @Autowired
    JobQueue queue;
    @Autowired
    PlatformTransactionManager transactionManager;

    private final ExperimentSpecReader json = new ExperimentSpecReader();

    @Test
    void aQueuedExperimentRunsToSucceededWithTimestampsAndSummary() throws InterruptedException {
        UUID id = submit("quick", 0.3);
        Experiment done = AwaitExperiment.until(experiments, id, e -> e.status() == ExperimentStatus.SUCCEEDED, Duration.ofSeconds(10));
        assertThat(done.startedAt()).isNotNull();
        assertThat(done.finishedAt()).isAfterOrEqualTo(done.startedAt());
        assertThat(done.summary().events()).isPositive();
        assertThat(done.summary().simulatedNanos()).isEqualTo(300_000_000L);
    }

    @Test
    void aRunningExperimentShowsProgressAndStopsWithinOneSecondOfCancel() throws InterruptedException {
        UUID id = submit("long", 60);
        Experiment running = AwaitExperiment.until(experiments, id, e -> e.status() == ExperimentStatus.RUNNING && e.progress() > 0, Duration.ofSeconds(10));
        assertThat(running.simulatedSeconds()).isPositive();
        long requested = System.nanoTime();
        experiments.cancel(id);
        Experiment cancelled = AwaitExperiment.until(experiments, id, e -> e.status() == ExperimentStatus.CANCELLED, Duration.ofSeconds(10));
        long stopMillis = (System.nanoTime() - requested) / 1_000_000;
        System.out.println("cancel through the experiments table -> CANCELLED (ms): " + stopMillis);
        assertThat(stopMillis).isLessThan(1_000);
        assertThat(cancelled.finishedAt()).isNotNull();
    }

    @Test
    void anExperimentOverTheWallClockBudgetEndsFailedWithTheReason() throws InterruptedException {
        UUID id = submit("slow", 60);
        Experiment failed = AwaitExperiment.until(experiments, id, e -> e.status() == ExperimentStatus.FAILED, Duration.ofSeconds(10));
        assertThat(failed.failureReason()).startsWith("timeout after 2s");
    }

    /** What ExperimentService.submit does once the engine validates: store QUEUED and enqueue, one transaction. */
    private UUID submit(String name, double seconds) {
        var spec = Specs.spec(name, seconds);
        UUID id = UUID.randomUUID();
        String specJson = json.write(spec);
        new TransactionTemplate(transactionManager).executeWithoutResult(status -> {
            repository.insertQueued(new NewExperiment(id, name, "{}", "credit", specJson, specJson, Engine.VERSION,
                    Instant.now()));
            queue.enqueue(id);
        });
        return id;
    }
}
