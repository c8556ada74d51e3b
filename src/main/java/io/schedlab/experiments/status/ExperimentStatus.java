package io.schedlab.experiments.status;

/** Where an experiment is in its life: waiting, simulating, or finished one of three ways. */
public enum ExperimentStatus {
    QUEUED, RUNNING, SUCCEEDED, FAILED, CANCELLED;

    /** True for SUCCEEDED, FAILED and CANCELLED: nothing will change any more. */
    public boolean finished() {
        return this == SUCCEEDED || this == FAILED || this == CANCELLED;
    }
}
