package io.schedlab.engine.policies;

import io.schedlab.engine.model.Vcpu;

/** A do_schedule answer: the vCPU to run (null = idle) and how long before the pCPU reschedules (negative = no timer). */
public record Decision(Vcpu next, long runNanos) {

    /** Idle, no timer: one shared instance (records are immutable), so idle decisions allocate nothing. */
    private static final Decision IDLE = new Decision(null, -1);

    public static Decision idle() {
        return IDLE;
    }

    /**
     * {@code last} when it already runs {@code next} for {@code runNanos}, else a new decision: a
     * policy keeping its last decision per vCPU allocates only when the run time changes.
     */
    public static Decision reuse(Decision last, Vcpu next, long runNanos) {
        return last != null && last.next == next && last.runNanos == runNanos ? last : new Decision(next, runNanos);
    }
}
