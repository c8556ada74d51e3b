package io.schedlab.engine.policies;

import io.schedlab.engine.model.Vcpu;

/**
 * Optional capability: directed yield (Linux kernel/sched/core.c yield_to(), used by virt/kvm/kvm_main.c
 * kvm_vcpu_on_spin to boost a preempted lock holder). A policy without it refuses every directed yield.
 */
public interface DirectedYield {

    /**
     * The running {@code from} gives its turn to the preempted {@code to}; on {@link YieldToResult#YIELDED}
     * the caller reschedules {@code from}'s pCPU.
     */
    YieldToResult yieldTo(Vcpu from, Vcpu to);

    /** The policy's directed yield, or a refusal when it has none. */
    static DirectedYield of(SchedulerPolicy policy) {
        return policy instanceof DirectedYield d ? d : (from, to) -> YieldToResult.FAILED;
    }
}
