package io.schedlab.experiments;

import io.schedlab.experiments.status.ExperimentStatus;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.experiments.ExperimentLifecycle.StartOutcome;
import io.schedlab.experiments.persistence.ExperimentRepository;
import io.schedlab.experiments.persistence.NewExperiment;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jpa.test.autoconfigure.DataJpaTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * The running quota at start, on the real schema: of many concurrent starts of one key's experiments
 * exactly the quota start, the others stay QUEUED; other keys and ownerless experiments are not
 * held back; a slot freed by a finished run is taken by the next start; a RUNNING experiment
 * revived after a crash does not count against itself.
 */
@DataJpaTest
@Import({ExperimentLifecycleService.class, RunningQuotaStartTest.TwoRunning.class})
@Transactional(propagation = Propagation.NOT_SUPPORTED)
class RunningQuotaStartTest {

    @TestConfiguration(proxyBeanMethods = false)
    static class TwoRunning {
        @Bean
        QuotaProperties quotas() {
            return new QuotaProperties(0, 2, 0, Duration.ofSeconds(10));
        }
    }

    @Autowired
    ExperimentLifecycleService lifecycle;
    @Autowired
    ExperimentRepository repository;

    private UUID queued(String owner) {
        UUID id = UUID.randomUUID();
        repository.insertQueued(new NewExperiment(id, "n", "{}", "static", "{\"name\":\"n\"}",
                "{\"name\":\"n\",\"seed\":7,\"stopWhen\":\"all-complete\",\"vms\":[]}", "0.1.0", Instant.now(), owner));
        return id;
    }

    private ExperimentStatus status(UUID id) {
        return repository.findRow(id).orElseThrow().status();
    }

    @Test
    void concurrentStartsOfOneKeyTakeExactlyItsQuota() throws Exception {
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            ids.add(queued("alice"));
        }
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(ids.size());
        List<CompletableFuture<ExperimentLifecycle.Start>> starts = new ArrayList<>();
        try {
            for (UUID id : ids) {
                starts.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                    return lifecycle.start(id, "replica-" + id);
                }, threads));
            }
            go.countDown();
            List<StartOutcome> outcomes = new ArrayList<>();
            for (CompletableFuture<ExperimentLifecycle.Start> s : starts) {
                ExperimentLifecycle.Start start = s.get();
                assertThat(start.owner()).isEqualTo("alice");
                outcomes.add(start.outcome());
            }
            assertThat(outcomes).filteredOn(o -> o == StartOutcome.STARTED).hasSize(2);
            assertThat(outcomes).filteredOn(o -> o == StartOutcome.AT_RUNNING_QUOTA).hasSize(6);
        } finally {
            threads.shutdownNow();
        }
        assertThat(repository.countByOwnerAndStatusIn("alice", List.of(ExperimentStatus.RUNNING))).isEqualTo(2);
        assertThat(repository.countByOwnerAndStatusIn("alice", List.of(ExperimentStatus.QUEUED))).isEqualTo(6);

        // other keys and ownerless work are not held back by alice's quota
        assertThat(lifecycle.start(queued("bob"), "r").outcome()).isEqualTo(StartOutcome.STARTED);
        assertThat(lifecycle.start(queued(null), "r").outcome()).isEqualTo(StartOutcome.STARTED);

        // a finished run frees its slot for the oldest waiting
        UUID running = ids.stream().filter(id -> status(id) == ExperimentStatus.RUNNING).findFirst().orElseThrow();
        lifecycle.markFailed(running, "stopped by the test");
        List<UUID> waiting = lifecycle.oldestQueued("alice", 2);
        assertThat(waiting).hasSize(2).allSatisfy(id -> assertThat(status(id)).isEqualTo(ExperimentStatus.QUEUED));
        assertThat(waiting.get(0)).isEqualTo(ids.stream().filter(id -> status(id) == ExperimentStatus.QUEUED)
                .findFirst().orElseThrow()); // oldest first: ids were inserted in order
        assertThat(lifecycle.start(waiting.get(0), "r").outcome()).isEqualTo(StartOutcome.STARTED);
        assertThat(lifecycle.start(waiting.get(1), "r").outcome()).isEqualTo(StartOutcome.AT_RUNNING_QUOTA);
    }

    @Test
    void aRunningExperimentRevivedAfterACrashDoesNotCountAgainstItself() {
        UUID first = queued("carol");
        UUID second = queued("carol");
        assertThat(lifecycle.start(first, "dead-replica").outcome()).isEqualTo(StartOutcome.STARTED);
        assertThat(lifecycle.start(second, "dead-replica").outcome()).isEqualTo(StartOutcome.STARTED);
        // both replicas' jobs are picked up again: RUNNING -> RUNNING at a full quota
        assertThat(lifecycle.start(first, "survivor").outcome()).isEqualTo(StartOutcome.STARTED);
        assertThat(lifecycle.start(second, "survivor").outcome()).isEqualTo(StartOutcome.STARTED);
        UUID third = queued("carol");
        assertThat(lifecycle.start(third, "survivor").outcome()).isEqualTo(StartOutcome.AT_RUNNING_QUOTA);
        lifecycle.markCancelled(first, null);
        assertThat(lifecycle.start(first, "survivor").outcome()).isEqualTo(StartOutcome.GONE);
        assertThat(Map.of("third", status(third))).containsEntry("third", ExperimentStatus.QUEUED);
    }
}
