package io.schedlab.jobs;

import static io.schedlab.jobs.support.AwaitExperiment.resource;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Seconds;
import io.schedlab.experiments.Experiment;
import io.schedlab.experiments.ExperimentService;
import io.schedlab.experiments.status.ExperimentStatus;
import io.schedlab.jobs.support.AwaitExperiment;
import io.schedlab.jobs.support.JobsApp;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Restart with real parts (experiments table, engine, H2 file): a RUNNING and a QUEUED experiment
 * accepted by a process that stops are both taken up by the next process on the same database.
 */
class JobsRestartEndToEndTest {

    private final String[] properties = {
            "spring.datasource.url=jdbc:h2:file:./target/test-data/restart-e2e-" + UUID.randomUUID() + "/schedlab",
            "schedlab.jobs.workers=1",
            "schedlab.data-dir=target/test-data/restart-e2e"};

    @Test
    void runningAndQueuedExperimentsAreFinishedByTheRestartedProcess() throws Exception {
        UUID running;
        UUID queued;
        try (ConfigurableApplicationContext first = JobsApp.startReal(properties)) {
            ExperimentService experiments = first.getBean(ExperimentService.class);
            running = experiments.submit(resource("/jobs/long-busy.json")).id();
            AwaitExperiment.until(experiments, running, e -> e.status() == ExperimentStatus.RUNNING && e.progress() > 0, Duration.ofSeconds(30));
            queued = experiments.submit(resource("/experiments/seed001-static.json")).id();
            Thread.sleep(200);
            assertThat(experiments.get(queued).status()).as("one worker, busy").isEqualTo(ExperimentStatus.QUEUED);
        }
        Instant restartedAt = Instant.now();
        try (ConfigurableApplicationContext second = JobsApp.startReal(properties)) {
            ExperimentService experiments = second.getBean(ExperimentService.class);
            Experiment quick = AwaitExperiment.until(experiments, queued, e -> e.status() == ExperimentStatus.SUCCEEDED, Duration.ofSeconds(30));
            assertThat(quick.summary().events()).isPositive();
            Experiment rerun = AwaitExperiment.until(experiments, running, e -> e.status() == ExperimentStatus.RUNNING
                    && e.startedAt() != null && e.startedAt().isAfter(restartedAt) && e.progress() > 0, Duration.ofSeconds(30));
            assertThat(rerun.simulatedSeconds()).isPositive();
            experiments.cancel(running);
            AwaitExperiment.until(experiments, running, e -> e.status() == ExperimentStatus.CANCELLED, Duration.ofSeconds(30));
        }
    }
}
