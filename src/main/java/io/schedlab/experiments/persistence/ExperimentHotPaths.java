package io.schedlab.experiments.persistence;

import io.schedlab.experiments.status.ExperimentStatus;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The statements a submission and a running job execute, as plain SQL. State changes are
 * conditional single-statement updates (status in the WHERE clause, version bumped), so a job and
 * a cancel request racing each other never both win. Each returns the number of rows changed.
 */
public interface ExperimentHotPaths {

    /**
     * These statements on {@code dataSource} directly, without the repository's proxy: for callers
     * that run them in a JDBC transaction of their own ({@code JdbcTransactionManager}), where the
     * JPA repository's transaction interceptor must not take part (the job path).
     */
    static ExperimentHotPaths jdbc(javax.sql.DataSource dataSource) {
        return new ExperimentHotPathsImpl(dataSource);
    }

    /** Inserts a QUEUED row in the caller's transaction; a duplicate id fails it. */
    void insertQueued(NewExperiment experiment);

    /**
     * {@link #insertQueued(NewExperiment)} for several experiments as one JDBC batch (a sweep's children).
     * Not a default method: the repository's proxy would run an interface default itself instead of the
     * implementation's batch.
     */
    void insertQueuedAll(List<NewExperiment> experiments);

    /** The normalized input as JSON text (jsonb on PostgreSQL, text on H2). */
    Optional<String> findInputNormalized(UUID id);

    /** The result document as JSON text (empty when there is no such experiment or no result yet). */
    Optional<String> findResult(UUID id);

    /** Whether a cancel was requested (empty when there is no such experiment). */
    Optional<Boolean> findCancelRequested(UUID id);

    /** {@code from} -> {@code to} (RUNNING), started now, progress reset; not when a cancel was requested. */
    default int start(UUID id, Collection<ExperimentStatus> from, ExperimentStatus to, Instant now) {
        return start(id, from, to, now, null);
    }

    /**
     * As {@link #start(UUID, Collection, ExperimentStatus, Instant)}, recording {@code runner} as the
     * replica that runs it ({@code run_by}) in the same statement; null leaves {@code run_by} as it is.
     */
    int start(UUID id, Collection<ExperimentStatus> from, ExperimentStatus to, Instant now, String runner);

    /**
     * The current transaction's commit returns without waiting for the database's disk flush
     * (PostgreSQL: {@code SET LOCAL synchronous_commit = off}, this transaction only); nothing on H2.
     * Only for writes whose loss in a database-server crash is harmless: the change is visible to every
     * session at once and survives any replica dying; a server crash within ~3 x wal_writer_delay
     * (600 ms by default) may undo it, never half of it (PostgreSQL manual, "Asynchronous Commit").
     */
    void commitWithoutFlushWait();

    /** Progress of an experiment still in {@code status}. */
    int progress(UUID id, ExperimentStatus status, double progress, long simulatedNanos);

    /** {@code from} -> {@code to} (a final status) with an optional failure reason. */
    int finish(UUID id, Collection<ExperimentStatus> from, ExperimentStatus to, String reason, Instant now);

    /** {@code from} -> {@code to} only when a cancel was requested. */
    int finishCancelRequested(UUID id, Collection<ExperimentStatus> from, ExperimentStatus to, Instant now);

    /** Flags a cancel request on an experiment in {@code status}. */
    int requestCancel(UUID id, ExperimentStatus status);

    /**
     * {@code from} -> {@code to} (FAILED or CANCELLED) with a failure reason (or null) and the
     * partial result document and its summary columns; progress stays where the run stopped.
     */
    int finishWithResult(UUID id, Collection<ExperimentStatus> from, ExperimentStatus to, String reason, Instant now,
            long simulatedNanos, String result, double wallSeconds, long events, long contextSwitches,
            long migrations, Double jainFairness);

    /** The API key that submitted the experiment (empty: no such experiment, or submitted without keys). */
    Optional<String> findOwner(UUID id);

    /**
     * Locks the owner's row of {@code quota_owners} (V15) until the caller's transaction ends, so
     * the starts of one owner's experiments take turns; false when the owner has no row yet.
     */
    boolean lockQuotaOwner(String owner);

    /** Adds the owner's {@code quota_owners} row; a concurrent duplicate fails with a DuplicateKeyException. */
    void insertQuotaOwner(String owner);

    /** The owner's RUNNING experiments other than {@code except}. */
    long countRunning(String owner, UUID except);

    /** Up to {@code limit} of the owner's QUEUED experiments, oldest first. */
    List<UUID> oldestQueued(String owner, int limit);

    /** Deletes the experiment row; 1 if it existed. */
    int delete(UUID id);

    /** {@code from} -> {@code to} (SUCCEEDED) with the result document and its summary columns. */
    int succeed(UUID id, ExperimentStatus from, ExperimentStatus to, Instant now, long simulatedNanos, String result,
            double wallSeconds, long events, long contextSwitches, long migrations, Double jainFairness,
            String engineVersion);
}
