package io.schedlab.sweeps;

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
}
