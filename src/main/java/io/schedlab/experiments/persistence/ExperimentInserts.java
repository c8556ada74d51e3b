package io.schedlab.experiments.persistence;

/** Stores new experiments with one SQL statement (the submission hot path). */
public interface ExperimentInserts {

    /** Inserts a QUEUED row in the caller's transaction; a duplicate id fails it. */
    void insertQueued(NewExperiment experiment);
}
