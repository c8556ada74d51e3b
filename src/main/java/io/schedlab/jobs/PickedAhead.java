package io.schedlab.jobs;

import com.github.kagkarlsson.scheduler.task.Execution;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Jobs this process locked in the database ahead of a free worker ({@code schedlab.jobs.pick-ahead}),
 * kept alive by a heartbeat of their own until a worker starts them.
 * <p>
 * db-scheduler writes heartbeats only for executions that are running ({@code Scheduler.updateHeartbeats}
 * walks {@code Executor.currentlyProcessing}); a job picked by lock-and-fetch and waiting in the executor's
 * queue keeps the {@code last_heartbeat} of its pick, so one waiting behind a run longer than
 * {@code heartbeat-interval x missed-heartbeats} would be revived as dead and run by a second worker while
 * this one still holds it. Every heartbeat interval this writes the waiting jobs' heartbeats (same row and
 * version, as db-scheduler's own {@code updateHeartbeat}); a started job leaves this set and db-scheduler's
 * heartbeat takes over; a job whose row changed (revived, removed) is dropped. When this process dies the
 * beats stop with it and the jobs are revived after the usual dead time.
 */
final class PickedAhead {

    private static final Logger log = LoggerFactory.getLogger(PickedAhead.class);
    private static final String BEAT = "update scheduled_tasks set last_heartbeat = ?"
            + " where task_name = ? and task_instance = ? and version = ? and picked";

    private final Map<String, Execution> waiting = new ConcurrentHashMap<>();
    private final JdbcTemplate jdbc;
    private final Duration interval;
    private final Clock clock;
    private ScheduledExecutorService beats;

    PickedAhead(JdbcTemplate jdbc, Duration interval, Clock clock) {
        this.jdbc = jdbc;
        this.interval = interval;
        this.clock = clock;
    }

    /** Executions just locked by this process's lock-and-fetch. */
    void picked(List<Execution> executions) {
        for (Execution e : executions) {
            waiting.put(e.taskInstance.getId(), e);
        }
    }

    /** A worker started the job: db-scheduler's own heartbeat covers it from here. */
    void started(Execution execution) {
        waiting.remove(execution.taskInstance.getId());
    }

    /** Jobs picked and not yet started. */
    int waiting() {
        return waiting.size();
    }

    /** Writes one heartbeat for every waiting job; returns how many rows it kept alive. */
    int beat() {
        List<Execution> batch = new ArrayList<>(waiting.values());
        if (batch.isEmpty()) {
            return 0;
        }
        Timestamp now = Timestamp.from(clock.instant());
        int[][] counts = jdbc.batchUpdate(BEAT, batch, batch.size(), (ps, e) -> {
            ps.setTimestamp(1, now);
            ps.setString(2, e.taskInstance.getTaskName());
            ps.setString(3, e.taskInstance.getId());
            ps.setLong(4, e.version);
        });
        int kept = 0;
        for (int i = 0; i < batch.size(); i++) {
            if (counts[0][i] == 0) {
                waiting.remove(batch.get(i).taskInstance.getId(), batch.get(i)); // revived or gone: not ours any more
            } else {
                kept++;
            }
        }
        return kept;
    }

    /** Starts the heartbeat thread (idempotent). */
    synchronized void start() {
        if (beats != null) {
            return;
        }
        beats = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "schedlab-pick-ahead-heartbeat");
            t.setDaemon(true);
            return t;
        });
        beats.scheduleWithFixedDelay(this::beatLogged, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Stops the heartbeat thread; jobs still waiting are revived elsewhere after the dead time. */
    synchronized void stop() {
        if (beats != null) {
            beats.shutdownNow();
            beats = null;
        }
        waiting.clear();
    }

    private void beatLogged() {
        try {
            beat();
        } catch (DataAccessException e) {
            // the next beat retries; after missed-heartbeats failures the jobs are revived, as running ones are
            log.warn("heartbeat of {} picked-ahead jobs failed: {}", waiting.size(), e.getMessage());
        }
    }
}
