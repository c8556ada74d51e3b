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

    /**
     * True when v's guest thread is in guest kernel mode: it holds a guest lock, spins for one, or runs
     * kernel-mode work (a system call).
     */
    boolean inGuestKernel(Vcpu v);

    /**
     * True when v's guest thread is inside a guest critical section: it holds a spinlock or spins for one,
     * so its preempt_count is not zero (include/linux/spinlock_api_smp.h: __raw_spin_lock calls
     * preempt_disable() before it spins).
     */
    boolean inCriticalSection(Vcpu v);
}
