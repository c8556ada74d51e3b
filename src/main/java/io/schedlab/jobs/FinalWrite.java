package io.schedlab.jobs;

import com.github.kagkarlsson.scheduler.task.Execution;
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
 */
final class FinalWrite {

    private static final Logger log = LoggerFactory.getLogger(FinalWrite.class);

    private final TransactionTemplate tx;
    private final JdbcTemplate jdbc;

    /** {@code tx}: a JDBC transaction on the application's DataSource, which the lifecycle's statements join. */
    FinalWrite(TransactionTemplate tx, JdbcTemplate jdbc) {
        this.tx = tx;
        this.jdbc = jdbc;
    }

    /**
     * Runs {@code write} and deletes the job's row (the version this process picked, as db-scheduler's
     * own remove does) in one transaction; returns what {@code write} returned. A row with another
     * version was revived by a replica that took this process for dead: it stays, the final state is
     * committed anyway, and that replica finds the experiment finished and drops its job.
     */
    <T> T commit(Execution execution, Supplier<T> write) {
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
