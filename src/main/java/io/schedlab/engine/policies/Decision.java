package io.schedlab.engine.policies;

import io.schedlab.engine.model.Vcpu;

/** A do_schedule answer: the vCPU to run (null = idle) and how long before the pCPU reschedules (negative = no timer). */
public record Decision(Vcpu next, long runNanos) {

    public static Decision idle() {
        return new Decision(null, -1);
    }
}
