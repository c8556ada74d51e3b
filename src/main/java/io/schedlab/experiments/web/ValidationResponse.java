package io.schedlab.experiments.web;

import io.schedlab.engine.spec.ExperimentSpec;

/** A valid experiment, normalized: every default filled in, exactly what would be simulated. */
record ValidationResponse(boolean valid, ExperimentSpec normalized) {
}
