package io.schedlab.experiments;

import io.schedlab.experiments.status.ExperimentStatus;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.output.Headline;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.output.ResultSummary;
import io.schedlab.experiments.persistence.ExperimentRepository;
import io.schedlab.experiments.persistence.ExperimentRow;
import io.schedlab.experiments.persistence.NewExperiment;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jpa.test.autoconfigure.DataJpaTest;
import org.springframework.context.annotation.Import;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

/** The transitions a job makes, on the real schema: each applies only from the states it names. */
@DataJpaTest
@Import(ExperimentLifecycleService.class)
@Transactional(propagation = Propagation.NOT_SUPPORTED)
class ExperimentLifecycleServiceTest {

    @Autowired
    ExperimentLifecycleService lifecycle;
    @Autowired
    ExperimentRepository repository;
    @Autowired
    PlatformTransactionManager transactions;

    private UUID queued() {
        UUID id = UUID.randomUUID();
        repository.insertQueued(new NewExperiment(id, "n", "{}", "static", "{\"name\":\"n\"}",
                "{\"name\":\"n\",\"seed\":7,\"stopWhen\":\"all-complete\",\"vms\":[]}", "0.1.0", Instant.now()));
        return id;
    }

    private ExperimentRow row(UUID id) {
        return repository.findRow(id).orElseThrow();
    }

    @Test
    void queuedRunsProgressesAndSucceedsWithItsResult() {
        UUID id = queued();
        assertThat(lifecycle.normalizedSpec(id)).get().satisfies(spec -> {
            assertThat(spec.seed()).isEqualTo(7L);
            assertThat(spec.stopWhen()).isEqualTo(io.schedlab.engine.spec.ExperimentSpec.StopCondition.ALL_COMPLETE);
        });
        assertThat(lifecycle.markRunning(id)).isTrue();
        assertThat(row(id).status()).isEqualTo(ExperimentStatus.RUNNING);
        assertThat(row(id).startedAt()).isNotNull();

        lifecycle.updateProgress(id, 0.25, 5_000_000_000L);
        assertThat(row(id).progress()).isEqualTo(0.25);
        assertThat(row(id).simulatedNanos()).isEqualTo(5_000_000_000L);
        lifecycle.updateProgress(id, 7.0, -3); // clamped
        assertThat(row(id).progress()).isEqualTo(1.0);
        assertThat(row(id).simulatedNanos()).isZero();

        lifecycle.markSucceeded(id, new ResultDocument("9.9.9",
                new ResultSummary(126_500_000_000L, 420_000_000L, 1_000_000, 5_000, 1, 0.97,
                        Map.of("VM1", new Headline(126.5, "s", "completion time in s, lower is better", false)))));
        ExperimentRow done = row(id);
        assertThat(done.status()).isEqualTo(ExperimentStatus.SUCCEEDED);
        assertThat(done.simulatedNanos()).isEqualTo(126_500_000_000L);
        assertThat(done.events()).isEqualTo(1_000_000);
        assertThat(done.contextSwitches()).isEqualTo(5_000);
        assertThat(done.migrations()).isEqualTo(1);
        assertThat(done.jainFairness()).isEqualTo(0.97);
        assertThat(done.wallSeconds()).isEqualTo(0.42);
        assertThat(done.engineVersion()).isEqualTo("9.9.9");
        assertThat(done.finishedAt()).isNotNull();
        assertThat(repository.findResult(id).orElseThrow()).contains("\"vmHeadline\":{\"VM1\":{\"value\":126.5,\"unit\":\"s\"");

        // finished: nothing applies any more
        assertThat(lifecycle.markRunning(id)).isFalse();
        lifecycle.markFailed(id, "late");
        lifecycle.markCancelled(id);
        assertThat(row(id).status()).isEqualTo(ExperimentStatus.SUCCEEDED);
    }

    @Test
    void aRunningExperimentIsPickedUpAgainAfterACrash() {
        UUID id = queued();
        assertThat(lifecycle.markRunning(id)).isTrue();
        lifecycle.updateProgress(id, 0.5, 10);
        assertThat(lifecycle.markRunning(id)).isTrue(); // another worker re-runs it from the start
        assertThat(row(id).progress()).isZero();
        assertThat(row(id).status()).isEqualTo(ExperimentStatus.RUNNING);
    }

    @Test
    void aCancelRequestStopsTheRunAndARerunEndsCancelled() {
        UUID id = queued();
        assertThat(lifecycle.cancelRequested(id)).isFalse();
        lifecycle.markRunning(id);
        Integer changed = new TransactionTemplate(transactions)
                .execute(s -> repository.requestCancel(id, ExperimentStatus.RUNNING));
        assertThat(changed).isEqualTo(1);
        assertThat(lifecycle.cancelRequested(id)).isTrue();
        // the process died before it saw the request: the re-run does not start, it ends CANCELLED
        assertThat(lifecycle.markRunning(id)).isFalse();
        assertThat(row(id).status()).isEqualTo(ExperimentStatus.CANCELLED);
        assertThat(row(id).finishedAt()).isNotNull();
    }

    @Test
    void failuresKeepABoundedReasonAndMissingExperimentsReadAsCancelled() {
        UUID id = queued();
        lifecycle.markRunning(id);
        lifecycle.markFailed(id, "x".repeat(5000));
        ExperimentRow failed = row(id);
        assertThat(failed.status()).isEqualTo(ExperimentStatus.FAILED);
        assertThat(failed.failureReason()).hasSize(2000).endsWith("...");
        assertThat(lifecycle.markRunning(id)).isFalse();

        UUID cancelled = queued();
        lifecycle.markCancelled(cancelled);
        assertThat(row(cancelled).status()).isEqualTo(ExperimentStatus.CANCELLED);

        UUID missing = UUID.randomUUID();
        assertThat(lifecycle.normalizedSpec(missing)).isEmpty();
        assertThat(lifecycle.cancelRequested(missing)).isTrue(); // a deleted record stops its job
        assertThat(lifecycle.markRunning(missing)).isFalse();
        assertThat(List.of(ExperimentStatus.values())).hasSize(5);
    }
}
