package io.schedlab.experiments.web;

import io.schedlab.engine.spec.ExperimentSpec;

/** The stored input of an experiment: the body exactly as sent (text) and the normalized spec. */
record ExperimentInputResponse(String raw, ExperimentSpec normalized) {
}
