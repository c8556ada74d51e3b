package io.schedlab.engine;

import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Violation;
import java.util.List;

/** Outcome of validating a raw spec: the normalized spec (every default filled in) when valid, else the violations. */
public record Validation(ExperimentSpec normalized, List<Violation> violations) {

    public boolean valid() {
        return violations.isEmpty();
    }
}
