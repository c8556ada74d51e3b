package io.schedlab.jobs;

import io.schedlab.experiments.JobQueue;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.schedlab.SchedLabApplication;
import io.schedlab.jobs.support.FakeSimulator;
import io.schedlab.jobs.support.InMemoryExperiments.Record;
import io.schedlab.jobs.support.InMemoryExperiments;
import io.schedlab.jobs.support.JobsTestConfiguration;
import io.schedlab.jobs.support.Specs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/** The job queue end to end on H2: db-scheduler tables from Flyway, enqueue, run, every outcome, metrics. */
@SpringBootTest(classes = {SchedLabApplication.class, JobsTestConfiguration.class}, properties = {
        "spring.datasource.url=jdbc:h2:mem:jobs-h2-test;DB_CLOSE_DELAY=-1",
        "spring.datasource.username=sa",
        "spring.datasource.password=",
        "schedlab.jobs.workers=2",
        "schedlab.jobs.timeout=3s",
        "schedlab.data-dir=target/test-data/jobs-h2"})
class SimulationJobH2Test {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Autowired
    JobQueue queue;
    @Autowired
    DataSource dataSource;
    @Autowired
    MeterRegistry meters;
    @Autowired
    PlatformTransactionManager transactionManager;
    @Autowired
    SimulationRunner simulator;

    final InMemoryExperiments experiments = JobsTestConfiguration.EXPERIMENTS;
    JdbcTemplate jdbc;

    /** Enqueues a new experiment of the fake engine and waits for its outcome. */
    private Record runJob(String name, double seconds) throws InterruptedException {
        UUID id = experiments.create(Specs.spec(name, seconds));
        queue.enqueue(id);
        return experiments.awaitFinished(id, WAIT);
    }

    @BeforeEach
    void setUp() throws InterruptedException {
        jdbc = new JdbcTemplate(dataSource);
        awaitIdle();
    }

    @Test
    void flywayCreatesTheSchedulerTableAsMigrationTwo() {
        Integer applied = jdbc.queryForObject(
                "select count(*) from \"flyway_schema_history\" where \"version\" = '2' and \"success\" = true",
                Integer.class);
        assertThat(applied).isEqualTo(1);
        List<String> columns = jdbc.queryForList("select lower(column_name) from information_schema.columns"
                + " where lower(table_name) = 'scheduled_tasks' order by ordinal_position", String.class);
        assertThat(columns).containsExactly("task_name", "task_instance", "task_data", "execution_time", "picked",
                "picked_by", "last_success", "last_failure", "consecutive_failures", "last_heartbeat", "version",
                "priority");
    }

