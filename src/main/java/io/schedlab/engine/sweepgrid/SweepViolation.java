package io.schedlab.engine.sweepgrid;

/**
 * One reason a sweep is invalid: {@code pointer} into the sweep document; for a problem of one
 * expanded experiment also its {@code cell} (key and index) and the pointer inside that experiment.
 */
public record SweepViolation(String pointer, String message, String cell, Integer cellIndex,
        String experimentPointer) {

    /** A problem of the sweep document itself. */
    public static SweepViolation of(String pointer, String message) {
        return new SweepViolation(pointer, message, null, null, null);
    }
}
