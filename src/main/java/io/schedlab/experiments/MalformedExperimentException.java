package io.schedlab.experiments;

import io.schedlab.engine.spec.Violation;
import java.util.List;

/**
 * The body is not JSON, or values have the wrong JSON type (400); each violation names where. With
 * wrongly typed values, the violations also list every other problem of the body (see
 * {@link ExperimentSpecReader#readAll}).
 */
public class MalformedExperimentException extends RuntimeException {
    private final List<Violation> violations;

    public MalformedExperimentException(Violation violation) {
        super(violation.message());
        this.violations = List.of(violation);
    }

    public MalformedExperimentException(List<Violation> violations) {
        super(violations.size() == 1 ? violations.get(0).message()
                : violations.size() + " problems, first: " + at(violations.get(0)));
        this.violations = List.copyOf(violations);
    }

    private static String at(Violation v) {
        return (v.pointer() == null || v.pointer().isEmpty() ? "(document)" : v.pointer()) + ": " + v.message();
    }

    public List<Violation> violations() {
        return violations;
    }
}