    @Test
    void enqueuedJobStartsWithin200msOnAnIdleServiceAndSucceeds() throws InterruptedException {
        runAndMeasure(0.01); // warm-up
        List<Long> latenciesMicros = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            latenciesMicros.add(runAndMeasure(0.01));
        }
        Collections.sort(latenciesMicros);
        long p50 = latenciesMicros.get(latenciesMicros.size() / 2);
        System.out.println("schedule->start latency on H2 (us, sorted): " + latenciesMicros);
        assertThat(p50).as("p50 schedule->start latency in microseconds").isLessThan(200_000);
    }

    @Test
    void theEngineRunsAtTheLowestPriorityAndTheWorkerStoresTheResultAtItsOwn() throws InterruptedException {
        Record record = runJob("priority", 0.01);
        assertThat(record.status).isEqualTo("SUCCEEDED");
        assertThat(((FakeSimulator) simulator).priorityOfLastRun()).isEqualTo(Thread.MIN_PRIORITY);
        assertThat(record.finishedAtPriority).isEqualTo(Thread.NORM_PRIORITY);
    }

    @Test
    void theJobRowIsGoneAfterTheRunAndTheDataIsTheExperimentId() throws InterruptedException {
        UUID id = experiments.create(Specs.spec("row", 0.3));
        queue.enqueue(id);
        String data = jdbc.queryForObject("select task_data from scheduled_tasks where task_instance = ?",
                (rs, n) -> new String(rs.getBytes(1), java.nio.charset.StandardCharsets.UTF_8), id.toString());
        assertThat(data).isEqualTo(id.toString());
        assertThat(experiments.awaitFinished(id, WAIT).status).isEqualTo("SUCCEEDED");
        awaitIdle();
        assertThat(rows(id)).isZero();
    }

    @Test
    void enqueueCommitsAndRollsBackWithTheCallersTransaction() throws InterruptedException {
        TransactionTemplate tx = new TransactionTemplate(transactionManager);
        UUID rolledBack = experiments.create(Specs.spec("rolled-back", 0.01));
        tx.executeWithoutResult(status -> {
            queue.enqueue(rolledBack);
            assertThat(rows(rolledBack)).as("visible inside the transaction").isEqualTo(1);
            status.setRollbackOnly();
        });
        assertThat(rows(rolledBack)).isZero();

        UUID committed = experiments.create(Specs.spec("committed", 0.01));
        long start = System.nanoTime();
        tx.executeWithoutResult(status -> queue.enqueue(committed));
        Record record = experiments.awaitFinished(committed, WAIT);
        assertThat(record.status).isEqualTo("SUCCEEDED");
        long latencyMillis = (record.runningAtNanos - start) / 1_000_000;
        System.out.println("schedule->start latency of a transactional enqueue (ms): " + latencyMillis);
        // immediate execution looks before commit; the after-commit wake-up keeps it well under a poll (1 s)
        assertThat(latencyMillis).isLessThan(200);
        Thread.sleep(300);
        assertThat(experiments.get(rolledBack).status).isEqualTo("QUEUED");
    }

    @Test
    void wallClockTimeoutEndsTheExperimentFailedWithTheReason() throws InterruptedException {
        Record record = runJob("slow", 60);
        assertThat(record.status).isEqualTo("FAILED");
        assertThat(record.reason).startsWith("timeout after 3s");
        long ranMillis = (record.finishedAtNanos - record.runningAtNanos) / 1_000_000;
        assertThat(ranMillis).isBetween(2_900L, 4_500L);
    }

    @Test
    void cancellingARunningSimulationStopsItWithinOneSecond() throws InterruptedException {
        UUID id = experiments.create(Specs.spec("long", 60));
        queue.enqueue(id);
        experiments.awaitRunning(id, WAIT);
        Thread.sleep(300);
        long requested = System.nanoTime();
        experiments.requestCancel(id);
        Record record = experiments.awaitFinished(id, WAIT);
        assertThat(record.status).isEqualTo("CANCELLED");
        long stopMillis = (record.finishedAtNanos - requested) / 1_000_000;
        System.out.println("cancel request -> CANCELLED (ms): " + stopMillis);
        assertThat(stopMillis).isLessThan(1_000);
    }

    @Test
    void progressIsWrittenAtMostEveryHalfSecondAndMovesForward() throws InterruptedException {
        Record record = runJob("progress", 2.2);
        assertThat(record.status).isEqualTo("SUCCEEDED");
        // the fake engine reports ~2,000 times; the job writes every >= 500 ms
        assertThat(record.progressWrites).hasSizeBetween(3, 4);
        for (int i = 1; i < record.progressWrites.size(); i++) {
            long gapMillis = (record.progressWrites.get(i)[0] - record.progressWrites.get(i - 1)[0]) / 1_000_000;
            // the throttle measures 500 ms between its own decisions; these stamps are taken a little
            // later, inside the store, so allow a few ms of scheduling jitter (seen: 499 ms)
            assertThat(gapMillis).isGreaterThanOrEqualTo(490);
            assertThat(record.progressWrites.get(i)[1]).isGreaterThan(record.progressWrites.get(i - 1)[1]);
        }
        assertThat(record.progressFractions).allSatisfy(f -> assertThat(f).isBetween(0.0, 1.0));
    }

    @Test
    void eventBoundAndEngineErrorsEndTheExperimentFailedWithTheReason() throws InterruptedException {
        UUID bound = experiments.create(Specs.spec("event-bound", 10));
        UUID boom = experiments.create(Specs.spec("boom", 1));
        queue.enqueue(bound);
        queue.enqueue(boom);
        Record boundRecord = experiments.awaitFinished(bound, WAIT);
        Record boomRecord = experiments.awaitFinished(boom, WAIT);
        assertThat(boundRecord.status).isEqualTo("FAILED");
        assertThat(boundRecord.reason).startsWith("event bound reached");
        assertThat(boomRecord.status).isEqualTo("FAILED");
        assertThat(boomRecord.reason).isEqualTo("engine error: boom: policy exploded");
        awaitIdle();
        assertThat(rows(bound) + rows(boom)).as("failed jobs are not retried").isZero();
    }

    @Test
    void aRunOutOfMemoryFailsAloneAndTheWorkersKeepRunning() throws InterruptedException {
        // three on two workers: at least one worker takes a job after its own run ran out of memory
        List<UUID> oom = List.of(experiments.create(Specs.spec("oom", 1)), experiments.create(Specs.spec("oom", 1)),
                experiments.create(Specs.spec("oom", 1)));
        oom.forEach(queue::enqueue);
        for (UUID id : oom) {
            Record record = experiments.awaitFinished(id, WAIT);
            assertThat(record.status).isEqualTo("FAILED");
            assertThat(record.reason).startsWith("out of memory: the run needed more heap").contains("Java heap space");
        }
        assertThat(runJob("after-oom", 0.01).status).as("the pool still runs experiments").isEqualTo("SUCCEEDED");
        awaitIdle();
        assertThat(oom.stream().mapToLong(this::rows).sum()).as("failed, not retried").isZero();
    }

    @Test
    void cancelBeforeStartDropsTheJobWithoutRunningIt() throws InterruptedException {
        UUID id = experiments.create(Specs.spec("never", 1));
        experiments.requestCancel(id);
        queue.enqueue(id);
        awaitIdle();
        assertThat(experiments.get(id).status).isEqualTo("CANCELLED");
        assertThat(experiments.get(id).markRunningCalls).isZero();
    }

    @Test
    void discardRemovesAWaitingJobButNeverARunningOne() throws InterruptedException {
        UUID running = experiments.create(Specs.spec("running", 1.0));
        queue.enqueue(running);
        experiments.awaitRunning(running, WAIT);
        assertThat(queue.discard(running)).as("taken by a worker").isFalse();

        UUID waiting = experiments.create(Specs.spec("waiting", 0.01));
        double cancelledBefore = count("cancelled");
        TransactionTemplate tx = new TransactionTemplate(transactionManager);
        boolean discarded = tx.execute(status -> {
            queue.enqueue(waiting);
            return queue.discard(waiting);
        });
        assertThat(discarded).isTrue();
        assertThat(rows(waiting)).isZero();
        assertThat(count("cancelled")).as("counted as finished/cancelled after commit").isEqualTo(cancelledBefore + 1);
        assertThat(experiments.awaitFinished(running, WAIT).status).isEqualTo("SUCCEEDED");
        Thread.sleep(200);
        assertThat(experiments.get(waiting).markRunningCalls).isZero();
    }

    @Test
    void traceIsStreamedToTheDataDirectoryAsCsv() throws Exception {
        UUID id = experiments.create(Specs.spec("trace", 0.05, true));
        queue.enqueue(id);
        assertThat(experiments.awaitFinished(id, WAIT).status).isEqualTo("SUCCEEDED");
        Path trace = Path.of("target/test-data/jobs-h2/traces/" + id + ".csv");
        List<String> lines = Files.readAllLines(trace);
        assertThat(lines.get(0)).isEqualTo("time_ns,pcpu,event,vm,vcpu");
        // one record per step of the fake run, whose step count follows the wall clock (fewer on a loaded machine)
        assertThat(lines.size()).isGreaterThan(1);
        assertThat(lines.subList(1, lines.size())).allMatch(l -> l.matches("\\d+,0,switch,vm1,0"));
        assertThat(Path.of(trace + ".part")).doesNotExist();
    }

    @Test
    void metricsCarryPolicyAndOutcomeTagsAndNoIds() throws InterruptedException {
        double succeededBefore = count("succeeded");
        double failedBefore = count("failed");
        UUID ok = experiments.create(Specs.spec("metrics-ok", 0.2));
        UUID boom = experiments.create(Specs.spec("boom", 1));
        queue.enqueue(ok);
        queue.enqueue(boom);
        experiments.awaitFinished(ok, WAIT);
        experiments.awaitFinished(boom, WAIT);
        Thread.sleep(50); // the run timer is recorded right after the status change

        assertThat(count("succeeded")).isEqualTo(succeededBefore + 1);
        assertThat(count("failed")).isEqualTo(failedBefore + 1);
        assertThat(meters.get("schedlab.run").tags("policy", "credit", "outcome", "succeeded").timer().count())
                .isPositive();
        assertThat(meters.get("schedlab.queue.wait").tag("policy", "credit").timer().count()).isPositive();
        assertThat(meters.get("schedlab.simulated.events").tag("policy", "credit").counter().count())
                .isGreaterThanOrEqualTo(1000);
        assertThat(meters.get("schedlab.simulated.time").tag("policy", "credit").counter().count())
                .isGreaterThanOrEqualTo(0.2);
        assertThat(meters.get("schedlab.simulation.speed").tag("policy", "credit").summary().max()).isPositive();
        assertThat(meters.get("schedlab.workers.size").gauge().value()).isEqualTo(2.0);
        assertThat(meters.get("schedlab.workers.busy").gauge().value()).isZero();
        assertThat(meters.get("schedlab.queue.depth").gauge().value()).isZero();
        assertThat(meters.getMeters()).filteredOn(m -> m.getId().getName().startsWith("schedlab."))
                .allSatisfy(m -> assertThat(m.getId().getTags())
                        .allSatisfy(t -> assertThat(t.getKey()).isIn("policy", "outcome")));
    }

    private double count(String outcome) {
        var counter = meters.find("schedlab.experiments.finished").tags("policy", "credit", "outcome", outcome)
                .counter();
        return counter == null ? 0 : counter.count();
    }

    private long runAndMeasure(double seconds) throws InterruptedException {
        UUID id = experiments.create(Specs.spec("latency", seconds));
        long start = System.nanoTime();
        queue.enqueue(id);
        Record record = experiments.awaitFinished(id, WAIT);
        assertThat(record.status).isEqualTo("SUCCEEDED");
        return (record.runningAtNanos - start) / 1_000;
    }

    private int rows(UUID id) {
        Integer n = jdbc.queryForObject("select count(*) from scheduled_tasks where task_instance = ?", Integer.class,
                id.toString());
        return n == null ? 0 : n;
    }

    private void awaitIdle() throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (queue.depth() > 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("queue not idle: " + queue.depth());
            }
            Thread.sleep(10);
        }
    }
}
