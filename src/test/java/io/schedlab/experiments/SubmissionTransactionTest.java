package io.schedlab.experiments;

import io.schedlab.experiments.persistence.SubmissionTransaction;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.schedlab.engine.Engine;
import io.schedlab.experiments.persistence.ExperimentRepository;
import io.schedlab.experiments.persistence.NewExperiment;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A submission's experiment row and its db-scheduler job commit together or not at all, also when
 * submissions share a group commit (H2, workers off).
 */
@SpringBootTest(properties = {
        "spring.datasource.url=jdbc:h2:mem:submission-tx-${random.uuid};DB_CLOSE_DELAY=-1",
        "schedlab.jobs.enabled=false",
        "schedlab.data-dir=target/test-data/submission-tx"})
class SubmissionTransactionTest {

    @Autowired
    SubmissionTransaction transaction;
    @Autowired
    ExperimentRepository repository;
    @Autowired
    JobQueue queue;
    @Autowired
    DataSource dataSource;

    private NewExperiment newExperiment(String name) {
        return new NewExperiment(UUID.randomUUID(), name, "{}", "credit", "{\"name\":\"" + name + "\"}",
                "{\"name\":\"" + name + "\"}", Engine.VERSION, Instant.now().truncatedTo(ChronoUnit.MICROS));
    }

    /** Counts from another thread, so from another connection outside the transaction under test. */
    private long[] rowsSeenFromOutside(UUID id) {
        return CompletableFuture.supplyAsync(() -> {
            JdbcTemplate jdbc = new JdbcTemplate(dataSource);
            Long experiments = jdbc.queryForObject("select count(*) from experiments where id = ?", Long.class, id);
            Long jobs = jdbc.queryForObject("select count(*) from scheduled_tasks where task_instance = ?", Long.class,
                    id.toString());
            return new long[] {experiments, jobs};
        }).join();
    }

    @Test
    void aFailureAfterBothInsertsLeavesNeitherRow() {
        NewExperiment e = newExperiment("rolled back");
        assertThatThrownBy(() -> transaction.run(() -> {
            repository.insertQueued(e);
            queue.enqueue(e.id());
            throw new IllegalStateException("boom");
        })).hasMessage("boom");
        assertThat(rowsSeenFromOutside(e.id())).containsExactly(0, 0);
    }

    @Test
    void bothRowsBecomeVisibleTogetherAtCommit() {
        NewExperiment e = newExperiment("committed");
        long[][] seenInside = new long[1][];
        transaction.run(() -> {
            repository.insertQueued(e);
            queue.enqueue(e.id());
            seenInside[0] = rowsSeenFromOutside(e.id());
        });
        assertThat(seenInside[0]).as("before commit, from another connection").containsExactly(0, 0);
        assertThat(rowsSeenFromOutside(e.id())).containsExactly(1, 1);
        assertThat(repository.findRow(e.id())).contains(e.toRow());
    }

    @Test
    void submissionsQueuedTogetherCommitTogetherAndOneFailureFailsOnlyItself() throws Exception {
        CountDownLatch firstRunning = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        NewExperiment first = newExperiment("first");
        ExecutorService callers = Executors.newFixedThreadPool(12);
        try {
            // the first submission holds the writer, so the next ones queue up into one group
            Future<?> blocking = callers.submit(() -> transaction.run(() -> {
                repository.insertQueued(first);
                firstRunning.countDown();
                await(release);
            }));
            assertThat(firstRunning.await(10, TimeUnit.SECONDS)).isTrue();
            List<NewExperiment> group = new ArrayList<>();
            List<Future<?>> results = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                NewExperiment e = newExperiment("grouped " + i);
                group.add(e);
                boolean bad = i == 4;
                results.add(callers.submit(() -> transaction.run(() -> {
                    repository.insertQueued(e);
                    queue.enqueue(e.id());
                    if (bad) {
                        throw new IllegalStateException("bad submission");
                    }
                })));
            }
            Thread.sleep(300); // all ten queued behind the first
            release.countDown();
            blocking.get(10, TimeUnit.SECONDS);
            for (int i = 0; i < group.size(); i++) {
                Future<?> result = results.get(i);
                if (i == 4) {
                    assertThatThrownBy(() -> result.get(10, TimeUnit.SECONDS))
                            .hasRootCauseMessage("bad submission");
                    assertThat(rowsSeenFromOutside(group.get(i).id())).containsExactly(0, 0);
                } else {
                    result.get(10, TimeUnit.SECONDS);
                    assertThat(rowsSeenFromOutside(group.get(i).id())).containsExactly(1, 1);
                }
            }
        } finally {
            release.countDown();
            callers.shutdownNow();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
