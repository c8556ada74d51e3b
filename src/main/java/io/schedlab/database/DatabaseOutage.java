package io.schedlab.database;

import java.net.ConnectException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;

/**
 * Tells a failure of the database connection (the server stopped, unreachable, or no connection
 * within the pool's {@code spring.datasource.hikari.connection-timeout}) from any other error: the
 * API answers it {@code 503 database-unavailable} with Retry-After, as a passing condition, instead
 * of a 500. The exceptions are Spring's translations ({@code DataAccessResourceFailureException},
 * {@code CannotCreateTransactionException}) and, underneath, JDBC's connection classes
 * (SQLSTATE class 08, {@code SQLNonTransientConnectionException}; HikariCP's pool timeout is a
 * {@code SQLTransientConnectionException}), PostgreSQL's operator-intervention states of a server
 * stopping or starting (SQLSTATE 57P01 {@code admin_shutdown}, 57P02 {@code crash_shutdown}, 57P03
 * {@code cannot_connect_now}: PostgreSQL manual, appendix A "PostgreSQL Error Codes"; a fast
 * {@code pg_ctl stop} ends every session with 57P01), and a rollback that failed because the
 * connection was already gone. Used by the API (its 503) and by the jobs (a result waits for the
 * database instead of failing its run).
 */
public final class DatabaseOutage {

    /** How long a client is asked to wait: about one readiness probe period. */
    public static final Duration RETRY_AFTER = Duration.ofSeconds(5);

    /**
     * HikariCP's answer on a connection it closed under the caller (evicted as broken), with no
     * SQLSTATE (HikariCP {@code ProxyConnection.ClosedConnection}).
     */
    private static final String HIKARI_CLOSED = "Connection is closed";

    /** SQLSTATE prefix of PostgreSQL's 57P01, 57P02 and 57P03 (the server shutting down or starting up). */
    private static final String SERVER_STOPPING = "57P0";

    private DatabaseOutage() {
    }

    /** True when {@code e} or one of its causes says the database cannot be reached. */
    public static boolean isCause(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            // a failed rollback hides the statement's own failure: look at that one too
            if (t instanceof TransactionSystemException tx && tx.getApplicationException() != null
                    && tx.getApplicationException() != e && isCause(tx.getApplicationException())) {
                return true;
            }
            if (t instanceof DataAccessResourceFailureException || t instanceof CannotCreateTransactionException
                    || t instanceof SQLTransientConnectionException || t instanceof SQLNonTransientConnectionException
                    || t instanceof ConnectException
                    || (t instanceof java.sql.SQLException sql && sql.getSQLState() != null
                            && (sql.getSQLState().startsWith("08") || sql.getSQLState().startsWith(SERVER_STOPPING)))
                    || (t instanceof java.sql.SQLException closed && HIKARI_CLOSED.equals(closed.getMessage()))) {
                return true;
            }
        }
        return false;
    }

    /** The deepest cause's message, for the log (no stack trace for a known outage). */
    public static String describe(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }
}
