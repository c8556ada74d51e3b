package io.schedlab.jobs;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.task.Task;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import io.schedlab.experiments.ExperimentLifecycle;
import io.schedlab.experiments.JobQueue;
import io.schedlab.jobs.metrics.JobMetrics;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * {@link JobQueue} on db-scheduler: one row per experiment in {@code scheduled_tasks}, task
 * "simulate-experiment", instance id = experiment id. The insert goes through a
 * transaction-aware DataSource, so it commits or rolls back with the caller's transaction.
 */
final class DbSchedulerJobQueue implements JobQueue {

    private final Scheduler scheduler;
    private final Task<UUID> task;
    private final JdbcTemplate jdbc;
    private final boolean wakeWorkers;
    private final ExperimentLifecycle lifecycle;
    private final JobMetrics metrics;
    private final boolean notifyReplicas;

    /**
     * {@code jdbc} on the application's DataSource: JdbcTemplate joins the caller's Spring transaction.
     * {@code notifyReplicas}: every enqueue also wakes the other replicas' workers ({@link ReplicaWakeUps}, PostgreSQL).
     */
    DbSchedulerJobQueue(Scheduler scheduler, Task<UUID> task, JdbcTemplate jdbc, boolean wakeWorkers,
            ExperimentLifecycle lifecycle, JobMetrics metrics, boolean notifyReplicas) {
        this.scheduler = scheduler;
        this.task = task;
        this.jdbc = jdbc;
        this.wakeWorkers = wakeWorkers;
        this.lifecycle = lifecycle;
        this.metrics = metrics;
        this.notifyReplicas = notifyReplicas;
    }

    @Override
    public void enqueue(UUID experimentId) {
        enqueueAll(List.of(experimentId));
    }

    /**
     * Plain INSERTs as JDBC batches (db-scheduler's {@code scheduleBatch}, up to its batch size of 100
     * rows per round trip): scheduleIfNotExists SELECTs each row first, which was half of the enqueue
     * cost per submission. Ids are fresh, so a duplicate is a bug: its primary-key violation fails the
     * insert and rolls the submission back instead of being skipped.
     */
    @Override
    public void enqueueAll(List<UUID> experimentIds) {
        if (experimentIds.isEmpty()) {
            return;
        }
        scheduler.scheduleBatch(experimentIds.stream().<TaskInstance<?>>map(id -> task.instance(id.toString(), id)),
                Instant.now());
        if (notifyReplicas) {
            ReplicaWakeUps.notifyReplicas(jdbc);
        }
        if (wakeWorkers && TransactionSynchronizationManager.isSynchronizationActive()) {
            // db-scheduler's immediate execution looks for the jobs right away, before the caller's
            // transaction commits, and would miss them until the next poll: look again after commit.
            afterCommit(scheduler::triggerCheckForDueExecutions);
        }
    }

    @Override
    public boolean discard(UUID experimentId) {
        boolean removed = jdbc.update(
                "delete from scheduled_tasks where task_name = ? and task_instance = ? and picked = ?",
                task.getName(), experimentId.toString(), false) > 0;
        if (removed) {
            // the experiment was cancelled while QUEUED: it finished as cancelled without a run
            String policy = lifecycle.normalizedSpec(experimentId).map(SimulationJob::policyOf).orElse("unknown");
            afterCommit(() -> metrics.cancelledBeforeStart(policy));
        }
        return removed;
    }

    @Override
    public long depth() {
        Long count = jdbc.queryForObject("select count(*) from scheduled_tasks where task_name = ?", Long.class,
                task.getName());
        return count == null ? 0 : count;
    }

    /** Runs after the caller's transaction commits (never on rollback), or now when there is none. */
    private static void afterCommit(Runnable action) {
        if (!TransactionSynchronizationManager.isSynchronizationActive()) {
            action.run();
            return;
        }
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                action.run();
            }
        });
    }

    /** Jobs of a task not yet picked by a worker (the queue-depth gauge). */
    static long queued(JdbcTemplate jdbc, String taskName) {
        Long count = jdbc.queryForObject(
                "select count(*) from scheduled_tasks where task_name = ? and picked = ?", Long.class,
                taskName, false);
        return count == null ? 0 : count;
    }
}
