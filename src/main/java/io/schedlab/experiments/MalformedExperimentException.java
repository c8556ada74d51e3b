package io.schedlab.experiments;

import io.schedlab.engine.spec.Violation;
import java.util.List;

/** The body is not JSON, or a value has the wrong JSON type (400); the violation names where. */
public class MalformedExperimentException extends RuntimeException {
    private final List<Violation> violations;

    public MalformedExperimentException(Violation violation) {
        super(violation.message());
        this.violations = List.of(violation);
    }

    public List<Violation> violations() {
        return violations;
    }
}
