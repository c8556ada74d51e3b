package io.schedlab.engine.hypervisor;

import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.policies.SchedulerContext;
import io.schedlab.engine.policies.SchedulerPolicy;

/** The simulator as a hypervisor layer sees it: the clock, timers, the policy, and the schedule path. */
public interface HypervisorHost {

    /** The policy's context (clock, topology, timers). */
    SchedulerContext context();

    /** The host scheduler. */
    SchedulerPolicy policy();

    /** Runs the schedule path on pCPU {@code pcpu} now, as after a yield when {@code yielded}. */
    void reschedule(int pcpu, boolean yielded);

    /** True when v's guest thread holds a guest lock or spins for one (the guest is in kernel mode). */
    boolean inGuestKernel(Vcpu v);
}
