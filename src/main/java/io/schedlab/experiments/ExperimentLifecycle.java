package io.schedlab.experiments;

import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.spec.ExperimentSpec;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The state changes a job makes to its experiment record, each in its own short transaction.
 * Implemented by the experiments feature; called by the jobs feature. Transitions that do not
 * apply (e.g. marking a CANCELLED experiment RUNNING) return false and change nothing.
 */
public interface ExperimentLifecycle {

    /** The normalized spec to simulate, or empty if the experiment no longer exists. */
    Optional<ExperimentSpec> normalizedSpec(UUID id);

    /** QUEUED (or RUNNING after a crash) -> RUNNING with started timestamp; false when cancelled or finished. */
    boolean markRunning(UUID id);

    /** As {@link #markRunning(UUID)}, recording {@code replica} (db-scheduler's picked_by) as the one running it. */
    default boolean markRunning(UUID id, String replica) {
        return markRunning(id);
    }

    /** How a {@link #start} attempt ended. */
    enum StartOutcome {
        /** Now RUNNING: simulate it. */
        STARTED,
        /** Gone, cancelled or finished meanwhile: drop the job. */
        GONE,
        /** Its API key already has its quota of RUNNING experiments: still QUEUED, try again later. */
        AT_RUNNING_QUOTA
    }

    /**
     * The outcome of a start, the experiment's owner (null: none, or no running quota applies) and,
     * when STARTED, the normalized spec to simulate (else null).
     */
    record Start(StartOutcome outcome, String owner, ExperimentSpec spec) {
        static Start gone(String owner) {
            return new Start(StartOutcome.GONE, owner, null);
        }
    }

    /**
     * RUNNING (as {@link #markRunning(UUID, String)}) and the normalized spec to simulate, read in the
     * same transaction: one commit where a job took two. Unless the experiment's API key already has
     * its quota of RUNNING experiments ({@code schedlab.quotas.max-running-per-key}): then nothing
     * changes. The check and the start are atomic per key, across workers and replicas. The default
     * has no quota.
     */
    default Start start(UUID id, String replica) {
        Optional<ExperimentSpec> spec = normalizedSpec(id);
        return spec.isPresent() && markRunning(id, replica)
                ? new Start(StartOutcome.STARTED, null, spec.get()) : Start.gone(null);
    }

    /** Up to {@code limit} of the owner's QUEUED experiments, oldest first (whose jobs to wake when a run of it ends). */
    default List<UUID> oldestQueued(String owner, int limit) {
        return List.of();
    }

    /** Progress 0..1 and simulated time reached; called at most every ~500 ms. */
    void updateProgress(UUID id, double fraction, long simulatedNanos);

    /** True once a cancel was requested (the job then stops the engine). */
    boolean cancelRequested(UUID id);

    /** RUNNING -> SUCCEEDED with the full result document and its summary columns. */
    void markSucceeded(UUID id, ResultDocument result);

    /** -> FAILED with a human-readable reason (timeout, event bound, engine error). */
    void markFailed(UUID id, String reason);

    /** -> CANCELLED (the job saw the request and stopped). */
    void markCancelled(UUID id);

    /**
     * -> FAILED keeping the partial result up to the stop (null: none); false when the experiment
     * is gone or already finished. The default keeps no result.
     */
    default boolean markFailed(UUID id, String reason, ResultDocument partial) {
        markFailed(id, reason);
        return true;
    }

    /** -> CANCELLED keeping the partial result (null: none); false when gone or finished. The default keeps no result. */
    default boolean markCancelled(UUID id, ResultDocument partial) {
        markCancelled(id);
        return true;
    }
}
