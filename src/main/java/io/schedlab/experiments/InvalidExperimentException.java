package io.schedlab.experiments;

import io.schedlab.engine.spec.Violation;
import java.util.List;

/** Well-formed JSON of the right types that does not describe a valid experiment (422). */
public class InvalidExperimentException extends RuntimeException {
    private final List<Violation> violations;

    public InvalidExperimentException(List<Violation> violations) {
        super("the experiment is invalid: " + violations.size() + " violation(s)");
        this.violations = List.copyOf(violations);
    }

    public List<Violation> violations() {
        return violations;
    }
}
