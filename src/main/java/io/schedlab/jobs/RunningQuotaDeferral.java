package io.schedlab.jobs;

import com.github.kagkarlsson.scheduler.task.CompletionHandler;
import io.schedlab.experiments.ExperimentLifecycle;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The jobs' side of the per-key running quota ({@code schedlab.quotas.max-running-per-key}).
 * db-scheduler picks due jobs by execution time and cannot skip a key's jobs in its query, so a
 * job whose key is at its quota is picked, not started, and handed back with an execution time
 * {@code recheck} later: it is no longer due, and the jobs of other keys behind it are picked
 * next. When one of the key's runs ends, its oldest QUEUED job is made due at once and the next
 * oldest one polling interval later, as a backup in case the oldest was being handed back at that
 * moment (it then takes the slot; otherwise it checks and goes back): first come, first run. The
 * recheck only matters when both wake-ups miss (or the process died), so nothing waits forever and
 * a key at its quota costs one pick-up per queued job per recheck interval, never a busy loop.
 */
final class RunningQuotaDeferral {

    /** Jobs woken per ended run: the oldest, and the next one as a backup. */
    static final int WAKE_PER_END = 2;
    private static final Logger log = LoggerFactory.getLogger(RunningQuotaDeferral.class);

    private final ExperimentLifecycle lifecycle;
    private final JdbcTemplate jdbc;
    private final String taskName;
    private final Duration recheck;
    private final Duration backupDelay;

    /** {@code backupDelay}: how much later than the oldest the backup is due (a polling interval). */
    RunningQuotaDeferral(ExperimentLifecycle lifecycle, JdbcTemplate jdbc, String taskName, Duration recheck,
            Duration backupDelay) {
        this.lifecycle = lifecycle;
        this.jdbc = jdbc;
        this.taskName = taskName;
        this.recheck = recheck;
        this.backupDelay = backupDelay;
    }

    /** Hands the job back, due again after the recheck interval (a success: no failure is counted). */
    CompletionHandler<UUID> handBack() {
        return (complete, operations) -> operations.reschedule(complete, Instant.now().plus(recheck));
    }

    /** A run of {@code owner} ended: makes its oldest handed-back jobs due now (null owner: nothing to do). */
    void runEnded(String owner) {
        if (owner == null) {
            return;
        }
        try {
            List<UUID> oldest = lifecycle.oldestQueued(owner, WAKE_PER_END);
            OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
            for (int i = 0; i < oldest.size(); i++) {
                OffsetDateTime due = now.plus(backupDelay.multipliedBy(i));
                jdbc.update("update scheduled_tasks set execution_time = ? where task_name = ? and task_instance = ?"
                        + " and picked = ? and execution_time > ?", due, taskName, oldest.get(i).toString(), false, due);
            }
        } catch (DataAccessException e) {
            // the recheck picks them up instead: a missed wake-up only delays, it never loses a job
            log.warn("could not wake the queued jobs of API key '{}'; they start after the recheck", owner, e);
        }
    }
}
