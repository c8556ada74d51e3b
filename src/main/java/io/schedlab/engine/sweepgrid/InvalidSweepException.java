package io.schedlab.engine.sweepgrid;

import java.util.List;

/** The sweep, or one of the experiments it expands to, is invalid (422); nothing was stored. */
public class InvalidSweepException extends RuntimeException {
    private final List<SweepViolation> violations;
    private final int total;

    public InvalidSweepException(List<SweepViolation> violations, int total) {
        super("the sweep is invalid: " + total + " problem(s)");
        this.violations = List.copyOf(violations);
        this.total = total;
    }

    public InvalidSweepException(List<SweepViolation> violations) {
        this(violations, violations.size());
    }

    /** The problems reported (at most {@link SweepPlanner#MAX_REPORTED_VIOLATIONS}). */
    public List<SweepViolation> violations() {
        return violations;
    }

    /** How many problems there were in all. */
    public int total() {
        return total;
    }
}
