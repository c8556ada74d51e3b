package io.schedlab.jobs;

import com.github.kagkarlsson.scheduler.task.Execution;
import io.schedlab.database.DatabaseOutage;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Commits a job's final experiment state (SUCCEEDED, FAILED or CANCELLED with its result) and the
 * removal of the job's db-scheduler row in one transaction. db-scheduler removes a finished
 * one-time task in a transaction of its own after the handler returns
 * ({@code CompletionHandler.OnCompleteRemove}, {@code JdbcTaskRepository.remove}): with PostgreSQL
 * flushing its WAL on every commit (5 ms median on a busy 2-core machine, docs/benchmarks.md) that
 * second commit was a fifth of a small sweep child's time in the job path. Together there is also no
 * moment in which a finished experiment still has a job, or a job's experiment lost its result.
 * <p>
 * A result that cannot be written because the database is away ({@link DatabaseOutage}) waits for it, in
 * this worker, for up to {@link #MAX_WAIT}: the job stays this process's running execution, so db-scheduler
 * keeps beating its heartbeat and it is not revived elsewhere once the database is back. Thrown instead, the
 * completion would fail as well and leave the row picked, to be "detected as dead after a while" and run again
 * (db-scheduler 16.12 {@code ExecutePicked.complete} and {@code failure}).
 */
final class FinalWrite {

    private static final Logger log = LoggerFactory.getLogger(FinalWrite.class);

    /** Longest a finished run holds its result while the database is away; then the job fails and is retried. */
    static final Duration MAX_WAIT = Duration.ofMinutes(10);
    /** First pause between attempts, doubled up to {@link #LONGEST_PAUSE}. */
    private static final Duration FIRST_PAUSE = Duration.ofMillis(250);
    /** About the API's Retry-After: a result is written within a few seconds of the database's return. */
    private static final Duration LONGEST_PAUSE = DatabaseOutage.RETRY_AFTER.dividedBy(2);

    private final TransactionTemplate tx;
    private final JdbcTemplate jdbc;
    private final BooleanSupplier shuttingDown;
    private final Duration maxWait;

    /**
     * {@code tx}: a JDBC transaction on the application's DataSource, which the lifecycle's statements join;
     * {@code shuttingDown}: this process stops, a result waiting for the database is given up (the job runs again
     * on the next process); {@code maxWait}: longest wait for the database.
     */
    FinalWrite(TransactionTemplate tx, JdbcTemplate jdbc, BooleanSupplier shuttingDown, Duration maxWait) {
        this.tx = tx;
        this.jdbc = jdbc;
        this.shuttingDown = shuttingDown;
        this.maxWait = maxWait;
    }

    /**
     * Runs {@code write} and deletes the job's row (the version this process picked, as db-scheduler's
     * own remove does) in one transaction; returns what {@code write} returned. A row with another
     * version was revived by a replica that took this process for dead: it stays, the final state is
     * committed anyway, and that replica finds the experiment finished and drops its job.
     */
    <T> T commit(Execution execution, Supplier<T> write) {
        long start = System.nanoTime();
        Duration pause = FIRST_PAUSE;
        for (int attempt = 1; ; attempt++) {
            try {
                T result = commitOnce(execution, write);
                if (attempt > 1) {
                    log.info("result of job {} written after the database came back ({} ms, {} attempts)",
                            execution.taskInstance.getId(), (System.nanoTime() - start) / 1_000_000, attempt);
                }
                return result;
            } catch (RuntimeException e) {
                if (!DatabaseOutage.isCause(e) || shuttingDown.getAsBoolean()
                        || System.nanoTime() - start + pause.toNanos() > maxWait.toNanos()) {
                    throw e;
                }
                if (attempt == 1) {
                    log.warn("result of job {} waits for the database: {}", execution.taskInstance.getId(),
                            DatabaseOutage.describe(e));
                }
                sleep(pause);
                pause = pause.multipliedBy(2).compareTo(LONGEST_PAUSE) > 0 ? LONGEST_PAUSE : pause.multipliedBy(2);
            }
        }
    }

    private static void sleep(Duration pause) {
        try {
            Thread.sleep(pause.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WorkerStoppingException("interrupted while the result waited for the database");
        }
    }

    private <T> T commitOnce(Execution execution, Supplier<T> write) {
        return tx.execute(status -> {
            T result = write.get();
            int removed = jdbc.update("delete from scheduled_tasks where task_name = ? and task_instance = ?"
                    + " and version = ?", execution.taskInstance.getTaskName(), execution.taskInstance.getId(),
                    execution.version);
            if (removed == 0) {
                log.info("job {} was taken over by another replica; its experiment is final now and the job"
                        + " will be dropped there", execution.taskInstance.getId());
            }
            return result;
        });
    }
}
