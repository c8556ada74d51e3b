package io.schedlab.sweeps;

import io.schedlab.experiments.status.ExperimentStatus;
import java.util.Map;

/**
 * A sweep's status, from its children's: QUEUED until one starts, RUNNING until all have
 * finished, then SUCCEEDED (every child succeeded), CANCELLED (the sweep was cancelled and not
 * every child succeeded) or FAILED (some child failed or was cancelled on its own); the table
 * covers the SUCCEEDED children.
 */
public enum SweepStatus {
    QUEUED, RUNNING, SUCCEEDED, FAILED, CANCELLED;

    public boolean finished() {
        return this == SUCCEEDED || this == FAILED || this == CANCELLED;
    }

    /** The status of a sweep of {@code total} children with these counts per child status. */
    public static SweepStatus of(long total, boolean cancelRequested, Map<ExperimentStatus, Long> counts) {
        long queued = counts.getOrDefault(ExperimentStatus.QUEUED, 0L);
        long running = counts.getOrDefault(ExperimentStatus.RUNNING, 0L);
        if (queued + running > 0) {
            return queued == total && !cancelRequested ? QUEUED : RUNNING;
        }
        if (counts.getOrDefault(ExperimentStatus.SUCCEEDED, 0L) == total) {
            return SUCCEEDED;
        }
        return cancelRequested ? CANCELLED : FAILED;
    }
}
