package io.schedlab.jobs;

import com.github.kagkarlsson.scheduler.task.Execution;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Jobs this process locked in the database ahead of a free worker ({@code schedlab.jobs.pick-ahead}): each
 * is started by a worker within one heartbeat interval, or handed back to the queue for any replica.
 * <p>
 * A job picked by lock-and-fetch waits in db-scheduler's executor queue, and db-scheduler writes no
 * heartbeat for it ({@code Scheduler.updateHeartbeats} covers running executions only): one waiting behind
 * a long run would be revived as dead elsewhere while this process still holds it, and held meanwhile
 * while other replicas are idle. So every half interval the jobs waiting longer than the interval are
 * handed back (a version-checked un-pick, as db-scheduler's own {@code reschedule}); the dead time is at
 * least four intervals ({@code missed-heartbeats} >= 4), so no waiting job is ever old enough to be revived.
 * Each job is claimed once, by the worker that starts it or by the hand-back ({@link #claimForStart}), so a
 * handed-back job never also runs here.
 */
final class PickedAhead {

    private static final Logger log = LoggerFactory.getLogger(PickedAhead.class);
    private static final String HAND_BACK = "update scheduled_tasks set picked = ?, picked_by = null,"
            + " last_heartbeat = null, version = version + 1"
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
     * A worker is about to start {@code execution}: false when it was handed back meanwhile (do not run it).
     * A handed-back job stays in the map until this call, so the worker learns of it.
     */
    boolean claimForStart(Execution execution) {
        Waiting w = waiting.remove(key(execution));
        return w == null || w.claimed().compareAndSet(false, true);
    }

    /** Jobs picked and neither started nor handed back. */
    int waiting() {
        return (int) waiting.values().stream().filter(w -> !w.claimed().get()).count();
    }

    /** Hands back every job waiting longer than the maximum wait; returns how many went back. */
    int handBackOverdue() {
        long now = nanoClock.getAsLong();
        List<Execution> overdue = new ArrayList<>();
        for (Waiting w : waiting.values()) {
            if (now - w.pickedNanos() >= maxWait.toNanos() && w.claimed().compareAndSet(false, true)) {
                overdue.add(w.execution()); // left in the map: its worker, when it comes, is told not to run it
            }
        }
        int back = 0;
        for (Execution e : overdue) {
            // 0 rows: the row changed meanwhile (removed with its experiment, or revived); either way not ours
            back += jdbc.update(HAND_BACK, false, e.taskInstance.getTaskName(), e.taskInstance.getId(), e.version);
        }
        if (back > 0) {
            log.debug("handed {} picked-ahead jobs back to the queue", back);
            handedBack.run();
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

    /** Stops the hand-back thread; jobs still picked are handed back by the workers' stop or revived after the dead time. */
    synchronized void stop() {
        if (sweeper != null) {
            sweeper.shutdownNow();
            sweeper = null;
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
