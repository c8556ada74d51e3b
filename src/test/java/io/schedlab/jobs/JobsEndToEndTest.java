package io.schedlab.jobs;

import static io.schedlab.jobs.support.AwaitExperiment.resource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.schedlab.SchedLabApplication;
import io.schedlab.engine.Seconds;
import io.schedlab.experiments.Experiment;
import io.schedlab.experiments.ExperimentNotFoundException;
import io.schedlab.experiments.ExperimentService;
import io.schedlab.experiments.status.ExperimentStatus;
import io.schedlab.jobs.support.AwaitExperiment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The whole path with the real engine: submit, queue, simulate, store; cancel and trace on real runs. */
@SpringBootTest(classes = SchedLabApplication.class, properties = {
        "spring.datasource.url=jdbc:h2:mem:jobs-e2e-test;DB_CLOSE_DELAY=-1",
        "schedlab.jobs.workers=2",
        "schedlab.data-dir=target/test-data/jobs-e2e"})
class JobsEndToEndTest {

    @Autowired
    ExperimentService experiments;

    @Test
    void seed001RunsThroughTheQueueToAStoredResult() throws Exception {
        Experiment submitted = experiments.submit(resource("/experiments/seed001-static.json"));
        assertThat(submitted.status()).isEqualTo(ExperimentStatus.QUEUED);
        Experiment done = AwaitExperiment.until(experiments, submitted.id(), e -> e.status() == ExperimentStatus.SUCCEEDED, Duration.ofSeconds(60));
        long queuedMillis = Duration.between(done.createdAt(), done.startedAt()).toMillis();
        System.out.println("seed 001: created->started " + queuedMillis + " ms, created->finished "
                + Duration.between(done.createdAt(), done.finishedAt()).toMillis() + " ms");
        JsonNode result = JsonMapper.builder().build().readTree(experiments.resultJson(done.id()));
        assertThat(result.path("summary").path("events").asLong()).isPositive();
        assertThat(done.summary().events()).isEqualTo(result.path("summary").path("events").asLong());
        assertThat(Seconds.of(done.summary().simulatedNanos())).isPositive();
    }

    @Test
    void cancellingARealLongSimulationStopsItWithinOneSecond() throws Exception {
        Experiment submitted = experiments.submit(resource("/jobs/long-busy.json"));
        Experiment running = AwaitExperiment.until(experiments, submitted.id(), e -> e.status() == ExperimentStatus.RUNNING && e.progress() > 0,
                Duration.ofSeconds(20));
        assertThat(running.simulatedSeconds()).isPositive();
        long requested = System.nanoTime();
        experiments.cancel(submitted.id());
        AwaitExperiment.until(experiments, submitted.id(), e -> e.status() == ExperimentStatus.CANCELLED, Duration.ofSeconds(5));
        long stopMillis = (System.nanoTime() - requested) / 1_000_000;
        System.out.println("real engine: cancel -> CANCELLED (ms): " + stopMillis);
        assertThat(stopMillis).isLessThan(1_000);

        // the partial result up to the stop is kept, marked partial, and summarized in the status
        JsonNode partial = JsonMapper.builder().build().readTree(experiments.resultJson(submitted.id()));
        assertThat(partial.path("partial").asBoolean()).isTrue();
        assertThat(partial.path("stopReason").asString()).isEqualTo("stopped");
        long reached = partial.path("summary").path("simulatedNanos").asLong();
        assertThat(reached).isPositive();
        Experiment cancelled = experiments.get(submitted.id());
        assertThat(cancelled.summary()).isNotNull();
        assertThat(cancelled.summary().simulatedNanos()).isEqualTo(reached);
        assertThat(cancelled.summary().events()).isEqualTo(partial.path("summary").path("events").asLong());
    }

    @Test
    void deletingAFinishedExperimentRemovesItsResultsAndTrace() throws Exception {
        Experiment submitted = tracedSeed001(100);
        Path trace = Path.of("target/test-data/jobs-e2e/traces/" + submitted.id() + ".csv");
        assertThat(trace).exists();
        experiments.delete(submitted.id());
        assertThat(trace).doesNotExist();
        assertThatThrownBy(() -> experiments.get(submitted.id())).isInstanceOf(ExperimentNotFoundException.class);
        assertThatThrownBy(() -> experiments.resultJson(submitted.id())).isInstanceOf(ExperimentNotFoundException.class);
        assertThatThrownBy(() -> experiments.delete(submitted.id())).isInstanceOf(ExperimentNotFoundException.class);
    }

    @Test
    void anEnabledTraceIsStreamedToTheDataDirectory() throws Exception {
        Experiment submitted = tracedSeed001(5000);
        List<String> lines = Files.readAllLines(Path.of("target/test-data/jobs-e2e/traces/" + submitted.id() + ".csv"));
        assertThat(lines.get(0)).isEqualTo("time_ns,pcpu,event,vm,vcpu");
        assertThat(lines).hasSizeBetween(2, 5001);
    }

    /** Seed 001 static with a trace of at most {@code maxEvents} records, run to SUCCEEDED. */
    private Experiment tracedSeed001(int maxEvents) throws Exception {
        String body = new String(resource("/experiments/seed001-static.json"), StandardCharsets.UTF_8)
                .replaceFirst("\\{", "{ \"trace\": { \"enabled\": true, \"maxEvents\": " + maxEvents + " },");
        Experiment submitted = experiments.submit(body.getBytes(StandardCharsets.UTF_8));
        AwaitExperiment.until(experiments, submitted.id(), e -> e.status() == ExperimentStatus.SUCCEEDED, Duration.ofSeconds(60));
        return submitted;
    }
}
