package io.schedlab.experiments;

import io.schedlab.engine.spec.ExperimentSpec;
import tools.jackson.databind.JsonNode;

/**
 * A submission that passed validation: the text exactly as sent, the normalized spec (every default
 * filled in) and its checked {@code notify} object (null: none).
 */
public record ValidatedExperiment(String raw, ExperimentSpec normalized, String normalizedJson, JsonNode notifyTarget) {

    /** Without a notify object. */
    public ValidatedExperiment(String raw, ExperimentSpec normalized, String normalizedJson) {
        this(raw, normalized, normalizedJson, null);
    }
}
