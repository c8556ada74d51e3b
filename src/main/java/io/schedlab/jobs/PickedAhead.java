package io.schedlab.jobs;

import com.github.kagkarlsson.scheduler.task.Execution;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Jobs this process locked in the database ahead of a free worker ({@code schedlab.jobs.pick-ahead}): each
 * is started by a worker within about one heartbeat interval, or handed back to the queue for any replica.
 * <p>
 * A job picked by lock-and-fetch waits in db-scheduler's executor queue, and db-scheduler writes no
 * heartbeat for it ({@code Scheduler.updateHeartbeats} covers running executions only): one waiting behind
 * a long run would be revived as dead elsewhere while this process still holds it, and held meanwhile
 * while other replicas are idle. So every half interval the jobs waiting longer than the interval are
 * handed back (a version-checked un-pick, as db-scheduler's own {@code reschedule}); the dead time is at
 * least four intervals ({@code missed-heartbeats} >= 4), so a job handed back on time is never old enough to
 * be revived; should the hand-back be late (a pause, a failing database), the worker checks the row is still
 * this pick before it runs the job. Each job is claimed once, by the worker that starts it or by the
 * hand-back ({@link #claimForStart}), so a handed-back job's copy queued here never runs.
 */
final class PickedAhead {

    private static final Logger log = LoggerFactory.getLogger(PickedAhead.class);
    private static final String HAND_BACK = "update scheduled_tasks set picked = ?, picked_by = null,"
            + " last_heartbeat = null, version = version + 1"
            + " where task_name = ? and task_instance = ? and version = ? and picked";
    /** db-scheduler's heartbeat statement (JdbcTaskRepository.updateHeartbeat) restricted to picked rows: 1 row = still ours. */
    private static final String STILL_OURS = "update scheduled_tasks set last_heartbeat = ?"
            + " where task_name = ? and task_instance = ? and version = ? and picked";

    /** A picked job and whether the worker or the hand-back has taken it. */
    private record Waiting(Execution execution, long pickedNanos, AtomicBoolean claimed) {
    }

    private final Map<String, Waiting> waiting = new ConcurrentHashMap<>();
    private final JdbcTemplate jdbc;
    private final Duration maxWait;
    private final LongSupplier nanoClock;
    private final Runnable handedBack;
    private ScheduledExecutorService sweeper;

    /**
     * @param maxWait    how long a picked job may wait for a worker (the heartbeat interval)
     * @param handedBack run after jobs went back to the queue (wakes the replicas)
     */
    PickedAhead(JdbcTemplate jdbc, Duration maxWait, LongSupplier nanoClock, Runnable handedBack) {
        this.jdbc = jdbc;
        this.maxWait = maxWait;
        this.nanoClock = nanoClock;
        this.handedBack = handedBack;
    }

    /** Executions just locked by this process's lock-and-fetch. */
    void picked(List<Execution> executions) {
        long now = nanoClock.getAsLong();
        for (Execution e : executions) {
            waiting.put(key(e), new Waiting(e, now, new AtomicBoolean()));
        }
    }

    /**
     * A worker is about to start {@code execution}: false when it must not run it, because it was handed back
     * meanwhile (a handed-back job stays in the map until this call, so the worker learns of it) or, having
     * waited longer than the maximum wait (the hand-back thread late: a pause, a failing database), its row
     * is no longer this pick's: revived elsewhere as dead, or gone. A job younger than the maximum wait
     * cannot have been revived (the dead time is at least four of them) and starts without a query.
     */
    boolean claimForStart(Execution execution) {
        Waiting w = waiting.remove(key(execution));
        if (w == null) {
            return true;
        }
        if (!w.claimed().compareAndSet(false, true)) {
            return false;
        }
        if (nanoClock.getAsLong() - w.pickedNanos() < maxWait.toNanos()) {
            return true;
        }
        try {
            return jdbc.update(STILL_OURS, Timestamp.from(Instant.now()), execution.taskInstance.getTaskName(),
                    execution.taskInstance.getId(), execution.version) == 1;
        } catch (DataAccessException e) {
            // not known to be ours: leave it (still picked, it is revived within the dead time) rather than run
            // it or let the failure handler touch a row another replica may hold
            log.warn("could not check job {} before starting it, leaving it to be revived: {}",
                    execution.taskInstance.getId(), e.toString());
            return false;
        }
    }

    /** Jobs picked and neither started nor handed back. */
    int waiting() {
        return (int) waiting.values().stream().filter(w -> !w.claimed().get()).count();
    }

    /** Hands back every job waiting longer than the maximum wait; returns how many went back. */
    int handBackOverdue() {
        long now = nanoClock.getAsLong();
        return handBack(w -> now - w.pickedNanos() >= maxWait.toNanos());
    }

    /** Hands back every job still waiting (a stopping process: other replicas take them at once). */
    int handBackAll() {
        return handBack(w -> true);
    }

    private int handBack(Predicate<Waiting> which) {
        List<Execution> claimed = new ArrayList<>();
        for (Waiting w : waiting.values()) {
            if (which.test(w) && w.claimed().compareAndSet(false, true)) {
                claimed.add(w.execution()); // left in the map: its worker, when it comes, is told not to run it
            }
        }
        int back = 0;
        try {
            for (Execution e : claimed) {
                try {
                    // 0 rows: the row changed meanwhile (removed with its experiment, or revived): not ours
                    back += jdbc.update(HAND_BACK, false, e.taskInstance.getTaskName(), e.taskInstance.getId(),
                            e.version);
                } catch (RuntimeException failed) {
                    // claimed, so never run here; still picked, so revived after the dead time like a dead replica's
                    log.warn("handing back job {} failed: {}", e.taskInstance.getId(), failed.toString());
                }
            }
        } finally {
            if (back > 0) {
                log.debug("handed {} picked-ahead jobs back to the queue", back);
                wakeReplicas();
            }
        }
        return back;
    }

    /** Starts the hand-back thread, every half maximum wait (idempotent). */
    synchronized void start() {
        if (sweeper != null) {
            return;
        }
        sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "schedlab-pick-ahead");
            t.setDaemon(true);
            return t;
        });
        long period = Math.max(1, maxWait.toMillis() / 2);
        sweeper.scheduleWithFixedDelay(this::handBackLogged, period, period, TimeUnit.MILLISECONDS);
    }

    /** Stops the hand-back thread (after {@link #handBackAll}: what is left is revived after the dead time). */
    synchronized void stop() {
        if (sweeper != null) {
            sweeper.shutdownNow();
            sweeper = null;
        }
    }

    private void wakeReplicas() {
        try {
            handedBack.run();
        } catch (RuntimeException e) {
            log.warn("waking the replicas for handed-back jobs failed (they find them at their next poll): {}",
                    e.toString());
        }
    }

    private void handBackLogged() {
        try {
            handBackOverdue();
        } catch (RuntimeException e) {
            // never let one failure end the schedule: a claimed job not handed back stays picked and, with no
            // heartbeat, is revived after the dead time like a dead replica's
            log.warn("handing back picked-ahead jobs failed: {}", e.toString());
        }
    }

    /** Executions of one task share the instance id space; the version tells a later pick of the same job apart. */
    private static String key(Execution e) {
        return e.taskInstance.getTaskName() + "/" + e.taskInstance.getId() + "/" + e.version;
    }
}
