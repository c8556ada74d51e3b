package io.schedlab.experiments;

/** The answer to a submission: the experiment, and whether it is the replay of an earlier one with the same Idempotency-Key. */
public record Submission(Experiment experiment, boolean replayed) {
}
