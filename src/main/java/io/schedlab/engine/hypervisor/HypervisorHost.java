package io.schedlab.engine.hypervisor;

import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.policies.SchedulerContext;
import io.schedlab.engine.policies.YieldToResult;

/**
 * The simulator as a hypervisor layer sees it: the clock and timers, and the schedule path, which alone
 * calls the policy's hooks (the layer never holds the policy).
 */
public interface HypervisorHost {

    /** The policy's context (clock, topology, timers). */
    SchedulerContext context();

    /** Runs the schedule path on pCPU {@code pcpu} now, as after a yield when {@code yielded}. */
    void reschedule(int pcpu, boolean yielded);

    /** The running v yields (Xen vcpu_yield): the policy's yield, then schedule() on v's pCPU. */
    void yield(Vcpu v);

    /** Linux yield_to from the running {@code from} to the preempted {@code to}; the caller reschedules on success. */
    YieldToResult yieldTo(Vcpu from, Vcpu to);

    /** Tasks on pCPU {@code pcpu}'s run queue, the running one included (rq->nr_running), or -1 when the policy has none per pCPU. */
    int nrRunning(int pcpu);

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
