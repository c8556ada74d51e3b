package io.schedlab.sweeps.persistence;

import java.util.UUID;

/** The link of a child experiment to its sweep: which cell and which repetition it is. */
public record NewSweepChild(UUID experimentId, int cellIndex, int repetition) {
}
