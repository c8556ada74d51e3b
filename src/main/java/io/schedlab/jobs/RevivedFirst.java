package io.schedlab.jobs;

import com.github.kagkarlsson.scheduler.task.DeadExecutionHandler;
import com.github.kagkarlsson.scheduler.task.Execution;
import com.github.kagkarlsson.scheduler.task.ExecutionComplete;
import com.github.kagkarlsson.scheduler.task.ExecutionOperations;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Interrupted runs first: a job whose process died (killed, or stopped without handing it back) is due again
 * at its <em>original</em> execution time, so it sorts before every job queued after it, and this process
 * starts no newer job while a revived one waits unpicked.
 * <p>
 * db-scheduler's {@code DeadExecutionHandler.ReviveDeadExecution} reschedules a dead execution to "now", behind
 * everything already queued: with a full queue the interrupted run started again only after all of it (67-70 s
 * after a kill on H2 with 38 queued). Both polling strategies pick due jobs by execution time ({@code ORDER BY
 * execution_time ASC}, db-scheduler 16.12 {@code jdbc.Queries}; {@code priority DESC} first only with
 * {@code enablePriority()}, not used here), so keeping the original time puts the run at the head of the queue. Jobs fetched before the revival may still wait in this process's worker queue, ahead of
 * the revived ones (lock-and-fetch: the picked-ahead ones, locked; fetch: candidates, dropped as stale by the
 * fetch the revival triggers unless a worker picks one first): {@link #mayStart} hands each of them back unstarted (a version-checked un-pick, as
 * {@link PickedAhead}'s) while a job this process revived has not started (due and unpicked, so the next fetch
 * takes it first, or already fetched into this process's worker queue behind them). Which process revives does not matter: every replica runs db-scheduler's dead-execution
 * check, the first to see the job revives it, and its workers are the ones that defer.
 * <p>
 * A revived job is forgotten once it is picked (here or by another replica), gone, or no longer due, or after
 * {@link #forgetAfter} at the latest, so a job that cannot be picked never holds the queue.
 * <p>
 * A job is revived only when this process's own dead-execution checks have run without a gap for the dead
 * threshold ({@link UnbrokenDeadChecks}): after the database was away, every heartbeat is stale, those of
 * replicas still running their jobs too, so the revival waits until they have had the threshold to beat again
 * (db-scheduler revives on {@code last_heartbeat} alone). A job whose heartbeat moved meanwhile is no longer
 * found dead; one whose replica really died is revived one threshold after the database came back.
 */
final class RevivedFirst implements DeadExecutionHandler<UUID> {

    /**
     * Longest a revived job holds newer ones back. Holding is only needed until the next fetch after a worker
     * frees (the revived job is the oldest due one, so any fetch takes it); the bound covers a job that no
     * process can pick (none should exist).
     */
    static final Duration FORGET_AFTER = Duration.ofMinutes(5);
    private static final Logger log = LoggerFactory.getLogger(RevivedFirst.class);
    private static final String HAND_BACK = "update scheduled_tasks set picked = ?, picked_by = null,"
            + " last_heartbeat = null, version = version + 1"
            + " where task_name = ? and task_instance = ? and version = ? and picked";

    /** Revived job (task instance id) -> when it was revived (nano clock). */
    private final Map<String, Long> waiting = new ConcurrentHashMap<>();
    private final JdbcTemplate jdbc;
    private final String taskName;
    private final String replica;
    private final Duration forgetAfter;
    private final LongSupplier nanoClock;
    private final Runnable handedBack;
    private final BooleanSupplier checksUnbroken;

    /**
     * @param replica        this process's scheduler name (db-scheduler's picked_by)
     * @param forgetAfter    how long a revived job may hold back newer ones at most
     * @param handedBack     run after a newer job went back to the queue (wakes the replicas)
     * @param checksUnbroken true when this process has watched the heartbeats without a gap for the dead threshold
     */
    RevivedFirst(JdbcTemplate jdbc, String taskName, String replica, Duration forgetAfter, LongSupplier nanoClock,
            Runnable handedBack, BooleanSupplier checksUnbroken) {
        this.checksUnbroken = checksUnbroken;
        this.jdbc = jdbc;
        this.taskName = taskName;
        this.replica = replica;
        this.forgetAfter = forgetAfter;
        this.nanoClock = nanoClock;
        this.handedBack = handedBack;
    }

    /** db-scheduler found {@code complete}'s execution dead: due again at its first execution time. */
    @Override
    public void deadExecution(ExecutionComplete complete, ExecutionOperations<UUID> operations) {
        Execution execution = complete.getExecution();
        if (!checksUnbroken.getAsBoolean()) {
            // left as it is: the next check finds it again, dead or beating
            log.info("job {} of replica '{}' has a stale heartbeat, but this process lost the database meanwhile:"
                    + " not reviving it before its replica had time to beat again", execution.taskInstance.getId(),
                    execution.pickedBy);
            return;
        }
        Instant dueAt = revivedExecutionTime(execution, Instant.now());
        log.info("reviving job {} of dead replica '{}' due at {} (its place in the queue)",
                execution.taskInstance.getId(), execution.pickedBy, dueAt);
        // as ReviveDeadExecution: a failure (consecutive_failures + 1, last_failure), unpicked, due at dueAt
        operations.reschedule(complete, dueAt);
        waiting.put(execution.taskInstance.getId(), nanoClock.getAsLong());
    }

    /** The original execution time, unless in the future (a job is picked only when due, so never in practice). */
    static Instant revivedExecutionTime(Execution execution, Instant now) {
        return execution.executionTime.isAfter(now) ? now : execution.executionTime;
    }

    /** Revived jobs this process still waits for. */
    int waiting() {
        return waiting.size();
    }

    /**
     * A worker is about to start {@code execution}: false when it was handed back to the queue instead, because
     * a job revived here is still due and unpicked (the caller then completes it with nothing to do).
     */
    boolean mayStart(Execution execution) {
        if (waiting.isEmpty()) {
            return true;
        }
        if (waiting.remove(execution.taskInstance.getId()) != null) {
            return true;
        }
        if (stillWaiting().isEmpty()) {
            return true;
        }
        try {
            if (jdbc.update(HAND_BACK, false, taskName, execution.taskInstance.getId(), execution.version) == 1) {
                log.debug("job {} handed back: revived jobs start first", execution.taskInstance.getId());
                wakeReplicas();
                return false;
            }
            // 0 rows: the row changed meanwhile (removed with its experiment): not ours to start
            return false;
        } catch (DataAccessException e) {
            log.warn("could not hand back job {} behind revived ones, starting it: {}",
                    execution.taskInstance.getId(), e.toString());
            return true;
        }
    }

    /**
     * Prunes and returns the revived jobs not started yet: still due and unpicked, or picked by this process
     * (fetched into its worker queue, possibly behind newer jobs picked ahead before the revival: those are
     * handed back as workers reach them, until a worker reaches the revived one). One picked by another
     * process is that process's to start.
     */
    private Set<String> stillWaiting() {
        long now = nanoClock.getAsLong();
        waiting.entrySet().removeIf(e -> now - e.getValue() >= forgetAfter.toNanos());
        List<String> ids = new ArrayList<>(waiting.keySet());
        if (ids.isEmpty()) {
            return Set.of();
        }
        Set<String> unpicked;
        try {
            String in = String.join(",", java.util.Collections.nCopies(ids.size(), "?"));
            List<Object> args = new ArrayList<>();
            args.add(taskName);
            args.add(false);
            args.add(Timestamp.from(Instant.now()));
            args.add(true);
            args.add(replica);
            args.addAll(ids);
            unpicked = new HashSet<>(jdbc.queryForList("select task_instance from scheduled_tasks where task_name = ?"
                    + " and ((picked = ? and execution_time <= ?) or (picked = ? and picked_by = ?))"
                    + " and task_instance in (" + in + ")", String.class, args.toArray()));
        } catch (DataAccessException e) {
            log.warn("could not read the revived jobs, not holding newer ones back: {}", e.toString());
            return Set.of();
        }
        ids.stream().filter(id -> !unpicked.contains(id)).forEach(waiting::remove);
        return unpicked;
    }

    private void wakeReplicas() {
        try {
            handedBack.run();
        } catch (RuntimeException e) {
            log.warn("waking the replicas for a handed-back job failed (they find it at their next poll): {}",
                    e.toString());
        }
    }
}
