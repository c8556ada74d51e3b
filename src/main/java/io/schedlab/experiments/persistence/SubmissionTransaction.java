package io.schedlab.experiments.persistence;

/** Runs the store-and-enqueue of one submission in a single database transaction. */
@FunctionalInterface
public interface SubmissionTransaction {

    /** Runs {@code work} in a new transaction that commits when it returns and rolls back when it throws. */
    void run(Runnable work);
}
