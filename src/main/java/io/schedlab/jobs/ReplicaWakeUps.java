package io.schedlab.jobs;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
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
 * one listening connection per runner, polling kept). The listener holds one pooled connection; a NOTIFY
 * takes PostgreSQL's notification queue lock at commit, so enqueueing commits are serialised at that point
 * (cheap at this service's submission rates).
 */
final class ReplicaWakeUps {

    static final String CHANNEL = "schedlab_jobs";
    private static final Logger log = LoggerFactory.getLogger(ReplicaWakeUps.class);
    private static final int RECEIVE_TIMEOUT_MILLIS = 500;
    private static final Duration RECONNECT_DELAY = Duration.ofSeconds(1);
    private static final Duration CONNECTION_CHECK = Duration.ofSeconds(30);
    private static final Duration NETWORK_TIMEOUT = Duration.ofSeconds(10);

    private final DataSource dataSource;
    private final Runnable wakeWorkers;
    private AtomicBoolean running;

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
        if (running != null) {
            return;
        }
        AtomicBoolean token = new AtomicBoolean(true); // this thread's own: a later start never revives it
        running = token;
        Thread listener = new Thread(() -> listen(token), "schedlab-job-wake-ups");
        listener.setDaemon(true);
        listener.start();
    }

    /** Stops listening; the thread gives its connection back within one receive timeout. */
    synchronized void stop() {
        if (running != null) {
            running.set(false);
            running = null;
        }
    }

    private void listen(AtomicBoolean running) {
        while (running.get()) {
            Connection connection = null;
            try {
                connection = dataSource.getConnection();
                listenOn(connection, running);
                try (Statement statement = connection.createStatement()) {
                    statement.execute("UNLISTEN " + CHANNEL); // the pooled connection goes back as it came
                }
                connection.close();
            } catch (SQLException | RuntimeException e) {
                discard(connection);
                if (!running.get()) {
                    return;
                }
                log.warn("listening for enqueued jobs failed ({}); polling covers it, retrying in {}",
                        e.getMessage(), RECONNECT_DELAY);
                sleepBeforeReconnect(running);
            }
        }
    }

    private void listenOn(Connection connection, AtomicBoolean running) throws SQLException {
        // a check on a connection dropped without a reset fails after this, not after TCP's retransmissions
        // (Hikari restores the pool's setting when the connection goes back)
        connection.setNetworkTimeout(Runnable::run, (int) NETWORK_TIMEOUT.toMillis());
        try (Statement statement = connection.createStatement()) {
            statement.execute("LISTEN " + CHANNEL);
        }
        // a LISTEN only hears what commits after it: look once for jobs enqueued before it
        wakeWorkers.run();
        PGConnection pg = connection.unwrap(PGConnection.class);
        long lastCheck = System.nanoTime();
        while (running.get()) {
            PGNotification[] received = pg.getNotifications(RECEIVE_TIMEOUT_MILLIS);
            if (received != null && received.length > 0) {
                wakeWorkers.run();
            }
            if (System.nanoTime() - lastCheck > CONNECTION_CHECK.toNanos()) {
                // waiting for notifications sends nothing: a dropped connection is noticed here (and NAT and
                // firewall idle timers see traffic)
                try (Statement statement = connection.createStatement()) {
                    statement.execute("SELECT 1");
                }
                lastCheck = System.nanoTime();
            }
        }
    }

    /** A connection that failed (or may still LISTEN) is taken out of the pool instead of going back to it. */
    private void discard(Connection connection) {
        if (connection == null) {
            return;
        }
        try {
            if (dataSource.isWrapperFor(HikariDataSource.class)) {
                dataSource.unwrap(HikariDataSource.class).evictConnection(connection);
            } else {
                connection.close();
            }
        } catch (SQLException | RuntimeException ignored) {
            // already broken: nothing more to give back
        }
    }

    private static void sleepBeforeReconnect(AtomicBoolean running) {
        try {
            Thread.sleep(RECONNECT_DELAY.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running.set(false);
        }
    }
}
