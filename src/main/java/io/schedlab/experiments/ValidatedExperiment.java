package io.schedlab.experiments;

import io.schedlab.engine.spec.ExperimentSpec;

/** A submission that passed validation: the text exactly as sent and the normalized spec (every default filled in). */
public record ValidatedExperiment(String raw, ExperimentSpec normalized, String normalizedJson) {
}
