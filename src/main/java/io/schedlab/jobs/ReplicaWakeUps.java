package io.schedlab.jobs;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Wakes every replica's workers when jobs are enqueued anywhere, on PostgreSQL: an enqueue sends
 * {@code NOTIFY schedlab_jobs} in the submitting transaction (PostgreSQL delivers it on commit, once per
 * transaction and channel), and each replica LISTENs on a connection of its own and, on a notification,
 * has db-scheduler look for due jobs at once. db-scheduler's immediate execution wakes only the replica
 * that took the submission; the others found the jobs at their next poll ({@code polling-interval}, 1 s),
 * idle meanwhile. Polling stays the fallback: a missed notification (listener reconnecting) costs at most
 * one polling interval, as before. The same pattern as crates.io's background jobs (NOTIFY on insert,
 * one listening connection per runner, polling kept).
 */
final class ReplicaWakeUps {

    static final String CHANNEL = "schedlab_jobs";
    private static final Logger log = LoggerFactory.getLogger(ReplicaWakeUps.class);
    private static final int RECEIVE_TIMEOUT_MILLIS = 500;
    private static final Duration RECONNECT_DELAY = Duration.ofSeconds(1);

    private final DataSource dataSource;
    private final Runnable wakeWorkers;
    private volatile boolean stopping;
    private Thread listener;

    /** {@code wakeWorkers}: what a notification triggers (db-scheduler's check for due executions). */
    ReplicaWakeUps(DataSource dataSource, Runnable wakeWorkers) {
        this.dataSource = dataSource;
        this.wakeWorkers = wakeWorkers;
    }

    /** Tells every listening replica that jobs were enqueued (delivered when the caller's transaction commits). */
    static void notifyReplicas(JdbcTemplate jdbc) {
        jdbc.execute("NOTIFY " + CHANNEL);
    }

    /** Starts listening (idempotent). */
    synchronized void start() {
        if (listener != null) {
            return;
        }
        stopping = false;
        listener = new Thread(this::listen, "schedlab-job-wake-ups");
        listener.setDaemon(true);
        listener.start();
    }

    /** Stops listening and gives the connection back, within one receive timeout. */
    synchronized void stop() {
        stopping = true;
        if (listener != null) {
            try {
                listener.join(RECEIVE_TIMEOUT_MILLIS * 4L);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            listener = null;
        }
    }

    private void listen() {
        while (!stopping) {
            try (Connection connection = dataSource.getConnection()) {
                try (Statement statement = connection.createStatement()) {
                    statement.execute("LISTEN " + CHANNEL);
                }
                // a LISTEN only hears what commits after it: look once for jobs enqueued before it
                wakeWorkers.run();
                PGConnection pg = connection.unwrap(PGConnection.class);
                while (!stopping) {
                    PGNotification[] received = pg.getNotifications(RECEIVE_TIMEOUT_MILLIS);
                    if (received != null && received.length > 0) {
                        wakeWorkers.run();
                    }
                }
                try (Statement statement = connection.createStatement()) {
                    statement.execute("UNLISTEN " + CHANNEL); // the pooled connection goes back as it came
                }
            } catch (SQLException | RuntimeException e) {
                if (stopping) {
                    return;
                }
                log.warn("listening for enqueued jobs failed ({}); polling covers it, retrying in {}",
                        e.getMessage(), RECONNECT_DELAY);
                sleepBeforeReconnect();
            }
        }
    }

    private void sleepBeforeReconnect() {
        try {
            Thread.sleep(RECONNECT_DELAY.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopping = true;
        }
    }
}
