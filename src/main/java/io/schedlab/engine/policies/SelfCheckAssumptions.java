package io.schedlab.engine.policies;

/**
 * Optional capability: what the simulator's self-check may assume about a policy's waits. A policy that
 * does not implement it is work conserving within {@link #DEFAULT_BALANCE_PERIOD_NANOS}, offers re-queued
 * vCPUs to idle pCPUs and bounds each wait only.
 */
public interface SelfCheckAssumptions {

    /** The bound of a policy without its own: 30 ms, Xen credit's default time slice (sched_credit_tslice_ms). */
    long DEFAULT_BALANCE_PERIOD_NANOS = 30_000_000L;

    /** The assumptions of a policy without its own. */
    SelfCheckAssumptions DEFAULTS = new SelfCheckAssumptions() {
    };

    /** True when the policy promises never to leave an allowed pCPU idle while a vCPU waits beyond {@link #balancePeriodNanos()}. */
    default boolean workConserving() {
        return true;
    }

    /**
     * True when a vCPU put back on its run queue after running (preempted, not woken) is offered to
     * idle pCPUs as a waking one is, so {@link #workConserving()} bounds that wait too; false when
     * only a wake or a migration tickles idle pCPUs and the wait counts from the vCPU's next placement.
     */
    default boolean requeueTicklesIdlers() {
        return true;
    }

    /**
     * True when {@link #balancePeriodNanos()} also bounds the total a vCPU waits beside an idle allowed pCPU
     * over all its waits on one run queue since it was placed there, not only each wait: a policy that
     * balances run queues by load moves such a vCPU (or work to the idle pCPU) within that time, so a vCPU
     * sharing a busy queue in short turns while another queue idles is caught too.
     */
    default boolean boundsWaitsPerPlacement() {
        return false;
    }

    /** The longest a runnable vCPU may wait beside an idle allowed pCPU under this policy. */
    default long balancePeriodNanos() {
        return DEFAULT_BALANCE_PERIOD_NANOS;
    }

    /** The policy's own assumptions, or {@link #DEFAULTS}. */
    static SelfCheckAssumptions of(SchedulerPolicy policy) {
        return policy instanceof SelfCheckAssumptions a ? a : DEFAULTS;
    }
}
